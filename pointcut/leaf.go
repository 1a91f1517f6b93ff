package pointcut

import (
	"slices"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// proceedCall is the one method of the runtime leaf around advice may call:
// Proceed.proceed(), which runs the rest of the join point (woven code,
// entered with the thread's flag as it is then: runtime-java's Proceed).
var proceedCall = [3]string{rtnames.Proceed, "proceed", "()Ljava/lang/Object;"}

// leaf reports whether advice method m of class c is leaf advice
// (advice.Advice.Leaf): its code, and that of the static methods it calls,
// transitively, run no code but theirs and resolve no class but theirs;
// reach lists the classes other than c whose code it runs (internal names,
// in the order first called), which the sister class initializes before
// the first call (weaver/leaf.go). Allowed are arithmetic, locals,
// branches, returns, primitive arrays, constants that resolve nothing
// (numbers, strings), the fields of the method's own class, invokestatic
// of methods a class of the advice class path declares, monitors and
// throwing what it has, and in around advice Proceed.proceed(); anything
// that may run or resolve another class (invoke* of instances or of
// classes not found, new, object arrays, casts, class and method-handle
// constants, catch types) makes it not leaf. Exceptions the JVM throws for
// it (bounds, null, division) are made by their JDK constructors: not
// woven in application mode, the only mode that calls leaf advice
// directly. Static initializers are not looked at: the sister class runs
// them in a bypass before the first call.
func (cs *classes) leaf(c *classfile.Class, m *classfile.Member, around bool) (ok bool, reach []string) {
	root := c.Pool.ClassName(c.This)
	seen := map[*classfile.Member]bool{}
	var walk func(c *classfile.Class, m *classfile.Member) bool
	walk = func(c *classfile.Class, m *classfile.Member) bool {
		if seen[m] {
			return true
		}
		seen[m] = true
		if m.Access&(classfile.AccNative|classfile.AccAbstract) != 0 {
			return false
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil || code == nil {
			return false
		}
		for _, h := range code.Handlers {
			if h.CatchType != 0 {
				return false
			}
		}
		self := c.Pool.ClassName(c.This)
		for _, in := range code.Insns {
			switch op := in.Op; {
			case op == classfile.OpLabel:
			case op == classfile.OpLdc || op == classfile.OpLdcW || op == classfile.OpLdc2W:
				switch c.Pool.Tag(in.Index) {
				case classfile.TagInteger, classfile.TagFloat, classfile.TagLong, classfile.TagDouble, classfile.TagString:
				default:
					return false
				}
			case op < classfile.OpLdc || op > classfile.OpLdc2W && op <= classfile.OpReturn:
				// constants, locals, arrays, stack, arithmetic, branches, returns
			case op >= classfile.OpGetstatic && op <= classfile.OpPutfield:
				if owner, _, _ := c.Pool.MemberRef(in.Index); owner != self {
					return false
				}
			case op == classfile.OpInvokestatic:
				owner, name, desc := c.Pool.MemberRef(in.Index)
				to := c
				if owner != self {
					if to, err = cs.class(owner); err != nil {
						return false
					}
				}
				callee := to.FindMethod(name, desc)
				if callee == nil || callee.Access&classfile.AccStatic == 0 || !walk(to, callee) {
					return false
				}
				if owner != self && owner != root && !slices.Contains(reach, owner) {
					reach = append(reach, owner)
				}
			case op == classfile.OpInvokevirtual:
				owner, name, desc := c.Pool.MemberRef(in.Index)
				if !around || [3]string{owner, name, desc} != proceedCall {
					return false
				}
				if !slices.Contains(reach, owner) {
					reach = append(reach, owner)
				}
			case op == classfile.OpNewarray, op == classfile.OpArraylength, op == classfile.OpAthrow,
				op == classfile.OpMonitorenter, op == classfile.OpMonitorexit,
				op == classfile.OpIfnull, op == classfile.OpIfnonnull:
			default:
				return false
			}
		}
		return true
	}
	if !walk(c, m) {
		return false, nil
	}
	return true, reach
}

// AllLeaf reports whether all the advice of p is leaf with none of the
// user's code around it: no around advice, no cflow (whose state advice
// keeps) and no if() test (run in the bypass, as advice is): nothing a
// weaving with p runs in a thread's bypass can reach woven code
// (advice.LeafLimiter).
func (p *Program) AllLeaf() bool {
	if len(p.cflows) > 0 {
		return false
	}
	for _, b := range p.advice {
		a := b.info.Advice
		if !a.Leaf || a.Kind == advice.Around || a.Cflow != nil || hasIfNode(b.pc) {
			return false
		}
	}
	return true
}

// hasIfNode reports whether pointcut n has an if(...) test (not if(true)
// or if(false), which compile to constants).
func hasIfNode(n node) bool {
	return hasNode(n, func(n node) bool { _, ok := n.(*ifNode); return ok })
}

// hasNode reports whether pointcut n has a designator for which want is
// true, under &&, || and !.
func hasNode(n node, want func(node) bool) bool {
	switch n := n.(type) {
	case andNode:
		return hasNode(n.l, want) || hasNode(n.r, want)
	case orNode:
		return hasNode(n.l, want) || hasNode(n.r, want)
	case notNode:
		return hasNode(n.n, want)
	}
	return want(n)
}

// TestsLeaf reports whether a pointcut of p's advice, cflows or
// declarations uses leaf(), which tests the code holding a shadow: a
// weaver need not read a method's code for it otherwise. It implements
// advice.CodeTester.
func (p *Program) TestsLeaf() bool {
	isLeaf := func(n node) bool { _, ok := n.(leafNode); return ok }
	for _, b := range p.advice {
		if hasNode(b.pc, isLeaf) {
			return true
		}
	}
	for _, d := range p.cflows {
		if hasNode(d.pc, isLeaf) {
			return true
		}
	}
	for _, d := range p.declares {
		if hasNode(d.pc, isLeaf) {
			return true
		}
	}
	return false
}
