// Package weaver inserts advice into class files: it finds the join point
// shadows of each method, asks a advice.Matcher which advice applies, and
// rewrites the methods so the advice runs on a real JVM, verified.
//
// # API
//
//	w := weaver.New(matcher, advice, weaver.Options{Hierarchy: h, IDBase: 0})
//	res, err := w.WeaveClass("pkg/Foo.class", data) // safe for concurrent use
//	// res.Class: woven bytes, nil if unchanged (then copy data as is)
//	// res.Extra: classes to add next to it (the sister class), by internal name
//	// res.Shadows: one WeaveInfo per (shadow, advice); String() is ajc's
//	//              -showWeaveInfo line
//	// res.Warnings: methods left unwoven (too large, undecodable) and why,
//	//              or woven with their bytecodes uncounted (bytecodes.go)
//	st, err := w.WeavePath("app.jar", "out/app.jar") // a whole jar, directory or class file, in parallel
//
//	// WeaveClass in two halves, for drivers with their own workers:
//	p, err := w.Prepare(name, data)          // concurrently
//	base := w.ReserveIDs(p.IDs())            // in a fixed order: reproducible ids
//	err = w.FinishAt(p, base)                // concurrently; p.Result is then complete
//
// An error from WeaveClass means the class could not be parsed or woven at
// all: the caller copies it unchanged (WeavePath does, with a warning).
// Options.Hierarchy should be a *MethodHierarchy so that call and
// execution pointcuts match through the supertypes that have a method,
// covariant overrides included, as AspectJ's do. Join point ids are unique ints per shadow, handed out
// from Options.IDBase; a second run meant for the same JVM (the JDK weave,
// then the application) starts at the first run's NextID(). WeaveClass
// numbers each class's ids as one block; WeavePath weaves in parallel but
// numbers the blocks in input order, so its output is reproducible.
//
// # Shadows
//
// method-execution and constructor-execution (after the super(...) or
// this(...) call; ajc's rules: synthetic methods have execution join
// points, bridge methods have no join points at all), method-call (invoke*
// of non-constructors; as in ajc, not super.m(...) calls nor
// invokedynamic), constructor-call (new … invokespecial <init>,
// paired by nesting; after returning receives the new object), array
// construction (newarray, anewarray, multianewarray; the dimensions are the
// arguments) and field-get/field-set (get/put field/static; the member is
// the field's declaration, found as the JVM resolves the reference through
// a FieldHierarchy; the new value of a set is its argument, the value read
// by a get what it returns; ajc's exclusions apply, see field.go). Before advice runs before the join point, after returning at
// each normal exit with the returned value (null for void), after throwing
// in a handler that rethrows the throwable unchanged, after (finally) on
// both. Several advice at one shadow run in the order the Matcher gives
// (precedence, highest first): before advice in that order, after advice in
// the reverse order.
//
// # Woven method shape
//
// A method with at least one advised shadow starts with a guard taking the
// thread's bypass token, null while the JVM bootstraps (BIB) and while the
// current thread bypasses woven code (DIB, set around every advice call):
//
//	getstatic weft/rt/BIB.ready; ifeq SLOW   // BIB first, a plain read
//	invokestatic weft/rt/DIB.token()Ljava/lang/Object; goto GOT  // the thread's DIB
//	SLOW: invokestatic weft/rt/Weft.enter()Ljava/lang/Object; // BIB confirmed, then DIB
//	GOT: astore TOKEN
//
// In JDK mode, a method whose first advice is before advice at its
// execution (in a constructor, after super(...) or this(...)) has no guard:
// that advice's helper, an entry helper (fused.go), is its guard, and
// returns the token for the method's later advice calls:
//
//	sipush ID; invokestatic Sister.aN(I)Ljava/lang/Object; astore TOKEN
//
// (with Options.SharedEntries, for advice that takes only the id, one
// helper of weft/rt/Shared$weft$jp for the whole JDK, passed the absolute
// id: ldc ID).
//
// then, unless some shadow has around advice, the body itself with the
// advice calls, each run of them skipped on a null token:
//
//	aload TOKEN; ifnull SKIP; <advice calls, each passing TOKEN>; SKIP:
//
// A shadow with around advice needs the original code apart (its closure
// proceeds to it, around.go): such a method goes on with
//
//	aload TOKEN; ifnull ORIGINAL  // null: bypass
//	  <copy of the body with the advice calls>
//	ORIGINAL:
//	  <the original body, unchanged>
//
// So while bootstrapping or bypassing a thread runs the body's own code:
// advice that calls back into woven code does not recurse, and no wrapper
// method or extra stack frame is added. Weaving in place halves the
// bytecode the JIT compiles and inlines (docs/jdk.md has the figures). The
// BIB branch is in each woven method, not in a shared runtime method, so
// each has its own branch profile: the JIT drops the bootstrap path from methods that never saw
// it, instead of keeping or deoptimizing it everywhere. Methods without advised shadows
// keep their Code attribute byte for byte. A method whose woven form would
// exceed the JVM's 64 KB limit is left unwoven with a warning naming it;
// where counting its bytecodes is what takes it over, it is woven
// uncounted instead, with a warning.
//
// Where the only advice a weaving can apply at a method is at its
// execution (no call, field or handler shadows, no declarations), the
// method is matched from its header and line table without decoding its
// body, and one with nothing advised is not decoded at all; a method
// other than a constructor with before advice only is then its guard and
// advice calls in front of its body kept byte for byte, tables moved and
// StackMapTable frames kept (entry.go, classfile.PrependCode): the same
// code as in place, without decoding, re-encoding and computing the frames
// of the whole method. The decoding path does the rest (constructors,
// whose advice follows the super(...) call; switches the guard would
// misalign).
//
// # Sister classes
//
// Each advice call in woven code is one invokestatic of a helper in the
// woven class's sister class, pkg/Foo$weft$jp (SisterSuffix), passing the
// guard's TOKEN, the dynamic values the advice needs (this, target,
// arguments, the returned value or the throwable, with their static types)
// and, if the advice uses the join point, the shadow's class-relative id
// (an int constant). The helper
//
//	static void aN(Object token, values..., int id) {
//	    if (!<residue instanceof tests>) return;
//	    DIB.begin(token);
//	    try { Advice.method(<values boxed/cast>, BASE+id or jp(id)); }
//	    finally { DIB.end(token); }
//	}
//
// is shared by every shadow of the class whose advice call has the same
// shape (advice, value types, residue), so a class has a few helpers, not
// one per shadow: that is what the JIT compiles. The token lets the helper
// set and clear the flag without looking the thread up again (the flag was
// clear when the guard passed, and every begin/end pair restores it).
// jp(int) reads the static part from a table of those loaded so far; on a
// miss it switches over calls of methods pK, each a call of
// weft.rt.JoinPointStaticPart.of with the part's constants, so a static part
// is created the first time advice runs at its shadow, and jp stays small
// enough for the JIT to inline into every helper. Advice passing
// thisJoinPoint gets this, the target and every argument, and its helper
// makes the weft.rt.JoinPoint from them (tjp.go). BASE, the class's first join point
// id, is known only to the sister class (see Prepare/FinishAt). Leaf
// advice (advice.Advice.Leaf) in an application weaving is called
// without begin/end when the runtime's constant DIB.leafDirect says so
// (leaf.go), leaf around advice too; then the sister's <clinit>
// initializes its class, and the classes it calls, in a bypass. In a weaving whose advice is all leaf (advice.AllLeaf), woven
// methods whose helpers all call their advice directly read the sister's
// constant direct after BIB.ready, and take it as the token when the
// <clinit> has set it (leaf.go). The sister class has no other <clinit>,
// and no fields but that table, direct (and an around closure's); it is
// first touched only by woven code that passed BIB's test, i.e. after
// bootstrap. The woven class's own
// fields and <clinit> are unchanged; the sister class is in the same
// package (same loader and runtime package) and has version 55 (dynamic
// constants) whatever the woven class's version. A class whose woven form
// or sister class would overflow a constant pool (tens of thousands of
// advised shadows) is left unwoven with a warning, like any class that
// cannot be woven.
//
// Residues may also test a cflow (weft.rt.Cflow.in) or call an if()
// method (then the DIB is set before the tests); a cflow's entries and
// exits, advice of the Matcher's own (advice.CflowEntry), are helpers that
// update weft.rt.Cflow's per-thread state, reached through the token
// (cflow.go).
//
// # Modes
//
// Woven code is identical for application and JDK weaving (but for leaf
// helpers and direct entries, made only for applications): it reaches the
// bypass flags only through weft.rt (BIB.ready, Weft.enter, DIB.token,
// DIB.begin, DIB.end), which the application runtime implements
// with a ThreadLocal and the JDK runtime (weaver/jdk) with a field of
// java.lang.Thread. Options.Mode and Options.Exclude let the JDK weaver
// keep methods such as an empty finalize() unwoven.
package weaver
