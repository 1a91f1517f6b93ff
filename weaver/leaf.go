package weaver

import (
	"slices"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// Leaf advice (advice.Advice.Leaf: its code runs and resolves no class but
// its own and those of the static methods it calls, LeafReach, which the
// weaver never weaves, as it never weaves advice classes) cannot reach
// woven code once those classes are initialized, where the JDK is not
// woven: setting the thread's bypass flag around it is then unobservable.
// Its helper tests the runtime's constant DIB.leafDirect (true in the
// application runtime, false in the JDK's, which the JIT folds) and calls
// the advice directly:
//
//	static void aN(Object token, values..., int id) {
//	    if (DIB.leafDirect) { Advice.m(values, base+id); return; }
//	    DIB.begin(token); try { ... } finally { DIB.end(token); }
//	}
//
// Leaf around advice may also call proceed(), the one way it reaches woven
// code: proceed clears the flag while the join point runs and restores it
// after (runtime-java's Proceed), which, with the flag clear already, is
// to write nothing. Its helper (around.go's rN) makes the closure, then
// does the same:
//
//	if (DIB.leafDirect) return (R) Advice.m(c, base+id);
//
// so in compiled code the closure, the flag and the box of the join
// point's value are gone, and what is left is the advice's own code.
//
// With no helper setting the flag, DIB.token finds no thread that may
// bypass and returns its shared token after one load (runtime-java's
// DIB): the woven method entry costs about what a raw static call of the
// advice does. The advice classes' static initializers, which may run
// anything, run in the sister's own static initializer, in a bypass, and
// so do those of the classes it reaches:
//
//	static {
//	    Object t = DIB.enterInit();
//	    try {
//	        Class.forName("pkg.Advice"); ...
//	        Class.forName("pkg.Reached", true, Advice.class.getClassLoader()); ...
//	    } finally { DIB.exitInit(t); }
//	}
//
// Class.forName also records the sister's loader as an initiating loader
// of the advice class, and the advice class's loader as one of each class
// it reaches, so the calls resolve them without calling a class loader
// (which may be woven). docs/jdk.md has the argument.
//
// When all the advice of the weaving is leaf with none of the user's code
// around it (advice.AllLeaf: no around, cflow or if()), the flag its
// helpers set guards only leaf advice, which reaches no woven code, so the
// token is not needed either: a method whose helpers all call their advice
// directly first reads the sister's constant direct (directEntry),
//
//	token = !BIB.ready ? Weft.enter()
//	      : Sister.direct != null ? Sister.direct : DIB.token();
//
// and the sister's static initializer ends with
//
//	if (t != null && DIB.leafDirect) direct = Sister.class;
//
// so direct is set once the advice classes are initialized, in the
// application runtime, unless the sister was initialized inside a bypass
// (t null: then it stays null, and its methods take the thread's token).
// Code the advice classes' static initializers run reads null, as does a
// thread reading it while it initializes the sister. Compiled code folds
// the constant: the entry is the advice call alone, as a raw static call
// in the source.

// leafDirect reports whether the helper of h calls its advice directly
// when the runtime allows it: leaf advice in an application weaving, with
// nothing around the call that runs code (no residue, exit check, cflow
// entry, static part, thisJoinPoint or annotation) and values passed as
// they are or widened; around advice's proceed is the closure.
func (h *helperSpec) leafDirect() bool {
	if !h.leaf || !h.adv.Leaf || h.adv.Cflow != nil ||
		h.residue != nil || h.exitCheck != "" || h.tjp || h.dims != 0 {
		return false
	}
	am, err := classfile.ParseMethodDesc(h.adv.Method.Desc)
	if err != nil || len(am.Params) != len(h.args) {
		return false
	}
	for k, v := range h.args {
		switch v.Kind {
		case advice.JoinPointID, advice.Proceed:
		case advice.This, advice.Target, advice.Arg, advice.Returned, advice.Thrown:
			from, to := classfile.Type(h.param(v.Kind, v.Index).desc), am.Params[k]
			if from != to && !(from.IsPrimitive() && to.IsPrimitive()) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// directCall emits the leaf path: if DIB.leafDirect, the advice call and
// what ret emits with its result on the stack (the helper's return); the
// full path follows at the label it places.
func (hg *helperGen) directCall(ret func(result classfile.Type)) {
	g, a := hg.g, hg.h.adv
	full := classfile.NewLabel()
	g.idx(classfile.OpGetstatic, addFieldref(g.c.Pool, rtnames.DIBLeafDirect))
	g.add(classfile.Insn{Op: classfile.OpIfeq, Label: full})
	am, _ := classfile.ParseMethodDesc(a.Method.Desc)
	hg.pushArgs(am.Params)
	g.invoke(classfile.OpInvokestatic, a.Method.Owner, a.Method.Name, a.Method.Desc)
	ret(am.Return)
	hg.label(full)
	hg.frame(full, nil)
	if !slices.Contains(g.leafOrder, a.Method.Owner) {
		g.leafOrder = append(g.leafOrder, a.Method.Owner)
	}
	for _, c := range a.LeafReach {
		if r := [2]string{a.Method.Owner, c}; !slices.Contains(g.leafReach, r) {
			g.leafReach = append(g.leafReach, r)
		}
	}
}

// staticInit adds the sister's static initializer, which initializes the
// classes of the leaf advice its helpers call directly, in a bypass, and
// then the other classes whose code the advice runs (LeafReach), each
// with the advice class's loader, which so records it as an initiating
// loader: the advice's first call resolves them without calling it.
//
//	Class.forName("pkg.Reached", true, Advice.class.getClassLoader());
//
// A sister holding static parts registers them first (registerParts).
func (g *sisterGen) staticInit() error {
	p := g.c.Pool
	m := &classfile.Member{Access: classfile.AccStatic, Name: p.AddUtf8("<clinit>"), Desc: p.AddUtf8("()V")}
	g.c.Methods = append(g.c.Methods, m)
	g.insns = nil
	code := &classfile.Code{MaxStack: 6, MaxLocals: 2}
	g.registerParts()
	if len(g.leafOrder) == 0 {
		g.op(classfile.OpReturn)
		code.Insns = g.insns
		return code.Encode(g.c, m, classfile.EncodeOptions{})
	}
	start, end, handler := classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel()
	token := []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Object"}}
	code.Handlers = []classfile.Handler{{Start: start, End: end, Handler: handler}}
	code.Frames = []classfile.Frame{{At: handler, Locals: token,
		Stack: []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Throwable"}}}}
	g.invokeRuntime(rtnames.DIBEnterInit)
	g.idx(classfile.OpAstore, 0)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: start})
	for _, owner := range g.leafOrder {
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddString(classfile.ObjectType(owner).JavaName())})
		g.invoke(classfile.OpInvokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;)Ljava/lang/Class;")
		g.op(classfile.OpPop)
	}
	for _, r := range g.leafReach {
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddString(classfile.ObjectType(r[1]).JavaName())})
		g.op(classfile.OpIconst1)
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddClass(r[0])})
		g.invoke(classfile.OpInvokevirtual, "java/lang/Class", "getClassLoader", "()Ljava/lang/ClassLoader;")
		g.invoke(classfile.OpInvokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;")
		g.op(classfile.OpPop)
	}
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: end})
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtnames.DIBExitInit)
	if g.direct {
		g.directInit(code)
	}
	g.op(classfile.OpReturn)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: handler})
	g.idx(classfile.OpAstore, 1)
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtnames.DIBExitInit)
	g.idx(classfile.OpAload, 1)
	g.op(classfile.OpAthrow)
	code.Insns = g.insns
	return code.Encode(g.c, m, classfile.EncodeOptions{})
}

