package classfile

import "sync"

// This file computes the frames of the short code InsertCode analyses
// (a guard and advice calls, in a constructor the code up to its
// super(...) call) without the general analysis, which costs more to set
// up than such code takes to walk: most of InsertCode's time when it
// weaves the whole JDK. It handles straight code whose only joins meet
// the same state from every side, so it needs no hierarchy; anything else
// (another instruction, a join of different types, a backward branch other
// than InsertCode's last jump to itself) makes it give up, and InsertCode
// runs the general analysis. The frames are the ones that analysis finds
// (the prepend test compares them).
//
// Why a second interpreter beside the analysis's: measured without it
// (every insertion through the general analysis, BenchmarkWeaveGuava/count,
// 4 interleaved pairs), weaving guava took a median 15 % longer. The
// general analysis's cheap mode for inserted code is KeepFrames, which
// still sets up blocks and per-class caches for a whole method.

// quickState is the state at one point: locals by slot (the second slot
// of a long or double is Top), the stack by value.
type quickState struct {
	locals []VType
	stack  []VType
	depth  int // the stack's size in slots
}

// copyFrom makes s a copy of o, reusing s's slices.
func (s *quickState) copyFrom(o *quickState) {
	s.locals = append(s.locals[:0], o.locals...)
	s.stack = append(s.stack[:0], o.stack...)
	s.depth = o.depth
}

func (s *quickState) same(o *quickState) bool {
	return s.depth == o.depth && sameVTypes(s.stack, o.stack) && sameVTypes(trimTops(s.locals), trimTops(o.locals))
}

// merge merges o into s where that needs no hierarchy: the same types,
// or null and a class (which the class stands for). ok is false for any
// other difference.
func (s *quickState) merge(o *quickState) (ok bool) {
	one := func(x, y []VType) bool {
		if len(x) != len(y) {
			return false
		}
		for k := range x {
			switch a, b := x[k], y[k]; {
			case a == b:
			case a.Kind == VNull && b.Kind == VObject:
				x[k] = b
			case a.Kind != VObject || b.Kind != VNull:
				return false
			}
		}
		return true
	}
	sl, ol := trimTops(s.locals), trimTops(o.locals)
	if !one(sl, ol) {
		return false
	}
	s.locals = sl
	return s.depth == o.depth && one(s.stack, o.stack)
}

func trimTops(l []VType) []VType {
	n := len(l)
	for n > 0 && l[n-1].Kind == VTop {
		n--
	}
	return l[:n]
}

// quickTarget is a label jumped to: the state there, merged from the
// jumps seen so far.
type quickTarget struct {
	label  *Label
	state  quickState
	jumped bool // state holds a jump's
	placed bool // the label is behind
}

// quickScratch is the memory of one quickFrames call, reused: the frames
// it returns live in it until it is put back.
type quickScratch struct {
	targets []quickTarget
	state   quickState
	frames  []Frame
	types   []VType // the frames' locals and stacks

	// InsertCode's: its code, the labels it places, its frames and the
	// method's initial locals.
	syn        Code
	insns      []Insn
	begin, end Label
	merged     []Frame
	initial    []VType
}

var quickScratches = sync.Pool{New: func() any { return new(quickScratch) }}

