package pointcut

import (
	"strings"

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
	v Verdict
	r *Residue // iff v == Maybe
}

var (
	never  = result{v: Never}
	always = result{v: Always}
)

// matchCtx is the shadow being matched and the advice formals bound so far.
type matchCtx struct {
	s     *Shadow
	h     classfile.Hierarchy
	binds []advice.Value
}

func and(a, b result) result {
	switch {
	case a.v == Never || b.v == Never:
		return never
	case a.v == Always:
		return b
	case b.v == Always:
		return a
	}
	return result{Maybe, &Residue{Op: And, Children: flatten(And, a.r, b.r)}}
}

func or(a, b result) result {
	switch {
	case a.v == Always || b.v == Always:
		return always
	case a.v == Never:
		return b
	case b.v == Never:
		return a
	}
	return result{Maybe, &Residue{Op: Or, Children: flatten(Or, a.r, b.r)}}
}

func flatten(op ResidueOp, rs ...*Residue) []*Residue {
	var out []*Residue
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
	case Never:
		return always
	case Always:
		return never
	}
	if a.r.Op == Not {
		return result{Maybe, a.r.Children[0]}
	}
	return result{Maybe, &Residue{Op: Not, Children: []*Residue{a.r}}}
}

type andNode struct{ l, r node }

func (n andNode) eval(m *matchCtx) result {
	l := n.l.eval(m)
	if l.v == Never {
		return never
	}
	return and(l, n.r.eval(m))
}

type orNode struct{ l, r node }

func (n orNode) eval(m *matchCtx) result {
	l := n.l.eval(m)
	if l.v == Always {
		return always
	}
	return or(l, n.r.eval(m))
}

type notNode struct{ n node }

func (n notNode) eval(m *matchCtx) result { return not(n.n.eval(m)) }

type constNode struct{ v Verdict }

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
	case MethodCall, ConstructorCall:
		ok = n.call && n.sig.matchMember(&s.Member, false, m.h)
	case ArrayConstruction:
		ok = n.call && n.sig.matchMember(&s.Member, true, m.h)
	case MethodExecution, ConstructorExecution:
		ok = !n.call && n.sig.matchMember(&s.Member, false, m.h)
	}
	if ok {
		return always
	}
	return never
}

// withinNode is within(T): code in a type matching T, or in a type nested
// (lexically) in one. Nesting is read from the binary name: Outer$Inner.
type withinNode struct{ t typePat }

func (n withinNode) eval(m *matchCtx) result {
	c := m.s.Within
	for {
		if n.t.match(classDesc(c), m.h) {
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
	if m.s.Kind == MethodExecution {
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

// valueTest checks that a join point value of static type desc satisfies
// a target (a type test and maybe a binding).
func valueTest(m *matchCtx, t target, v advice.Value, desc string) result {
	r := always
	for _, want := range t.types {
		if want == "never" {
			return never
		}
		switch instanceTest(desc, want, m.h) {
		case Never:
			return never
		case Maybe:
			r = and(r, result{Maybe, &Residue{Op: InstanceOf, Value: v, Type: internalOf(want)}})
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
		desc = classDesc(s.Within)
	} else {
		v.Kind = advice.Target
		switch s.Kind {
		case ConstructorCall, ArrayConstruction:
			return never // AspectJ: a constructor call has no target
		case MethodCall:
			if s.StaticTarget {
				return never
			}
			desc = classDesc(s.Member.Owner)
		default:
			if s.StaticThis {
				return never
			}
			desc = classDesc(s.Within)
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
	params, _, ok := splitMethodDesc(m.s.Member.Desc)
	if !ok {
		return never
	}
	at := -1 // index of `..`
	for i, e := range n.elems {
		if e.ellipsis {
			at = i
		}
	}
	if at < 0 && len(params) != len(n.elems) || at >= 0 && len(params) < len(n.elems)-1 {
		return never
	}
	r := always
	for i, e := range n.elems {
		if e.ellipsis {
			continue
		}
		p := i
		if at >= 0 && i > at {
			p = len(params) - (len(n.elems) - i)
		}
		r = and(r, valueTest(m, e.t, advice.Value{Kind: advice.Arg, Index: p}, params[p]))
		if r.v == Never {
			return never
		}
	}
	return r
}
