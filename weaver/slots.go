package weaver

import "github.com/weft-aop/weft/classfile"

// writesParams reports whether code stores into a slot of the parameters
// at slots args (their types descs): only then must after advice read
// copies made at entry (the join point's arguments are the entry values).
func writesParams(code []classfile.Insn, args []int, descs []classfile.Type) bool {
	if len(args) == 0 {
		return false
	}
	return writesSlots(code, args[0], args[len(args)-1]+descs[len(descs)-1].Size())
}

// writesSlots reports whether code stores into a local slot in [lo, hi).
func writesSlots(code []classfile.Insn, lo, hi int) bool {
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

// saveThis, in a method whose body stores into slot 0 (generated code may
// reuse it, as the JDK's SystemModules$all.moduleDescriptors does), copies
// `this` to a slot of its own at entry: advice reading this or an
// execution's target past entry reads the copy (thisSlot; 0 otherwise).
func (e *emitter) saveThis() {
	e.thisSlot = 0
	if e.static || e.ctor || !writesSlots(e.code.Insns, 0, 1) {
		return
	}
	e.thisSlot = e.alloc(1)
	e.local(classfile.OpAload, 0)
	e.local(classfile.OpAstore, e.thisSlot)
}
