package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Static initialization, preinitialization and initialization shadows.
//
// A class's static initialization is the execution of its <clinit>,
// woven like a method execution; a class without one is given an empty
// one when advice applies (as ajc does). The (pre)initialization shadows
// of a constructor exist only when it calls super(...): preinitialization
// runs from the constructor's start to that call, initialization from its
// return to the constructor's end. A constructor calling this(...) has
// neither: the constructor it delegates to has them (ajc instead inlines
// this(...) constructors into their callers; docs/language.md).

// staticInitShadow is the static initialization shadow of the class's
// <clinit>, self.
func (cw *classWeaver) staticInitShadow(self advice.Member, line int) *shadow {
	return &shadow{Shadow: advice.Shadow{Kind: advice.StaticInitialization, Within: cw.name, Code: self,
		Member: self, StaticThis: true, StaticTarget: true}, at: -1, line: line}
}

// ctorShadows matches the preinitialization and initialization shadows
// of constructor self, whose super(...) or this(...) call is instruction
// superAt.
func (cw *classWeaver) ctorShadows(code *classfile.Code, lineAt lineTable, self advice.Member, superAt, firstLine int,
	kinds advice.KindSet, match func(*shadow)) {
	if owner, _, _ := cw.c.Pool.MemberRef(code.Insns[superAt].Index); owner == cw.name {
		return // this(...)
	}
	if kinds.Has(advice.PreInitialization) {
		match(&shadow{Shadow: advice.Shadow{Kind: advice.PreInitialization, Within: cw.name, Code: self, Member: self,
			StaticThis: true, StaticTarget: true}, at: superAt, line: firstLine, preSuper: true})
	}
	if kinds.Has(advice.Initialization) {
		match(&shadow{Shadow: advice.Shadow{Kind: advice.Initialization, Within: cw.name, Code: self, Member: self},
			at: superAt, line: lineAfter(code, lineAt, superAt, firstLine)})
	}
}

// addStaticInit gives class c an empty <clinit> when it has none and
// some advice or declaration may apply at its static initialization,
// and returns it (nil otherwise): the caller weaves it like any method
// and drops it again if nothing was woven.
func (w *Weaver) addStaticInit(c *classfile.Class) (*classfile.Member, error) {
	if !(w.adviceKinds | w.declKinds).Has(advice.StaticInitialization) || c.FindMethod("<clinit>", "()V") != nil {
		return nil, nil
	}
	p := c.Pool
	m := &classfile.Member{Access: classfile.AccStatic, Name: p.AddUtf8("<clinit>"), Desc: p.AddUtf8("()V")}
	code := &classfile.Code{Insns: []classfile.Insn{{Op: classfile.OpReturn}}}
	if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
		return nil, err
	}
	c.Methods = append(c.Methods, m)
	return m, nil
}

// dropMember removes m from c's methods.
func dropMember(c *classfile.Class, m *classfile.Member) {
	for i, x := range c.Methods {
		if x == m {
			c.Methods = append(c.Methods[:i], c.Methods[i+1:]...)
			return
		}
	}
}

// enterPre emits the before advice of preinitialization shadow pre at the
// constructor's start and opens the range its after-throwing handler
// covers (up to the super(...) call).
func (e *emitter) enterPre(pre *shadow) {
	e.tmp = e.base
	ctx := e.execCtx(pre)
	for _, a := range pre.applied {
		if a.Advice.Kind == advice.Before {
			e.callHelper(ctx, a)
		}
	}
	if pre.has(advice.AfterThrowing, advice.After) {
		e.preStart = classfile.NewLabel()
		e.label(e.preStart)
		e.preFrom = len(e.out)
	}
}

// exitPre closes pre's range and emits its after (returning) advice just
// before the super(...) call, whose arguments are on the stack.
func (e *emitter) exitPre(pre *shadow) {
	if e.preStart != nil {
		empty := true
		for _, in := range e.out[e.preFrom:] {
			empty = empty && in.Op == classfile.OpLabel
		}
		if empty {
			e.preStart = nil // nothing to cover
		} else {
			e.preEnd = classfile.NewLabel()
			e.label(e.preEnd)
		}
	}
	ctx := e.execCtx(pre)
	for k := len(pre.applied) - 1; k >= 0; k-- {
		a := pre.applied[k]
		if a.Advice.Kind == advice.AfterReturning || a.Advice.Kind == advice.After {
			e.callHelper(ctx, a)
		}
	}
}

// preThrowing emits the handler running pre's after throwing and after
// advice, then rethrowing. `this` is still uninitialized there, which the
// verifier allows in a handler that ends by throwing.
func (e *emitter) preThrowing(pre *shadow) {
	if pre == nil || e.preStart == nil || e.preEnd == nil {
		return
	}
	e.tmp = e.base
	h := classfile.NewLabel()
	e.label(h)
	exc := e.alloc(1)
	e.local(classfile.OpAstore, exc)
	ctx := e.execCtx(pre)
	ctx.exc = exc
	for k := len(pre.applied) - 1; k >= 0; k-- {
		a := pre.applied[k]
		if a.Advice.Kind == advice.AfterThrowing || a.Advice.Kind == advice.After {
			e.callHelper(ctx, a)
		}
	}
	e.local(classfile.OpAload, exc)
	e.op(classfile.OpAthrow)
	e.execHandlers = append(e.execHandlers, classfile.Handler{Start: e.preStart, End: e.preEnd, Handler: h})
}
