package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// lateToken reports whether a method woven in place can take the guard's
// token in its after-throwing handler rather than at entry: its only
// advice is after throwing on its execution (no cflow, whose counters are
// kept from entry), so its normal path reads nothing of the token, and
// with the token taken late it runs the body's own instructions. A thread
// that bypasses woven code at entry still does when the exception leaves
// (the flag is restored around each advice call), so the advice runs in
// the same cases; only a method entered while the JVM bootstraps and left
// by an exception after that sees its advice run.
func lateToken(set shadowSet) bool {
	if len(set.body) != 1 || len(set.calls) > 0 || len(set.handlers) > 0 || set.pre != nil || len(set.ifaces) > 0 {
		return false
	}
	s := set.body[0]
	if s.Kind != advice.MethodExecution && s.Kind != advice.ConstructorExecution {
		return false
	}
	for _, a := range s.applied {
		if a.Advice.Kind != advice.AfterThrowing || a.Advice.Cflow != nil {
			return false
		}
	}
	return len(s.applied) > 0
}

// writesParams reports whether code stores into a slot of the parameters
// at slots args (their types descs): only then must after advice read
// copies made at entry (the join point's arguments are the entry values).
func writesParams(code []classfile.Insn, args []int, descs []classfile.Type) bool {
	if len(args) == 0 {
		return false
	}
	lo, hi := args[0], args[len(args)-1]+descs[len(descs)-1].Size()
	for _, in := range code {
		var at, n int
		switch {
		case in.Op >= classfile.OpIstore && in.Op <= classfile.OpAstore:
			at, n = int(in.Index), 1
			if in.Op == classfile.OpLstore || in.Op == classfile.OpDstore {
				n = 2
			}
		case in.Op == classfile.OpIinc:
			at, n = int(in.Index), 1
		default:
			continue
		}
		if at < hi && at+n > lo {
			return true
		}
	}
	return false
}