// quickFrames computes code's frames, max stack and max locals where it
// can (see above); ok is false where it cannot. code is laid out. The
// frames live in qs.
func quickFrames(c *Class, m *Member, code *Code, qs *quickScratch) (frames []Frame, maxStack, maxLocals int, ok bool) {
	targets := qs.targets[:0]
	defer func() { qs.targets = targets }()
	for _, in := range code.Insns {
		if in.Switch != nil {
			return nil, 0, 0, false
		}
		if in.Label != nil && in.Op != OpLabel {
			if len(targets) < cap(targets) {
				targets = targets[:len(targets)+1]
				t := &targets[len(targets)-1]
				t.label, t.jumped, t.placed = in.Label, false, false
			} else {
				targets = append(targets, quickTarget{label: in.Label})
			}
		}
	}
	target := func(l *Label) *quickTarget {
		for k := range targets {
			if targets[k].label == l {
				return &targets[k]
			}
		}
		return nil
	}
	frames, types := qs.frames[:0], qs.types[:0]
	defer func() { qs.frames, qs.types = frames, types }()
	s := &qs.state
	s.locals, s.stack, s.depth = s.locals[:0], s.stack[:0], 0
	if m.Access&AccStatic == 0 {
		if c.MemberName(m) == "<init>" && c.Name() != "java/lang/Object" {
			s.locals = append(s.locals, VType{Kind: VUninitializedThis})
		} else {
			s.locals = append(s.locals, VType{Kind: VObject, Class: c.Name()})
		}
	}
	desc := c.MemberDesc(m)
	for i := 1; ; {
		p, next := nextParam(desc, i)
		if p == "" {
			break
		}
		t := p.VType()
		s.locals = append(s.locals, t)
		if t.Kind == VLong || t.Kind == VDouble {
			s.locals = append(s.locals, VType{Kind: VTop})
		}
		i = next
	}
	maxLocals = len(s.locals)
	params := ArgSlots(desc)
	if m.Access&AccStatic == 0 {
		params++
	}
	if maxLocals != params {
		return nil, 0, 0, false // a malformed descriptor
	}
	push := func(t VType) {
		s.stack = append(s.stack, t)
		s.depth++
		if t.Kind == VLong || t.Kind == VDouble {
			s.depth++
		}
		maxStack = max(maxStack, s.depth)
	}
	pop := func() (VType, bool) {
		if len(s.stack) == 0 {
			return VType{}, false
		}
		t := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		s.depth--
		if t.Kind == VLong || t.Kind == VDouble {
			s.depth--
		}
		return t, true
	}
	popArgs := func(desc string) bool {
		for i := 1; ; {
			t, next := nextParam(desc, i)
			if t == "" {
				return next >= 0
			}
			if _, ok := pop(); !ok {
				return false
			}
			i = next
		}
	}
	pushType := func(t Type) {
		if t != Void {
			push(t.VType())
		}
	}
	// jump merges the state at a jump to l into the state there.
	jump := func(l *Label) bool {
		t := target(l)
		switch {
		case t.placed: // backward: only InsertCode's last goto, to itself
			return l == code.Insns[len(code.Insns)-1].Label && t.state.same(s)
		case t.jumped:
			return t.state.merge(s)
		}
		t.state.copyFrom(s)
		t.jumped = true
		return true
	}
	live := true
	for _, in := range code.Insns {
		if in.Op == OpLabel {
			t := target(in.Label)
			if t == nil {
				continue
			}
			switch {
			case !t.jumped && !live:
				return nil, 0, 0, false // only a backward jump reaches it
			case !t.jumped:
				t.state.copyFrom(s)
			case live && !t.state.merge(s):
				return nil, 0, 0, false
			default:
				s.copyFrom(&t.state)
			}
			t.placed, live = true, true
			at := len(types)
			types = appendFrameLocals(types, s.locals)
			nl := len(types)
			types = append(types, s.stack...)
			frames = append(frames, Frame{At: in.Label, Locals: types[at:nl:nl], Stack: types[nl:len(types):len(types)]})
			continue
		}
		if !live {
			return nil, 0, 0, false // dead code: the analysis rewrites it
		}
		ok := true
		switch op := in.Op; {
		case op == OpNop:
		case op == OpAconstNull:
			push(VType{Kind: VNull})
		case op >= OpIconstM1 && op <= OpIconst5, op == OpBipush, op == OpSipush:
			push(VType{Kind: VInteger})
		case op == OpLdc:
			switch c.Pool.Tag(in.Index) {
			case TagInteger:
				push(VType{Kind: VInteger})
			case TagFloat:
				push(VType{Kind: VFloat})
			case TagString:
				push(VType{Kind: VObject, Class: "java/lang/String"})
			case TagClass:
				push(VType{Kind: VObject, Class: "java/lang/Class"})
			default:
				ok = false
			}
		case op >= OpIload && op <= OpAload:
			if int(in.Index) >= len(s.locals) {
				return nil, 0, 0, false
			}
			t := s.locals[in.Index]
			switch op {
			case OpIload:
				ok = t.Kind == VInteger
			case OpLload:
				ok = t.Kind == VLong
			case OpFload:
				ok = t.Kind == VFloat
			case OpDload:
				ok = t.Kind == VDouble
			default:
				ok = t.Kind == VObject || t.Kind == VNull || t.Kind == VUninitializedThis
			}
			push(t)
		case op == OpAstore:
			t, popped := pop()
			if !popped || t.Kind != VObject && t.Kind != VNull {
				return nil, 0, 0, false
			}
			k := int(in.Index)
			for len(s.locals) <= k {
				s.locals = append(s.locals, VType{Kind: VTop})
			}
			if k > 0 && (s.locals[k-1].Kind == VLong || s.locals[k-1].Kind == VDouble) {
				s.locals[k-1] = VType{Kind: VTop}
			}
			s.locals[k] = t
			maxLocals = max(maxLocals, k+1)
		case op == OpPop:
			t, popped := pop()
			ok = popped && t.Kind != VLong && t.Kind != VDouble
		case op == OpDup:
			t, popped := pop()
			if ok = popped && t.Kind != VLong && t.Kind != VDouble; ok {
				push(t)
				push(t)
			}
		case op == OpCheckcast:
			t, popped := pop()
			if ok = popped && (t.Kind == VObject || t.Kind == VNull); ok {
				push(VType{Kind: VObject, Class: c.Pool.ClassName(in.Index)})
			}
		case op == OpPutfield:
			// Also before super(...): javac sets an inner class's outer
			// instance first.
			_, _, desc := c.Pool.MemberRef(in.Index)
			v, popped := pop()
			ok = popped && v.Kind == Type(desc).VType().Kind
			if ok {
				t, popped := pop()
				ok = popped && (t.Kind == VObject || t.Kind == VUninitializedThis)
			}
		case op == OpInvokevirtual, op == OpInvokeinterface:
			_, _, desc := c.Pool.MemberRef(in.Index)
			if ok = popArgs(desc); ok {
				t, popped := pop()
				if ok = popped && (t.Kind == VObject || t.Kind == VNull); ok {
					pushType(ReturnType(desc))
				}
			}
		case op == OpGetstatic:
			_, _, desc := c.Pool.MemberRef(in.Index)
			pushType(Type(desc))
		case op == OpInvokestatic:
			_, _, desc := c.Pool.MemberRef(in.Index)
			if ok = popArgs(desc); ok {
				pushType(ReturnType(desc))
			}
		case op == OpInvokespecial:
			// Only super(...) or this(...): the uninitialized this becomes
			// the class.
			_, name, desc := c.Pool.MemberRef(in.Index)
			if ok = name == "<init>" && popArgs(desc); ok {
				t, popped := pop()
				if ok = popped && t.Kind == VUninitializedThis; ok {
					for _, l := range [][]VType{s.locals, s.stack} {
						for k := range l {
							if l[k].Kind == VUninitializedThis {
								l[k] = VType{Kind: VObject, Class: c.Name()}
							}
						}
					}
				}
			}
		case op == OpIfeq, op == OpIfne:
			t, popped := pop()
			ok = popped && t.Kind == VInteger && jump(in.Label)
		case op == OpIfnull, op == OpIfnonnull:
			t, popped := pop()
			ok = popped && (t.Kind == VObject || t.Kind == VNull) && jump(in.Label)
		case op == OpGoto:
			ok = jump(in.Label)
			live = false
		default:
			ok = false
		}
		if !ok {
			return nil, 0, 0, false
		}
	}
	return frames, maxStack, maxLocals, true
}

// appendFrameLocals appends the locals of a frame to b: one entry per
// value, the trailing Tops dropped.
func appendFrameLocals(b, slots []VType) []VType {
	slots = trimTops(slots)
	for k := 0; k < len(slots); k++ {
		b = append(b, slots[k])
		if slots[k].Kind == VLong || slots[k].Kind == VDouble {
			k++
		}
	}
	return b
}
