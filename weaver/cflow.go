package weaver

import (
	"fmt"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// cflow and if(): the sister helpers that keep a cflow's per-thread state
// at the shadows of its pointcut (advice.CflowEntry), the residue tests of
// advised shadows (InCflow: weft.rt.Cflow.in(token, key); If: a call of
// the if() method) and the values bound inside a cflow (CflowValue:
// weft.rt.Cflow.get(token, key, k), the innermost entry's). The token is
// the helper's first parameter, the thread's bypass token: the thread's
// cflow state is a field of it (of the Thread in the woven JDK, of the
// thread's bypass cell in application mode), so no lookup is needed.
//
// An entry that pushes no values is
//
//	static void aN(Object token, values the residue tests...) {
//	    if (!residue) return;
//	    Cflow.enter(token, key);   // exit: Cflow.exit(token, key)
//	}
//
// with no bypass around it: weft.rt.Cflow touches only arrays and the
// token's field, nothing woven. An entry
// that pushes values boxes them, which may run woven code (Integer.valueOf
// in the woven JDK), so it sets the DIB around the push as advice does.
// So does a helper whose residue calls if() methods: the test is user code.

// hasIf reports whether residue r calls an if() method.
func hasIf(r *advice.Residue) bool { return hasOp(r, advice.If) }

// hasOp reports whether the residue tests op anywhere.
func hasOp(r *advice.Residue, op advice.ResidueOp) bool {
	if r == nil {
		return false
	}
	if r.Op == op {
		return true
	}
	for _, c := range r.Children {
		if hasOp(c, op) {
			return true
		}
	}
	return false
}

// usesCflow reports whether applied advice reads the thread's cflow state,
// which its helper reaches through the token it is passed: a cflow() test
// in its residue or a value bound inside a cflow.
func usesCflow(a advice.Applied) bool {
	if hasOp(a.Residue, advice.InCflow) {
		return true
	}
	for _, v := range a.Advice.Args {
		if v.Kind == advice.CflowValue {
			return true
		}
	}
	return false
}

// residueExtra is the part of an InCflow or If residue's key that
// residueString does not write.
func residueExtra(r *advice.Residue) string {
	if r.Op == advice.InCflow {
		return fmt.Sprintf(" cflow %d", r.Cflow)
	}
	var b strings.Builder
	fmt.Fprintf(&b, " if %s.%s%s", r.Method.Owner, r.Method.Name, r.Method.Desc)
	for _, v := range r.Args {
		fmt.Fprintf(&b, " %d,%d,%d,%s", v.Kind, v.Index, v.Cflow, v.Desc)
	}
	return b.String()
}

// beginBypass sets the DIB before the helper's tests (see begun).
func (hg *helperGen) beginBypass() {
	hg.g.idx(classfile.OpAload, 0)
	hg.g.invokeRuntime(rtnames.DIBBegin)
	hg.begun = classfile.NewLabel()
	hg.label(hg.begun)
}

// pushInt pushes an int constant.
func (g *sisterGen) pushInt(v int32) {
	switch {
	case v >= -1 && v <= 5:
		g.op(classfile.OpIconst0 + uint16(v))
	case v >= -128 && v <= 127:
		g.add(classfile.Insn{Op: classfile.OpBipush, Const: v})
	default:
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(v)})
	}
}

// cflowTest jumps to fail unless the thread is in the cflow r names.
func (hg *helperGen) cflowTest(r *advice.Residue, fail *classfile.Label) {
	hg.g.idx(classfile.OpAload, 0) // the token
	hg.g.pushInt(r.Cflow)
	hg.g.invokeRuntime(rtnames.CflowIn)
	hg.g.add(classfile.Insn{Op: classfile.OpIfeq, Label: fail})
	hg.skips = true
	hg.needStack(2)
}

// ifTest jumps to fail unless the if() method returns true.
func (hg *helperGen) ifTest(r *advice.Residue, fail *classfile.Label) {
	mt, _ := classfile.ParseMethodDesc(r.Method.Desc) // checked when the pointcut was compiled
	stack := 0
	for i, v := range r.Args {
		want := classfile.Type(v.Desc)
		if i < len(mt.Params) {
			want = mt.Params[i]
		}
		stack += hg.push(v, want) + 1
	}
	hg.g.invoke(classfile.OpInvokestatic, r.Method.Owner, r.Method.Name, r.Method.Desc)
	hg.g.add(classfile.Insn{Op: classfile.OpIfeq, Label: fail})
	hg.skips = true
	hg.needStack(stack + 4)
}

// pushCflowValue pushes value v.Index of the innermost entry of cflow
// v.Cflow, converted to type want.
func (hg *helperGen) pushCflowValue(v advice.Value, want classfile.Type) {
	hg.g.idx(classfile.OpAload, 0) // the token
	hg.g.pushInt(v.Cflow)
	hg.g.pushInt(int32(v.Index))
	hg.g.invokeRuntime(rtnames.CflowGet)
	hg.g.convert("Ljava/lang/Object;", want)
}

func (hg *helperGen) needStack(n int) {
	if uint16(n) > hg.code.MaxStack {
		hg.code.MaxStack = uint16(n)
	}
}

// cflowHelper emits the body of a cflow's entry or exit helper.
func (hg *helperGen) cflowHelper() {
	g, e := hg.g, hg.h.adv.Cflow
	if hg.h.residue != nil {
		hg.residueTest(hg.h.residue, hg.skip)
	}
	hg.code.MaxLocals = uint16(hg.next + 1)
	switch {
	case !e.Enter:
		g.idx(classfile.OpAload, 0)
		g.pushInt(e.Key)
		if e.Values > 0 {
			g.invokeRuntime(rtnames.CflowPop)
		} else {
			g.invokeRuntime(rtnames.CflowExit)
		}
		g.op(classfile.OpReturn)
		hg.needStack(2)
	case e.Values == 0:
		g.idx(classfile.OpAload, 0)
		g.pushInt(e.Key)
		g.invokeRuntime(rtnames.CflowEnter)
		g.op(classfile.OpReturn)
		hg.needStack(2)
	default:
		hg.cflowPush()
	}
	hg.skipReturn()
}

// cflowPush emits DIB.begin(token); try { Cflow.push(key, new Object[]
// {values}) } finally { DIB.end(token) }.
func (hg *helperGen) cflowPush() {
	g := hg.g
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtnames.DIBBegin)
	start, end, handler := classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel()
	hg.label(start)
	g.idx(classfile.OpAload, 0)
	g.pushInt(hg.h.adv.Cflow.Key)
	g.pushInt(int32(len(hg.h.args)))
	g.idx(classfile.OpAnewarray, g.c.Pool.AddClass("java/lang/Object"))
	for k, v := range hg.h.args {
		g.op(classfile.OpDup)
		g.pushInt(int32(k))
		hg.push(v, "Ljava/lang/Object;")
		g.op(classfile.OpAastore)
	}
	g.invokeRuntime(rtnames.CflowPush)
	hg.closeBypass(start, end, handler)
	hg.needStack(10)
}
