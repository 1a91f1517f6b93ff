package pointcut

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Exception handlers and initialization: handler(TypePattern),
// staticinitialization(TypePattern), initialization(ConstructorPattern)
// and preinitialization(ConstructorPattern), as AspectJ defines them:
//
//   - handler: the start of a catch block; its argument is the caught
//     exception, it has `this` (outside static code and before super(...))
//     and no target. Only before advice runs there (ajc's limitation).
//   - staticinitialization: the execution of a class's <clinit>; no this,
//     no target, no arguments.
//   - preinitialization: a constructor that calls super(...), from its
//     start up to that call (the evaluation of super's arguments); no this,
//     no target, the constructor's arguments.
//   - initialization: a constructor that calls super(...), from the return
//     of that call to the end of the constructor; this and target are the
//     new object, the arguments the constructor's.

// handlerNode is handler(T): a catch block whose caught type matches T.
type handlerNode struct{ t typePat }

func (n handlerNode) eval(m *matchCtx) result {
	if m.s.Kind != advice.ExceptionHandler {
		return never
	}
	caught, ok := m.s.ArgTypes()
	if ok && len(caught) == 1 && n.t.match(string(caught[0]), m.h) {
		return always
	}
	return never
}

// staticInitNode is staticinitialization(T).
type staticInitNode struct{ t typePat }

func (n staticInitNode) eval(m *matchCtx) result {
	if m.s.Kind == advice.StaticInitialization && n.t.match(string(classfile.ObjectType(m.s.Member.Owner)), m.h) {
		return always
	}
	return never
}

// initNode is initialization(C) or, with pre, preinitialization(C).
type initNode struct {
	pre bool
	sig *sigPat
}

func (n initNode) eval(m *matchCtx) result {
	want := advice.Initialization
	if n.pre {
		want = advice.PreInitialization
	}
	if m.s.Kind == want && n.sig.matchMember(&m.s.Member, false, m.h) {
		return always
	}
	return never
}

// initDesignator compiles handler, staticinitialization, initialization
// and preinitialization.
func (c *compiler) initDesignator(d *Designator, name string) node {
	switch name {
	case "handler":
		return handlerNode{c.typePattern(d.Type, false)}
	case "staticinitialization":
		return staticInitNode{c.typePattern(d.Type, false)}
	}
	s := c.signature(d.Method, c.between(d.Method.Pos, d.Close))
	if s == nil {
		return constNode{advice.Never}
	}
	if !s.ctor {
		c.errorf(d.Method.Pos, "write "+name+"(T.new(..)) with the constructor's declaring type T",
			"%s takes a constructor pattern, not a method pattern", name)
		return constNode{advice.Never}
	}
	if s.declArray {
		c.errorf(d.Pos, "", "arrays have no constructor to %s", map[string]string{
			"initialization": "initialize objects", "preinitialization": "preinitialize objects"}[name])
		return constNode{advice.Never}
	}
	return initNode{pre: name == "preinitialization", sig: s}
}

// initKinds is kindsOf for the nodes of this file; ok is false for other
// nodes.
func initKinds(n node) (advice.KindSet, bool) {
	switch n := n.(type) {
	case handlerNode:
		return 1 << advice.ExceptionHandler, true
	case staticInitNode:
		return 1 << advice.StaticInitialization, true
	case initNode:
		if n.pre {
			return 1 << advice.PreInitialization, true
		}
		return 1 << advice.Initialization, true
	}
	return 0, false
}

// checkHandlerAdvice drops exception handlers from the kinds of after
// advice, which AspectJ never runs there (ajc warns "Only before advice is
// supported on handler join points" and weaves nothing), and reports an
// error when that leaves the advice nothing it could match: the advice
// would be dead.
func (c *compiler) checkHandlerAdvice(b *boundAdvice, ad *AdviceDecl) {
	if b.info.Advice.Kind == advice.Before || !b.kinds.Has(advice.ExceptionHandler) {
		return
	}
	b.kinds &^= 1 << advice.ExceptionHandler
	if b.kinds == 0 {
		c.errorf(ad.Pos, "at a handler only before advice runs (as in AspectJ): write before(...)",
			"%s advice cannot apply at exception handler join points", ad.Kind)
	}
}
