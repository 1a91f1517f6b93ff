package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Exception handler shadows.
//
// As in ajc, each entry of the exception table that names a type (not a
// finally's catch-all) is one handler join point, at the start of its
// catch block: a multi-catch has one per type, and a try block that javac
// splits around inlined finally code has one per piece. Each entry gets
// its own stub in the woven copy,
//
//	STUB: astore EXC; <before advice, passing EXC>; aload EXC; goto HANDLER
//
// and the copy's entry jumps there instead of the handler, so the advice of
// the entry that caught the exception runs, and only it. Only before
// advice applies (the Matcher gives no other kind).

// handlerShadows matches the handler shadows of a method body.
// superAt is the index of a constructor's super(...) or this(...) call, -1
// elsewhere; a catch block before it has no `this`.
func (cw *classWeaver) handlerShadows(code *classfile.Code, lineAt lineTable, self advice.Member, static bool,
	superAt int, kinds advice.KindSet, match func(*shadow)) {
	if !kinds.Has(advice.ExceptionHandler) || len(code.Handlers) == 0 {
		return
	}
	type place struct{ at, line int }
	targets := map[*classfile.Label]place{}
	for _, h := range code.Handlers {
		if h.CatchType != 0 {
			targets[h.Handler] = place{at: -1}
		}
	}
	line := 0
	for i, in := range code.Insns {
		if in.Op != classfile.OpLabel {
			continue
		}
		if l, ok := lineAt.at(in.Label); ok {
			line = l
		}
		if _, ok := targets[in.Label]; ok {
			targets[in.Label] = place{at: i, line: lineAfter(code, lineAt, i, line)}
		}
	}
	for k, h := range code.Handlers {
		p, ok := targets[h.Handler]
		if h.CatchType == 0 || !ok || p.at < 0 {
			continue
		}
		preSuper := superAt >= 0 && p.at < superAt
		caught := classfile.ObjectType(cw.c.Pool.ClassName(h.CatchType))
		m := advice.Member{Owner: cw.name, Name: "<catch>", Desc: "(" + string(caught) + ")V",
			Access: classfile.AccStatic, AccessKnown: true}
		match(&shadow{Shadow: advice.Shadow{Kind: advice.ExceptionHandler, Within: cw.name, Code: self, Member: m,
			StaticThis: static || preSuper, StaticTarget: true}, at: k, line: p.line, preSuper: preSuper})
	}
}

// handlerStubs emits the stub of each handler shadow (see above) and
// records where the copy's exception table entry must jump.
func (e *emitter) handlerStubs(handlers []*shadow, lm func(*classfile.Label) *classfile.Label) {
	for _, s := range handlers {
		e.tmp = e.base
		h := e.code.Handlers[s.at]
		stub := classfile.NewLabel()
		e.label(stub)
		exc := e.alloc(1)
		e.local(classfile.OpAstore, exc)
		params, _ := s.Shadow.ArgTypes()
		ctx := valueCtx{s: s, target: -1, ret: -1, exc: -1, args: []int{exc}, argDescs: params}
		for _, a := range s.applied {
			if a.Advice.Kind == advice.Before {
				e.callHelper(ctx, a)
			}
		}
		e.local(classfile.OpAload, exc)
		e.add(classfile.Insn{Op: classfile.OpGoto, Label: lm(h.Handler)})
		if e.stubs == nil {
			e.stubs = map[int]*classfile.Label{}
		}
		e.stubs[s.at] = stub
	}
}
