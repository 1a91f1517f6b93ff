package weaver

import "github.com/weft-aop/weft/advice"

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
