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
		line := initLine(code, lineAt, superAt, firstLine)
		match(&shadow{Shadow: advice.Shadow{Kind: advice.Initialization, Within: cw.name, Code: self, Member: self},
			at: superAt, line: line})
		for _, iface := range cw.ifaceInitTypes() {
			m := advice.Member{Owner: iface, Name: "<init>", Desc: "()V", Access: classfile.AccPublic, AccessKnown: true}
			match(&shadow{Shadow: advice.Shadow{Kind: advice.Initialization, Within: cw.name, Code: self, Member: m},
				at: superAt, line: line})
		}
	}
}

// initLine is the line ajc reports for an initialization join point: that
// of the first instruction after the super(...) call at superAt, unless
// that instruction is a return (ajc rewrites returns and loses their
// line), then the line in effect at the call.
func initLine(code *classfile.Code, lineAt lineTable, superAt, firstLine int) int {
	line := firstLine
	for i := 0; i <= superAt; i++ {
		if in := code.Insns[i]; in.Op == classfile.OpLabel {
			if l, ok := lineAt.at(in.Label); ok {
				line = l
			}
		}
	}
	for i := superAt + 1; i < len(code.Insns); i++ {
		if in := code.Insns[i]; in.Op != classfile.OpLabel {
			if isReturn(in.Op) {
				return line
			}
			break
		}
	}
	return lineAfter(code, lineAt, superAt, line)
}

// ifaceInitTypes returns the interfaces whose initialization join points
// the class's constructors hold, as in ajc: every interface the class
// implements, directly or as a superinterface of one, that no superclass
// implements (the class is its "topmost implementor"), each before its
// superinterfaces. An AspectJ interface initialization is an empty join
// point right after super(...) returns, inside the class's own
// initialization and before the constructor's execution.
func (cw *classWeaver) ifaceInitTypes() []string {
	if cw.ifaces != nil {
		return *cw.ifaces
	}
	h := cw.w.opts.Hierarchy
	inherited := map[string]bool{}
	var walk func(names []string, into map[string]bool)
	walk = func(names []string, into map[string]bool) {
		for _, n := range names {
			if into[n] {
				continue
			}
			into[n] = true
			if h == nil {
				continue
			}
			if ci, err := h.Lookup(n); err == nil {
				walk(ci.Interfaces, into)
			}
		}
	}
	for sup := cw.c.SuperName(); sup != "" && h != nil; {
		ci, err := h.Lookup(sup)
		if err != nil {
			break
		}
		walk(ci.Interfaces, inherited)
		sup = ci.Super
	}
	var out []string
	seen := map[string]bool{}
	var visit func(names []string)
	visit = func(names []string) {
		for _, n := range names {
			if inherited[n] || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
			if h == nil {
				continue
			}
			if ci, err := h.Lookup(n); err == nil {
				visit(ci.Interfaces)
			}
		}
	}
	if cw.c.Access&classfile.AccInterface == 0 {
		visit(cw.c.InterfaceNames())
	}
	cw.ifaces = &out
	return out
}

// ifaceInits emits the advice of interface initialization shadows: empty
// join points, so before and after (returning) advice run in a row.
func (e *emitter) ifaceInits(ifaces []*shadow) {
	for _, s := range ifaces {
		ctx := e.execCtx(s)
		ctx.args, ctx.argDescs = nil, nil // an interface's "constructor" takes none
		for _, a := range s.applied {
			if a.Advice.Kind == advice.Before {
				e.callHelper(ctx, a)
			}
		}
		for k := len(s.applied) - 1; k >= 0; k-- {
			if a := s.applied[k]; a.Advice.Kind == advice.AfterReturning || a.Advice.Kind == advice.After {
				e.callHelper(ctx, a)
			}
		}
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
