package classfile

import "fmt"

// This file is the analysis's mode for code inserted into a method whose
// frames are known (EncodeOptions.KeepFrames): the frames its compiler
// wrote stay the entry states of their blocks, for the locals they fix
// and the stack, and only the rest is computed. The compiler knew the
// program's class hierarchy; the weaver, at load time or weaving a jar
// without its dependencies, may not, and a merge it cannot answer is the
// one thing it must not guess.

// seed makes each block that a given frame starts take that frame as its
// entry state: locals below a.kept (Top past the frame's) and the stack.
// A frame at a label that starts no block is not needed: it is dropped.
func (a *analyzer) seed() error {
	ml := a.maxLocals
	kept := min(a.kept, ml)
	for i := range a.given {
		f := &a.given[i]
		if f.At == nil {
			continue
		}
		b := a.blockOf(f.At)
		if b < 0 || int(b) >= len(a.blocks) {
			continue
		}
		blk := &a.blocks[b]
		if blk.flags&bGiven != 0 {
			continue // two labels of one offset: the first frame stands
		}
		locals := a.entryLocals[int(b)*ml : int(b)*ml+kept]
		n, err := a.givenSlots(locals, f.Locals)
		if err != nil {
			return fmt.Errorf("kept frame %d: locals: %w", i, err)
		}
		clear(locals[n:])
		at := len(a.stacks)
		for _, t := range f.Stack {
			v, err := a.givenType(t)
			if err != nil {
				return fmt.Errorf("kept frame %d: stack: %w", i, err)
			}
			a.stacks = append(a.stacks, v)
			if k := v.kind(); k == VLong || k == VDouble {
				a.stacks = append(a.stacks, tTop)
			}
		}
		blk.stackAt, blk.nstack = int32(at), int32(len(a.stacks)-at)
		blk.flags |= bGiven
	}
	return nil
}

// givenSlots converts a frame's locals into slots (a long or double takes
// two) and returns how many it filled.
func (a *analyzer) givenSlots(slots []vtype, locals []VType) (int, error) {
	n := 0
	for _, t := range locals {
		v, err := a.givenType(t)
		if err != nil {
			return 0, err
		}
		size := 1
		if k := v.kind(); k == VLong || k == VDouble {
			size = 2
		}
		if n+size > len(slots) {
			return 0, fmt.Errorf("more than the %d locals kept", len(slots))
		}
		slots[n] = v
		if size == 2 {
			slots[n+1] = tTop
		}
		n += size
	}
	return n, nil
}

// givenType converts one verification type of a given frame.
func (a *analyzer) givenType(t VType) (vtype, error) {
	switch t.Kind {
	case VTop, VInteger, VFloat, VLong, VDouble, VNull, VUninitializedThis:
		return vtype(t.Kind), nil
	case VObject:
		if t.Class == "" {
			return 0, fmt.Errorf("an object type without a class")
		}
		return a.intern(t.Class), nil
	case VUninitialized:
		if s := a.siteOf(t.New); s >= 0 {
			return uninitType(s), nil
		}
		return 0, fmt.Errorf("an uninitialized value whose `new` is not in the code")
	}
	return 0, fmt.Errorf("verification type %d", t.Kind)
}

// siteOf returns the index of the `new` site that label l is placed
// before (any label of the run of labels before it), or -1.
func (a *analyzer) siteOf(l *Label) int {
	if l == nil {
		return -1
	}
	for k, s := range a.sites {
		for j := int(s.at) - 1; j >= 0 && a.insns[j].Op == OpLabel; j-- {
			if a.insns[j].Label == l || l.Offset >= 0 && a.insns[j].Label.Offset == l.Offset {
				return k
			}
		}
	}
	return -1
}

// flowGiven flows the current state into block b, whose entry state a
// given frame fixes but for the locals from a.kept on, which merge as
// anywhere else. The frame's stack height must be the state's.
func (a *analyzer) flowGiven(b int32, dst []vtype, height int) {
	blk := &a.blocks[b]
	if int(blk.nstack) != height {
		a.fail("stack height %d differs from the kept frame's %d (instruction %d)", height, blk.nstack, blk.first)
		return
	}
	kept := min(a.kept, len(dst))
	if blk.flags&bReached == 0 {
		blk.flags |= bReached
		copy(dst[kept:], a.cur[kept:])
		a.markDirty(b)
		return
	}
	changed := false
	for i := kept; i < len(dst); i++ {
		if t := a.cur[i]; dst[i] != t && a.merge(&dst[i], t) {
			changed = true
		}
	}
	if changed {
		a.markDirty(b)
	}
}

// failRead records the error of an aload of a local that holds Top here:
// one whose merge the hierarchy could not answer, if any was.
func (a *analyzer) failRead(slot int) {
	if a.unknown != nil {
		a.fail("reads local %d: %w", slot, a.unknown)
		return
	}
	a.fail("reads local %d, which holds no reference here", slot)
}
