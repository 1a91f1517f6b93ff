package pointcut

import (
	"strings"
	"sync/atomic"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// A compiled pointcut is a tree of nodes evaluated against one shadow in
// three-valued logic: Never, Always, or Maybe with a residue of runtime
// instanceof tests.

type node interface {
	eval(m *matchCtx) result
}

type result struct {
	v advice.Verdict
	r *advice.Residue // iff v == advice.Maybe
}

var (
	never  = result{v: advice.Never}
	always = result{v: advice.Always}
)

// matchCtx is the shadow being matched and the advice formals bound so far.
type matchCtx struct {
	s     *advice.Shadow
	h     classfile.Hierarchy
	binds []advice.Value
	// bindsBuf backs binds for advice with few formals (most), so one
	// Match allocates no binds slice per advice.
	bindsBuf [4]advice.Value
	// ifs are the If residues made while evaluating one pointcut.
	ifs []ifFix
}

func and(a, b result) result {
	switch {
	case a.v == advice.Never || b.v == advice.Never:
		return never
	case a.v == advice.Always:
		return b
	case b.v == advice.Always:
		return a
	}
	return result{advice.Maybe, &advice.Residue{Op: advice.And, Children: flatten(advice.And, a.r, b.r)}}
}

func or(a, b result) result {
	switch {
	case a.v == advice.Always || b.v == advice.Always:
		return always
	case a.v == advice.Never:
		return b
	case b.v == advice.Never:
		return a
	}
	return result{advice.Maybe, &advice.Residue{Op: advice.Or, Children: flatten(advice.Or, a.r, b.r)}}
}

func flatten(op advice.ResidueOp, rs ...*advice.Residue) []*advice.Residue {
	var out []*advice.Residue
	for _, r := range rs {
		if r.Op == op {
			out = append(out, r.Children...)
		} else {
			out = append(out, r)
		}
	}
	return out
}

func not(a result) result {
	switch a.v {
	case advice.Never:
		return always
	case advice.Always:
		return never
	}
	if a.r.Op == advice.Not {
		return result{advice.Maybe, a.r.Children[0]}
	}
	return result{advice.Maybe, &advice.Residue{Op: advice.Not, Children: []*advice.Residue{a.r}}}
}

type andNode struct{ l, r node }

func (n andNode) eval(m *matchCtx) result {
	l := n.l.eval(m)
	if l.v == advice.Never {
		return never
	}
	return and(l, n.r.eval(m))
}

type orNode struct{ l, r node }

func (n orNode) eval(m *matchCtx) result {
	l := n.l.eval(m)
	if l.v == advice.Always {
		return always
	}
	return or(l, n.r.eval(m))
}

type notNode struct{ n node }

func (n notNode) eval(m *matchCtx) result { return not(n.n.eval(m)) }

type constNode struct{ v advice.Verdict }

func (n constNode) eval(*matchCtx) result { return result{v: n.v} }

// kindedNode is call(sig) or execution(sig).
type kindedNode struct {
	call bool
	sig  *sigPat
}

func (n kindedNode) eval(m *matchCtx) result {
	s := m.s
	var ok bool
	switch s.Kind {
	case advice.MethodCall, advice.ConstructorCall:
		ok = n.call && n.sig.matchMember(&s.Member, false, m.h)
	case advice.ArrayConstruction:
		ok = n.call && n.sig.matchMember(&s.Member, true, m.h)
	case advice.MethodExecution, advice.ConstructorExecution:
		ok = !n.call && n.sig.matchMember(&s.Member, false, m.h)
	}
	if ok {
		return always
	}
	return never
}

// withinNode is within(T): code in a type matching T, or in a type nested
// (lexically) in one. Nesting is read from the binary name: Outer$Inner.
type withinNode struct {
	t typePat
	// last remembers the verdict for the class last tested, when t does
	// not consult the hierarchy (no `+`): a weaver matches the shadows of
	// one class after another, and testing a name allocates.
	last *atomic.Pointer[withinMemo]
}

type withinMemo struct {
	class string
	in    bool
}

func newWithinNode(t typePat) withinNode {
	n := withinNode{t: t}
	if namesOnly(t) {
		n.last = new(atomic.Pointer[withinMemo])
	}
	return n
}

// namesOnly reports whether type pattern t tests names only, never the
// hierarchy.
func namesOnly(t typePat) bool {
	switch t := t.(type) {
	case notType:
		return namesOnly(t.p)
	case andType:
		return namesOnly(t.l) && namesOnly(t.r)
	case orType:
		return namesOnly(t.l) && namesOnly(t.r)
	case *namePat:
		return !t.plus
	}
	return false
}

func (n withinNode) eval(m *matchCtx) result {
	if n.last == nil {
		return n.test(m)
	}
	if l := n.last.Load(); l != nil && l.class == m.s.Within {
		if l.in {
			return always
		}
		return never
	}
	r := n.test(m)
	n.last.Store(&withinMemo{class: m.s.Within, in: r.v == advice.Always})
	return r
}

func (n withinNode) test(m *matchCtx) result {
	c := m.s.Within
	for {
		if n.t.match(string(classfile.ObjectType(c)), m.h) {
			return always
		}
		i := strings.LastIndexByte(c, '$')
		if i <= strings.LastIndexByte(c, '/')+1 {
			return never
		}
		c = c[:i]
	}
}

// withincodeNode is withincode(sig): code in a method or constructor. As in
// AspectJ, a method's execution is not within its own code, while a
// constructor's execution is (AspectJ keeps it for inlined field
// initializers).
type withincodeNode struct{ sig *sigPat }

func (n withincodeNode) eval(m *matchCtx) result {
	if m.s.Kind == advice.MethodExecution {
		return never
	}
	code := m.s.Code
	if code.Name == "<clinit>" || code.Name == "" {
		return never
	}
	if code.Owner == "" {
		code.Owner = m.s.Within
	}
	if n.sig.matchMember(&code, false, m.h) {
		return always
	}
	return never
}

// leafNode is leaf(): join points in code that runs no code but its own
// (advice.Shadow.Leaf), the execution of a getter, a setter or a loop over
// an array among them; decided when weaving.
type leafNode struct{}

func (leafNode) eval(m *matchCtx) result {
	if m.s.Leaf {
		return always
	}
	return never
}

// valueTest checks that a join point value of static type desc satisfies
// a target (a type test and maybe a binding).
func valueTest(m *matchCtx, t target, v advice.Value, desc string) result {
	r := always
	for _, want := range t.types {
		if want == "never" {
			return never
		}
		switch instanceTest(desc, want, m.h) {
		case advice.Never:
			return never
		case advice.Maybe:
			r = and(r, result{advice.Maybe, &advice.Residue{Op: advice.InstanceOf, Value: v, Type: classfile.Type(want).InternalName()}})
		}
	}
	if t.formal >= 0 {
		m.binds[t.formal] = v
	}
	return r
}

// thisTargetNode is this(T|id) or target(T|id).
type thisTargetNode struct {
	target bool
	t      target
}

func (n thisTargetNode) eval(m *matchCtx) result {
	s := m.s
	var desc string
	v := advice.Value{Kind: advice.This}
	if !n.target {
		if s.StaticThis {
			return never
		}
		desc = string(classfile.ObjectType(s.Within))
	} else {
		v.Kind = advice.Target
		switch s.Kind {
		case advice.ConstructorCall, advice.ArrayConstruction, advice.ExceptionHandler,
			advice.StaticInitialization, advice.PreInitialization:
			return never // AspectJ: these join points have no target
		case advice.MethodCall, advice.FieldGet, advice.FieldSet:
			// A field's target has the static type of the field's
			// declaring class, as in ajc (not the reference's class).
			if s.StaticTarget {
				return never
			}
			desc = string(classfile.ObjectType(s.Member.Owner))
		default:
			if s.StaticThis {
				return never
			}
			desc = string(classfile.ObjectType(s.Within))
		}
	}
	return valueTest(m, n.t, v, desc)
}

// argsNode is args(...).
type argsNode struct{ elems []argElem }

type argElem struct {
	ellipsis bool
	t        target
}

func (n argsNode) eval(m *matchCtx) result {
	params, ok := m.s.ArgTypes()
	if !ok {
		return never
	}
	return matchArgs(n.elems, func(e argElem) bool { return e.ellipsis }, len(params), func(e argElem, p int) result {
		return valueTest(m, e.t, advice.Value{Kind: advice.Arg, Index: p}, string(params[p]))
	})
}

// matchArgs matches the elements of an args(...) or @args(...) list, one
// of which may be `..`, against n arguments: test gives the result of
// element e at argument p; the results are and-ed.
func matchArgs[E any](elems []E, ellipsis func(E) bool, n int, test func(e E, p int) result) result {
	at := -1 // index of `..`
	for i, e := range elems {
		if ellipsis(e) {
			at = i
		}
	}
	if at < 0 && n != len(elems) || at >= 0 && n < len(elems)-1 {
		return never
	}
	r := always
	for i, e := range elems {
		if ellipsis(e) {
			continue
		}
		p := i
		if at >= 0 && i > at {
			p = n - (len(elems) - i)
		}
		if r = and(r, test(e, p)); r.v == advice.Never {
			return never
		}
	}
	return r
}

// kindsOf returns the shadow kinds pointcut n can match at all (a
// superset: designators other than call, execution, get and set count as
// any kind),
// so a weaver can skip shadows no advice could match before matching them.
func kindsOf(n node) advice.KindSet {
	if k, ok := initKinds(n); ok {
		return k
	}
	switch n := n.(type) {
	case kindedNode:
		if n.call {
			return 1<<advice.MethodCall | 1<<advice.ConstructorCall | 1<<advice.ArrayConstruction
		}
		return 1<<advice.MethodExecution | 1<<advice.ConstructorExecution
	case fieldNode:
		if n.set {
			return 1 << advice.FieldSet
		}
		return 1 << advice.FieldGet
	case andNode:
		return kindsOf(n.l) & kindsOf(n.r)
	case orNode:
		return kindsOf(n.l) | kindsOf(n.r)
	case constNode:
		if n.v == advice.Never {
			return 0
		}
	}
	return advice.AllKinds
}

// adviceKinds is kindsOf b's pointcut, narrowed to array construction when
// the advice takes its dimensions, to executions when it takes their
// bytecode count.
func adviceKinds(b *boundAdvice) advice.KindSet {
	k := kindsOf(b.pc)
	if b.usesDims {
		k &= 1 << advice.ArrayConstruction
	}
	if b.usesCount {
		k &= 1<<advice.MethodExecution | 1<<advice.ConstructorExecution | 1<<advice.StaticInitialization
	}
	return k
}

// ShadowKinds returns the shadow kinds some advice of p can match: Match
// returns nothing for a shadow of another kind, so a weaver need not even
// build such shadows.
func (p *Program) ShadowKinds() advice.KindSet {
	var k advice.KindSet
	for _, b := range p.order {
		k |= b.kinds
	}
	for _, d := range p.cflows {
		k |= d.kinds
	}
	return k
}