// The sister's constant read by woven entries (directEntry): the token of
// direct entries, null where they take the thread's.
const (
	directField = "direct"
	directDesc  = "Ljava/lang/Object;"
)

// directInit adds the sister's field direct and emits, in its static
// initializer, after the bypass whose token is local 0:
//
//	if (t != null && DIB.leafDirect) direct = Sister.class;
func (g *sisterGen) directInit(code *classfile.Code) {
	p := g.c.Pool
	g.c.Fields = append(g.c.Fields, &classfile.Member{Access: classfile.AccStatic | classfile.AccFinal | classfile.AccSynthetic,
		Name: p.AddUtf8(directField), Desc: p.AddUtf8(directDesc)})
	done := classfile.NewLabel()
	g.idx(classfile.OpAload, 0)
	g.add(classfile.Insn{Op: classfile.OpIfnull, Label: done})
	g.idx(classfile.OpGetstatic, addFieldref(p, rtnames.DIBLeafDirect))
	g.add(classfile.Insn{Op: classfile.OpIfeq, Label: done})
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddClass(g.sister)})
	g.idx(classfile.OpPutstatic, p.AddFieldref(g.sister, directField, directDesc))
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: done})
	// Its frame comes first: done is before the handler.
	code.Frames = append([]classfile.Frame{{At: done, Locals: []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Object"}}}},
		code.Frames...)
}

// directEntry, in the guard of a method woven in place in an all-leaf
// weaving, emits after BIB.ready's test the read of the sister's constant
// direct, which is the token if it is not null (no helper uses it: each
// calls its advice directly then), and jumps to got, where the token is
// stored:
//
//	getstatic Sister.direct; dup; ifnonnull got; pop
//
// finishDirect takes it out again if some helper the method calls does
// not call its advice directly.
func (e *emitter) directEntry(got *classfile.Label) {
	if !e.inPlace || !e.cw.w.allLeaf {
		return
	}
	e.hasDirect, e.directAt, e.direct = true, len(e.out), true
	e.add(classfile.Insn{Op: classfile.OpGetstatic, Index: e.cw.c.Pool.AddFieldref(e.cw.sister.name, directField, directDesc)})
	e.op(classfile.OpDup)
	e.add(classfile.Insn{Op: classfile.OpIfnonnull, Label: got})
	e.op(classfile.OpPop)
}

// directLen is the number of instructions directEntry emits.
const directLen = 4

// finishDirect returns insns, which hold the guard directEntry emitted
// to, without the read of direct if some helper the method calls does not
// call its advice directly (or it calls none); otherwise it tells the
// sister to define the constant.
func (e *emitter) finishDirect(insns []classfile.Insn) []classfile.Insn {
	if !e.hasDirect {
		return insns
	}
	if e.direct && e.helpers > 0 {
		e.cw.sister.useDirect()
		return insns
	}
	return slices.Delete(insns, e.directAt, e.directAt+directLen)
}
