package classfile

// This file is the analysis's straight mode, for the short code InsertCode
// analyses (a guard and advice calls; in a constructor, the code up to its
// super(...) call). It walks the code once, in order, with compute's
// transfer function (exec) and merge, and keeps a state only at jump
// targets: no blocks, handlers or iteration to set up, which for such code
// cost more than the walk. It gives up (ok false), and the caller runs
// compute, wherever compute would do more than that one walk: exception
// handlers, jsr/ret, `new` (a frame may need a label before it), dead
// code, a backward jump that would change its target's state, or a merge
// of two different classes (which needs the hierarchy). Where it answers,
// its frames, max stack and max locals are compute's (the prepend test
// compares them over java.base).
//
// Measured with every insertion through compute instead
// (BenchmarkWeaveGuava/count, 4 interleaved pairs), weaving guava took a
// median 15 % longer.

import "slices"

// frameBuf holds the frames the straight mode returns, reused from one
// call to the next.
type frameBuf struct {
	frames []Frame
	types  []VType // the frames' locals and stacks
}

// straightFrames computes code's frames, max stack and max locals in the
// straight mode; ok is false where it gives up. code is laid out. The
// frames live in buf. h is not consulted: it keeps the analyzer's
// per-class caches, which depend on it, for the next compute.
func straightFrames(c *Class, m *Member, h Hierarchy, code *Code, buf *frameBuf) (frames []Frame, maxStack, maxLocals int, ok bool) {
	a := analyzers.Get().(*analyzer)
	defer analyzers.Put(a)
	a.setClass(c, h)
	ok = a.straight(m, code, buf)
	a.code, a.insns = nil, nil
	if !ok {
		return nil, 0, 0, false
	}
	return buf.frames, a.maxStack, a.maxLocals, true
}

// straight runs the straight mode over code. Each jump target is a block
// (in a.blocks, a.at giving 1 + its index by offset) holding the state
// merged from the jumps to it so far.
func (a *analyzer) straight(m *Member, code *Code, buf *frameBuf) bool {
	if len(code.Handlers) > 0 {
		return false
	}
	desc, static, maxOff, err := a.start(m, code)
	if err != nil || len(a.sites) > 0 {
		return false
	}
	a.at = grow(a.at[:0], maxOff+1)
	for _, l := range a.targets {
		if l == nil || l.Offset < 0 || l.Offset > maxOff {
			return false
		}
		if a.at[l.Offset] == 0 {
			a.blocks = append(a.blocks, block{stackAt: -1})
			a.at[l.Offset] = int32(len(a.blocks))
		}
	}
	a.entryLocals = grow(a.entryLocals[:0], len(a.blocks)*a.maxLocals)
	if a.params(m, desc, static) != nil {
		return false
	}
	a.sp = 0
	frames, types := buf.frames[:0], buf.types[:0]
	defer func() { buf.frames, buf.types = frames, types }()
	live := true
	for i := range a.insns {
		in := &a.insns[i]
		if in.Op == OpLabel {
			b := a.blockOf(in.Label)
			if b < 0 || a.blocks[b].label != nil {
				continue // not a target, or one whose frame is made (at an earlier label of its offset)
			}
			if a.blocks[b].flags&bReached == 0 && !live {
				return false // only a backward jump reaches it
			}
			if live && !a.straightFlow(b) {
				return false
			}
			a.enterBlock(b)
			a.blocks[b].label, live = in.Label, true
			frames, types = a.appendFrame(frames, types, in.Label, a.cur, a.stack[:a.sp])
			continue
		}
		if !live {
			return false // dead code: compute rewrites it
		}
		switch in.Op {
		case OpNew, OpJsr, OpRet:
			return false
		}
		a.exec(i, in)
		if a.err != nil {
			return false
		}
		ok := true
		switch op := in.Op; {
		case op == OpGoto:
			ok, live = a.straightFlow(a.blockOf(in.Label)), false
		case isJump(op):
			ok = a.straightFlow(a.blockOf(in.Label))
		case op == OpTableswitch || op == OpLookupswitch:
			ok, live = a.straightFlow(a.blockOf(in.Switch.Default)), false
			for _, l := range in.Switch.Targets {
				ok = ok && a.straightFlow(a.blockOf(l))
			}
		case op >= OpIreturn && op <= OpReturn || op == OpAthrow:
			live = false
		}
		if !ok {
			return false
		}
	}
	return !live // else control flows past the end: compute reports it
}

// straightFlow flows the current state into target block b: its first
// state, or merged into the state there where that needs no hierarchy.
// Into a target already behind, the state must be the one there.
func (a *analyzer) straightFlow(b int32) bool {
	blk := &a.blocks[b]
	ml := a.maxLocals
	dst, stack := a.entryLocals[int(b)*ml:int(b+1)*ml], a.stack[:a.sp]
	switch {
	case blk.label != nil:
		return slices.Equal(dst, a.cur) && slices.Equal(a.stacks[blk.stackAt:blk.stackAt+blk.nstack], stack)
	case blk.flags&bReached == 0:
		a.reach(b, dst, stack)
		return true
	case int(blk.nstack) != len(stack):
		return false
	}
	return a.mergeSlots(dst, a.cur) && a.mergeSlots(a.stacks[blk.stackAt:blk.stackAt+blk.nstack], stack)
}

// mergeSlots merges src into dst, slot by slot, as flowState does; it
// reports false, dst partly merged, at two different classes.
func (a *analyzer) mergeSlots(dst, src []vtype) bool {
	for i, t := range src {
		if d := dst[i]; d != t && d.isRef() && t.isRef() && d != tNull && t != tNull {
			return false
		}
		a.merge(&dst[i], t)
	}
	return true
}
