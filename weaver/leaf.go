package weaver

import (
	"slices"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// Leaf advice (advice.Advice.Leaf: its code runs and resolves no class but
// its own) cannot reach woven code once its class is initialized, where the
// JDK is not woven: setting the thread's bypass flag around it is then
// unobservable. Its helper tests the runtime's constant DIB.leafDirect
// (true in the application runtime, false in the JDK's, which the JIT folds)
// and calls the advice directly:
//
//	static void aN(Object token, values..., int id) {
//	    if (DIB.leafDirect) { Advice.m(values, base+id); return; }
//	    DIB.begin(token); try { ... } finally { DIB.end(token); }
//	}
//
// With no helper setting the flag, DIB.token finds no thread that may
// bypass and returns its shared token after one load (runtime-java's
// DIB): the woven method entry costs about what a raw static call of the
// advice does. The advice classes' static initializers, which may run
// anything, run in the sister's own static initializer, in a bypass:
//
//	static {
//	    Object t = DIB.enterInit();
//	    try { Class.forName("pkg.Advice"); ... } finally { DIB.exitInit(t); }
//	}
//
// Class.forName also records the sister's loader as an initiating loader
// of the advice class, so the helper's call resolves it without calling a
// class loader (which may be woven). docs/jdk.md has the argument.

// leafDirect reports whether the helper of spec calls its advice directly
// when the runtime allows it: leaf advice in an application weaving, with
// nothing around the call that runs code (no residue, exit check, cflow
// entry, static part, thisJoinPoint, annotation or proceed) and values
// passed as they are or widened.
func (hg *helperGen) leafDirect() bool {
	h := hg.h
	if !h.leaf || !h.adv.Leaf || h.adv.Kind == advice.Around || h.adv.Cflow != nil ||
		h.residue != nil || h.exitCheck != "" || h.tjp || h.dims != 0 {
		return false
	}
	am, err := classfile.ParseMethodDesc(h.adv.Method.Desc)
	if err != nil || len(am.Params) != len(h.args) {
		return false
	}
	for k, v := range h.args {
		switch v.Kind {
		case advice.JoinPointID:
		case advice.This, advice.Target, advice.Arg, advice.Returned, advice.Thrown:
			from, to := classfile.Type(hg.param(v.Kind, v.Index).desc), am.Params[k]
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
// return; the full path follows at the label it places.
func (hg *helperGen) directCall() {
	g, a := hg.g, hg.h.adv
	full := classfile.NewLabel()
	g.idx(classfile.OpGetstatic, addFieldref(g.c.Pool, rtjava.DIBLeafDirect))
	g.add(classfile.Insn{Op: classfile.OpIfeq, Label: full})
	am, _ := classfile.ParseMethodDesc(a.Method.Desc)
	hg.pushArgs(am.Params)
	g.invoke(classfile.OpInvokestatic, a.Method.Owner, a.Method.Name, a.Method.Desc)
	g.op(classfile.OpReturn)
	hg.label(full)
	hg.frame(full, nil)
	if !slices.Contains(g.leafOrder, a.Method.Owner) {
		g.leafOrder = append(g.leafOrder, a.Method.Owner)
	}
}

// leafInit adds the sister's static initializer, which initializes the
// classes of the leaf advice its helpers call directly, in a bypass.
func (g *sisterGen) leafInit() error {
	p := g.c.Pool
	m := &classfile.Member{Access: classfile.AccStatic, Name: p.AddUtf8("<clinit>"), Desc: p.AddUtf8("()V")}
	g.c.Methods = append(g.c.Methods, m)
	start, end, handler := classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel()
	token := []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Object"}}
	code := &classfile.Code{MaxStack: 1, MaxLocals: 2,
		Handlers: []classfile.Handler{{Start: start, End: end, Handler: handler}},
		Frames: []classfile.Frame{{At: handler, Locals: token,
			Stack: []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Throwable"}}}}}
	g.insns = nil
	g.invokeRuntime(rtjava.DIBEnterInit)
	g.idx(classfile.OpAstore, 0)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: start})
	for _, owner := range g.leafOrder {
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddString(classfile.ObjectType(owner).JavaName())})
		g.invoke(classfile.OpInvokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;)Ljava/lang/Class;")
		g.op(classfile.OpPop)
	}
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: end})
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtjava.DIBExitInit)
	g.op(classfile.OpReturn)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: handler})
	g.idx(classfile.OpAstore, 1)
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtjava.DIBExitInit)
	g.idx(classfile.OpAload, 1)
	g.op(classfile.OpAthrow)
	code.Insns = g.insns
	return code.Encode(g.c, m, classfile.EncodeOptions{})
}
