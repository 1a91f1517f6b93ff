package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// thisJoinPoint is built lazily, as AspectJ's lazy tjp: the woven code of
// advice that passes it hands the helper the values the object holds
// (this, target, every argument of the join point) and its id; the helper
// makes the object once the residue has passed, inside the bypass (boxing
// may run woven JDK code), so advice that does not name thisJoinPoint
// pays nothing and advice that does allocates only when it runs.

// wantJoinPoint adds to spec what the helper needs to make thisJoinPoint
// at ctx's shadow: its static part and, through want, the parameters
// holding this, the target and each argument.
func (e *emitter) wantJoinPoint(spec *helperSpec, ctx valueCtx, want func(advice.ValueKind, int)) {
	spec.jp = e.cw.jpInfo(ctx.s)
	spec.tjp = true
	spec.tjpArgs = len(ctx.argDescs)
	want(advice.This, 0)
	want(advice.Target, 0)
	for k := range ctx.argDescs {
		want(advice.Arg, k)
	}
}

// pushJoinPoint pushes thisJoinPoint:
//
//	JoinPoint.make(jp(id), this, target, new Object[]{box(arg0), ...})
//
// made the first time the advice call passes it and kept in a local for
// the next. It returns the stack slots it takes at most.
func (hg *helperGen) pushJoinPoint() int {
	g := hg.g
	if hg.tjpSlot > 0 {
		g.idx(classfile.OpAload, uint16(hg.tjpSlot))
		return 1
	}
	g.idx(classfile.OpIload, uint16(hg.jpSlot))
	g.invoke(classfile.OpInvokestatic, g.sister, partsMethod, partsDesc)
	hg.load(advice.This, 0)
	hg.load(advice.Target, 0)
	n := hg.h.tjpArgs
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(n))})
	g.idx(classfile.OpAnewarray, g.c.Pool.AddClass("java/lang/Object"))
	for k := 0; k < n; k++ {
		g.op(classfile.OpDup)
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(k))})
		if t := hg.load(advice.Arg, k); t.IsPrimitive() {
			g.box(t)
		}
		g.op(classfile.OpAastore)
	}
	g.invokeRuntime(rtnames.JoinPointMake)
	if hg.joinPointUses() > 1 {
		hg.tjpSlot = hg.next
		hg.next++ // the handler's local moves past it
		g.op(classfile.OpDup)
		g.idx(classfile.OpAstore, uint16(hg.tjpSlot))
	}
	// static part, this, target, array, dup, index, a long or double
	return 8
}

// joinPointUses counts the advice call's thisJoinPoint arguments.
func (hg *helperGen) joinPointUses() int {
	n := 0
	for _, v := range hg.h.args {
		if v.Kind == advice.JoinPoint {
			n++
		}
	}
	return n
}

// modifiers returns the access flags of shadow s's member, as AspectJ's
// signatures give them (java.lang.reflect.Modifier): an executed member's
// own; for a call, those of the method the JVM would resolve (the static
// owner's or an inherited declaration), 0 if the weaver's hierarchy cannot
// tell; public for array construction.
func (cw *classWeaver) modifiers(s *shadow) int32 {
	switch {
	case s.Member.AccessKnown:
		return int32(s.Member.Access)
	case s.Kind == advice.ArrayConstruction:
		return classfile.AccPublic
	}
	mh, ok := cw.w.opts.Hierarchy.(advice.MethodHierarchy)
	if !ok {
		return 0
	}
	if m, ok := resolveMethod(mh, s.Member); ok {
		return int32(m.Access)
	}
	return 0
}

// declaredMethod returns the method name+desc that class declares.
func declaredMethod(mh advice.MethodHierarchy, class, name, desc string) (advice.Member, bool) {
	ms, _ := mh.DeclaredMethods(class, name)
	for _, m := range ms {
		if m.Desc == desc {
			return m, true
		}
	}
	return advice.Member{}, false
}

// maxSuperDepth bounds a walk up a superclass chain: deeper is a cycle.
const maxSuperDepth = 256

// resolveMethod finds the declaration a call of m resolves to, as the JVM
// does: in m's owner and its superclasses, then in their interfaces.
// Constructors are looked up in their owner only.
func resolveMethod(mh advice.MethodHierarchy, m advice.Member) (advice.Member, bool) {
	if m.Name == "<init>" {
		return declaredMethod(mh, m.Owner, m.Name, m.Desc)
	}
	var ifaces []string
	// A superclass chain longer than the bound is a cycle of malformed
	// classes: no declaration.
	for c, depth := m.Owner, 0; c != ""; depth++ {
		if depth == maxSuperDepth {
			return advice.Member{}, false
		}
		if d, ok := declaredMethod(mh, c, m.Name, m.Desc); ok {
			return d, true
		}
		ci, err := mh.Lookup(c)
		if err != nil {
			return advice.Member{}, false
		}
		ifaces = append(ifaces, ci.Interfaces...)
		c = ci.Super
	}
	seen := map[string]bool{}
	for len(ifaces) > 0 {
		c := ifaces[0]
		ifaces = ifaces[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		if d, ok := declaredMethod(mh, c, m.Name, m.Desc); ok {
			return d, true
		}
		if ci, err := mh.Lookup(c); err == nil {
			ifaces = append(ifaces, ci.Interfaces...)
		}
	}
	return advice.Member{}, false
}
