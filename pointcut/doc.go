// Package pointcut is weft's aspect language: it parses .weft files,
// resolves their pointcuts and advice, binds each advice to a static Java
// method, and matches join point shadows.
//
// A .weft file holds aspects in AspectJ's syntax, with advice bodies reduced
// to one call of a static method of the user's advice class:
//
//	aspect AllocTracker {
//	    pointcut allocs(): call(*.new(..)) && !within(example.tracker..*);
//	    after() returning(Object o): allocs() {
//	        example.tracker.Tracker.onNew(o, thisJoinPointStaticPart);
//	    }
//	}
//
// docs/language.md is the reference (grammar, designators, context values,
// differences from AspectJ).
//
// # Use
//
//	f, err := pointcut.ParseFile("alloc.weft", src)      // syntax; err is an ErrorList
//	prog, err := pointcut.Resolve([]*pointcut.File{f}, adviceCP)  // meaning, advice binding
//	for _, a := range prog.Match(shadow, hierarchy) {    // prog is a Matcher
//	    // a.Advice.Method: the static method to call
//	    // a.Args: the values to push, in order, each with the parameter's descriptor
//	    // a.Verdict, a.Residue: Always, or Maybe with instanceof tests to emit
//	    // a.ExitCheck: instanceof on the returned/thrown value for after advice
//	}
//
// ParseFile reports syntax errors only; Resolve reports semantic ones
// (unknown designators and pointcuts, unbound or twice-bound formals,
// types, advice methods that do not fit). Both report every error they
// find, each with file:line:col, the source line, a caret and a hint when
// one is obvious.
//
// # Matching
//
// Shadows name classes and members by JVM internal names and descriptors;
// patterns are matched on the Java names derived from them. Match answers
// in three values: Never, Always, or Maybe with a Residue of instanceof
// tests on this, target or arguments that the weaver emits before the
// advice call (and, for after advice, evaluates at the exit with the
// values saved at entry). The classfile.Hierarchy given to Match resolves
// `+` patterns and the static instanceof questions; if it also implements
// MethodHierarchy, call and execution signatures are matched through the
// supertypes that have the method, covariant overrides included, as
// AspectJ does (signatures.go). A field access has one signature, its
// declaration's: the weaver resolves the reference, so get and set test the
// shadow's member as it is.
//
// Applied lists advice in AspectJ precedence order, highest first: aspects
// in the order given to Resolve (first file, first aspect first); within an
// aspect, before advice in declaration order, then after advice in reverse
// declaration order. The weaver runs before advice in list order and after
// advice in reverse list order.
//
// cflow(P) and cflowbelow(P) add advice of weft's own (Advice.Cflow set) at
// each shadow P matches: the entry, a Before, and the exit, an After, of
// the cflow's per-thread state, placed first in the list for cflow (around
// all other advice) and last for cflowbelow (inside it); at advised shadows
// they are InCflow residues, and formals bound inside them CflowValue
// values (cflow.go). if(C.m(formals)) is an If residue (if.go).
package pointcut
