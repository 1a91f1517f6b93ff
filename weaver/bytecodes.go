package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Bytecode counting (advice.Bytecodes, advice.PreciseBytecodes), as the
// JP profiler does it: a method whose execution's after advice takes the
// count gets a long local, zero at entry, to which each basic block of
// its body adds its number of instructions as it starts. After advice
// reads the local at each exit, returning or throwing. The blocks are the
// body's own: advice calls, the guard and the counting itself are not
// counted, and a bootstrapping or bypassing thread counts as well (the
// advice that would read it is skipped). In a body woven with a copy
// (around advice), only the copy counts.
//
// Default blocks end at jumps, switches, returns and athrow, and start at
// their targets and at handlers: an instruction that throws leaves the
// rest of its block counted although it did not run. Precise blocks also
// end after every instruction that can throw (an invoke, a field or array
// access, a division, new, a cast...), so an exception stops the count
// exactly past the instruction that threw, at more additions. A block
// that starts with `new` is counted just after it, where its frames'
// uninitialized value stays named by the label before it: a `new` that
// throws (an error initializing its class, no memory) leaves its block
// uncounted.

// countMode is how a body's instructions are counted.
type countMode int

const (
	countNone countMode = iota
	countDefault
	countPrecise
)

// countModeOf returns the most precise counting the advice of the body
// shadows asks for.
func countModeOf(body []*shadow) countMode {
	mode := countNone
	for _, s := range body {
		for _, a := range s.applied {
			for _, v := range a.Advice.Args {
				switch v.Kind {
				case advice.Bytecodes:
					mode = max(mode, countDefault)
				case advice.PreciseBytecodes:
					mode = countPrecise
				}
			}
		}
	}
	return mode
}

// blockSizes returns, by index in insns, the number of instructions of the
// basic block starting there (0 where none starts). Labels are not
// instructions; a block starts at the first instruction, at each one a
// label targeted by a jump, switch or handler places, and after each that
// ends a block.
func blockSizes(insns []classfile.Insn, handlers []classfile.Handler, precise bool) []int32 {
	targets := make(map[*classfile.Label]bool, len(handlers)+8)
	for _, h := range handlers {
		targets[h.Handler] = true
	}
	for _, in := range insns {
		switch {
		case in.Op == classfile.OpLabel:
		case in.Switch != nil:
			targets[in.Switch.Default] = true
			for _, t := range in.Switch.Targets {
				targets[t] = true
			}
		case in.Label != nil:
			targets[in.Label] = true
		}
	}
	sizes := make([]int32, len(insns))
	start, leader := -1, true
	for i, in := range insns {
		if in.Op == classfile.OpLabel {
			leader = leader || targets[in.Label]
			continue
		}
		if leader || start < 0 {
			start = i
			leader = false
		}
		sizes[start]++
		leader = endsBlock(in.Op) || precise && canThrow(in.Op)
	}
	return sizes
}

// endsBlock reports whether op goes elsewhere than the next instruction:
// a jump, a switch, a return or athrow.
func endsBlock(op uint16) bool {
	switch {
	case op >= classfile.OpIfeq && op <= classfile.OpReturn, // ifs, goto, jsr, ret, switches, returns
		op == classfile.OpAthrow, op == classfile.OpIfnull, op == classfile.OpIfnonnull,
		op == classfile.OpGotoW, op == classfile.OpJsrW:
		return true
	}
	return false
}

// startCount emits the counter's zero, at the body's entry, when some
// advice of the body shadows takes the count.
func (e *emitter) startCount(body []*shadow) {
	mode := countModeOf(body)
	if mode == countNone || e.uncountedWhy != "" {
		return
	}
	e.counter = e.alloc(2)
	e.base = e.tmp // shadows' temporaries come after it
	e.blocks = blockSizes(e.code.Insns, e.code.Handlers, mode == countPrecise)
	e.op(classfile.OpLconst0)
	e.local(classfile.OpLstore, e.counter)
}

// count emits the counting of the block starting at instruction i of the
// body, if one does.
func (e *emitter) count(i int) {
	if e.blocks == nil || e.blocks[i] == 0 {
		return
	}
	e.local(classfile.OpLload, e.counter)
	switch n := e.blocks[i]; {
	case n == 1:
		e.op(classfile.OpLconst1)
	default:
		e.pushInt(n)
		e.op(classfile.OpI2l)
	}
	e.op(classfile.OpLadd)
	e.local(classfile.OpLstore, e.counter)
}

// loadCount pushes the count so far: 0 where the body is not counted
// (uncountedWhy says why).
func (e *emitter) loadCount() {
	if e.blocks == nil {
		if e.uncountedWhy == "" {
			e.uncountedWhy = "around advice at its execution holds its body"
		}
		e.op(classfile.OpLconst0)
		return
	}
	e.local(classfile.OpLload, e.counter)
}
