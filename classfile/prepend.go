package classfile

import (
	"errors"
	"fmt"
	"sync"
)

// This file inserts code into a method body without decoding the body:
// before it, and in a constructor also after its super(...) call.
// Weaving a method's entry (a guard and before advice) is then a copy of
// the body's bytes: no decoding, encoding or frame computation over the
// whole method, which was most of the cost of weaving the JDK.

// PrependCode puts the instructions prologue returns before the body of
// m's Code attribute (prologue is called once the body is known to be
// keepable, with the body's max_locals) and keeps the body as it is: its bytes, its exception table,
// line and local variable tables and StackMapTable frames, their offsets
// moved past pro. pro's own max stack, max locals and frames are computed
// by Encode's analysis, run over pro followed by a jump to itself where the
// body starts (so there is always a frame there: the state pro leaves).
//
// Why the body's frames stay right: pro must leave the stack empty and may
// store only to locals past the body's max_locals and the parameters, which
// the body never reads. So the body starts from the state it started from
// before plus locals its frames do not name (Top to the verifier), and each
// of its instructions is checked against the same frames. Only the encoding
// changes: the body's first frame is written again relative to pro's last,
// and the offsets of `new` instructions in uninitialized types move with
// the code.
//
// A body with a switch gets nops after pro, so that the switch's padding
// stays the same.
//
// It returns false, leaving m unchanged, where the body cannot be kept
// byte for byte: jsr/ret subroutines (whose frames are not computed), type
// annotations on the code, a result over the JVM's 64 KB limit, or bytes
// it cannot read (DecodeCode reports those). The caller then decodes and
// encodes the whole method.
func PrependCode(c *Class, m *Member, h Hierarchy, prologue func(maxLocals uint16) []Insn) (bool, error) {
	return InsertCode(c, m, h, 0, func(maxLocals uint16) (entry, at []Insn) { return prologue(maxLocals), nil })
}

// InsertCode is PrependCode with a second place to insert at: of the two
// instruction lists prologue returns, entry goes before the body and at
// before the body's instruction at offset split (after the code before
// it; at split 0, after entry). A constructor's advice follows its
// super(...) or this(...) call (SuperCallEnd): the code before split is
// then decoded and analysed with the inserted code, and kept byte for
// byte too (InsertCode declines if encoding it again changes it). Labels
// at split are those of the instruction after at: branches and table
// entries there skip it.
//
// Besides PrependCode's cases, it declines where the code before split
// would not be a prefix the rest only falls out of: a branch between it
// and the rest, either way, an exception handler starting before split,
// or a frame of the rest naming a `new` before split.
func InsertCode(c *Class, m *Member, h Hierarchy, split int, prologue func(maxLocals uint16) (entry, at []Insn)) (bool, error) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return false, nil
	}
	body, ok := readRawCode(c, a.Info)
	if !ok || c.Major < 50 && body.stackMap >= 0 || split < 0 || split >= len(body.code) {
		return false, nil
	}
	var prefix []Insn
	if split > 0 {
		if prefix, ok = body.prefix(c, m, split); !ok {
			return false, nil
		}
	}
	entry, at := prologue(body.maxLocals)
	params := ArgSlots(c.MemberDesc(m))
	if m.Access&AccStatic == 0 {
		params++
	}
	base := max(int(body.maxLocals), params)
	if err := checkPrologue(entry, base); err != nil {
		return false, fmt.Errorf("%s: %w", memberName{c, m}, err)
	}
	if err := checkPrologue(at, base); err != nil {
		return false, fmt.Errorf("%s: %w", memberName{c, m}, err)
	}

	ls := layouts.Get().(*layoutScratch)
	defer layouts.Put(ls)
	qs := insertScratches.Get().(*insertScratch)
	defer insertScratches.Put(qs)
	syn, begin, end := qs.insertionCode(entry, prefix, at)
	offs, err := syn.placeInsertion(c, m, h, ls, qs)
	if err != nil {
		return declineUnknown(err)
	}
	if pad := (end.Offset - split) % 4; body.hasSwitch && pad != 0 {
		// A switch keeps its padding where the code after split moves by
		// a multiple of 4 bytes: nops make up the rest.
		for ; pad < 4; pad++ {
			at = append(at, Insn{Op: OpNop})
		}
		syn, begin, end = qs.insertionCode(entry, prefix, at)
		if offs, err = syn.placeInsertion(c, m, h, ls, qs); err != nil {
			return declineUnknown(err)
		}
	}
	// Offsets before split move by lead, the others by shift.
	lead, shift := begin.Offset, end.Offset-split
	if body.hasSwitch && shift%4 != 0 || end.Offset+len(body.code)-split > MaxCodeLength {
		return false, nil
	}
	move := func(off int) int {
		if off < split {
			return off + lead
		}
		return off + shift
	}
	var frames stackMapParts
	if c.Major >= 50 {
		if frames, ok = insertFrames(c, m, syn.Frames, body, split, end.Offset, move, qs); !ok {
			return false, nil
		}
	}

	size := 8 + end.Offset + len(body.code) - split + 2 + len(body.handlers) + 2 + len(frames.head) + len(frames.rest) + 6
	for _, at := range body.attrs {
		size += 6 + len(at.Info)
	}
	out := make([]byte, 0, size)
	out = be16(out, max(body.maxStack, syn.MaxStack))
	out = be16(out, max(body.maxLocals, syn.MaxLocals))
	out = be32(out, uint32(end.Offset+len(body.code)-split))
	out = syn.appendBytecode(out, c.Pool, offs)[:8+end.Offset] // without END's goto
	if string(out[8+lead:8+lead+split]) != string(body.code[:split]) {
		return false, nil // the prefix encoded again differs: its offsets would not move by lead
	}
	out = append(out, body.code[split:]...)
	out = be16(out, uint16(len(body.handlers)/8))
	at0 := len(out)
	out = append(out, body.handlers...)
	for p := at0; p < len(out); p += 8 {
		moveOffset(out[p:], shift)
		moveOffset(out[p+2:], shift)
		moveOffset(out[p+4:], shift)
	}
	n := len(body.attrs)
	if frames.head != nil && body.stackMap < 0 {
		n++
	}
	out = be16(out, uint16(n))
	for i, attr := range body.attrs {
		out = be16(out, attr.Name)
		if i == body.stackMap {
			out = frames.append(out, shift)
			continue
		}
		out = be32(out, uint32(len(attr.Info)))
		at := len(out)
		out = append(out, attr.Info...)
		switch attr.Name {
		case body.lines:
			moveStarts(out[at:], 4, move)
		case body.locals, body.localTypes:
			moveRanges(out[at:], move)
		}
	}
	if frames.head != nil && body.stackMap < 0 {
		out = be16(out, c.Pool.AddUtf8("StackMapTable"))
		out = frames.append(out, shift)
	}
	a.Info = out
	return true, nil
}

// insertScratch is the memory of one InsertCode call, reused: its code,
// the labels it places, its frames, the frames merged with the body's and
// the method's initial locals.
type insertScratch struct {
	syn        Code
	insns      []Insn
	begin, end Label
	frames     frameBuf
	merged     []Frame
	initial    []VType
}

var insertScratches = sync.Pool{New: func() any { return new(insertScratch) }}

// insertionCode returns the code InsertCode analyses: entry, BEGIN:
// prefix, at, END: goto END; in qs, which InsertCode keeps until it is
// done.
func (qs *insertScratch) insertionCode(entry, prefix, at []Insn) (syn *Code, begin, end *Label) {
	qs.begin, qs.end = Label{Offset: -1}, Label{Offset: -1}
	begin, end = &qs.begin, &qs.end
	qs.syn = Code{Insns: qs.insns[:0]}
	syn = &qs.syn
	defer func() { qs.insns = syn.Insns }()
	syn.Insns = append(syn.Insns, entry...)
	syn.Insns = append(syn.Insns, Insn{Op: OpLabel, Label: begin})
	syn.Insns = append(syn.Insns, prefix...)
	syn.Insns = append(append(syn.Insns, at...), Insn{Op: OpLabel, Label: end}, Insn{Op: OpGoto, Label: end})
	return syn, begin, end
}

// declineUnknown is InsertCode's answer to an error of its analysis: a
// merge in the code before split that the hierarchy cannot answer is a
// decline, not an error, since the caller's way (decoding the whole method
// and keeping its frames) needs no answer there.
func declineUnknown(err error) (bool, error) {
	var u *UnknownTypeError
	if errors.As(err, &u) {
		return false, nil
	}
	return false, err
}

// placeInsertion lays out InsertCode's code and computes its frames, max
// stack and max locals: by the analysis's straight mode where it answers
// (the frames then live in qs), else by the whole analysis (place).
func (syn *Code) placeInsertion(c *Class, m *Member, h Hierarchy, ls *layoutScratch, qs *insertScratch) ([]int, error) {
	offs, _, rewrote, err := syn.layout(memberName{c, m}, ls)
	if err != nil {
		return nil, err
	}
	if frames, maxStack, maxLocals, ok := straightFrames(c, m, h, syn, &qs.frames); ok && !rewrote && maxStack <= 0xFFFF {
		syn.Frames, syn.MaxStack, syn.MaxLocals = frames, uint16(maxStack), uint16(maxLocals)
		return offs, nil
	}
	offs, _, err = syn.place(c, m, EncodeOptions{Frames: true, Hierarchy: h}, ls)
	return offs, err
}

// checkPrologue checks PrependCode's contract: pro stores to no local
// below base.
func checkPrologue(pro []Insn, base int) error {
	for i, in := range pro {
		if (in.Op >= OpIstore && in.Op <= OpAstore || in.Op == OpIinc || in.Op == OpRet) && int(in.Index) < base {
			return fmt.Errorf("prologue instruction %d (%s) writes local %d, below the body's first free local %d", i, OpNames[in.Op], in.Index, base)
		}
	}
	return nil
}

// stackMapParts is a StackMapTable in two parts: head, its count and
// first entries, written by PrependCode, and rest, the body's other
// entries as they are (more of them), whose uninitialized types' offsets
// are moved when they are appended.
type stackMapParts struct {
	head []byte
	rest []byte
	more int
}

// append appends the StackMapTable's length and content to b.
func (sm stackMapParts) append(b []byte, shift int) []byte {
	b = be32(b, uint32(len(sm.head)+len(sm.rest)))
	b = append(b, sm.head...)
	at := len(b)
	b = append(b, sm.rest...)
	rest := b[at:]
	uninitializedOffsets(rest, sm.more, func(p int) { moveOffset(rest[p:], shift) }) // checked by prependFrames
	return b
}

// insertFrames returns the StackMapTable of the code InsertCode makes:
// the frames computed over the inserted code and the prefix (the last
// at end, where the rest of the body starts), then the body's frames past
// split, the first written again relative to the computed last (or
// standing for it, at the same offset), the others kept. move maps the
// body's offsets to the result's.
func insertFrames(c *Class, m *Member, computed []Frame, body rawCode, split, end int, move func(int) int, qs *insertScratch) (stackMapParts, bool) {
	var sm stackMapParts
	frames := qs.merged[:0]
	defer func() { qs.merged = frames[:0] }()
	var last *Frame
	for i := range computed {
		switch f := &computed[i]; {
		case f.At.Offset == end: // at END, or another label placed there
			last = f
		case f.At.Offset < end:
			frames = append(frames, *f)
		}
	}
	if last == nil || len(last.Stack) != 0 {
		return sm, false // the inserted code must fall into the body with an empty stack
	}
	qs.initial = appendInitialLocals(qs.initial[:0], c, m)
	initial := qs.initial
	first := Frame{At: &Label{Offset: -1}}
	if body.stackMap >= 0 {
		r := &reader{b: body.attrs[body.stackMap].Info, name: "StackMapTable"}
		moved := func(off int) *Label { return &Label{Offset: move(off)} }
		vtype := func(r *reader) VType { return readVType(r, c.Pool, moved) }
		n := r.count(1)
		locals, off := initial, -1
		// The frames before split are the computed ones.
		for n > 0 && r.err == nil {
			delta, f := readFrame(r, locals, vtype)
			n--
			off += delta + 1
			if r.err != nil || off >= len(body.code) {
				return sm, false
			}
			locals = f.Locals
			if off >= split {
				first = f
				first.At = &Label{Offset: off + end - split}
				break
			}
		}
		if r.err != nil {
			return sm, false
		}
		sm.rest, sm.more = r.b[r.off:], n
		fits := true
		if !uninitializedOffsets(sm.rest, sm.more, func(p int) {
			at := int(u16(sm.rest[p:]))
			fits = fits && at >= split && at+end-split <= 0xFFFF
		}) || !fits {
			return sm, false
		}
		for _, t := range append(first.Locals, first.Stack...) {
			if t.Kind == VUninitialized && t.New.Offset > 0xFFFF {
				return sm, false
			}
		}
	}
	if first.At.Offset != end {
		frames = append(frames, *last)
	}
	if first.At.Offset >= 0 {
		frames = append(frames, first)
	}
	sm.head = appendStackMap(make([]byte, 0, 16), c.Pool, frames, initial)
	n := int(u16(sm.head)) + sm.more
	if n > 0xFFFF {
		return sm, false
	}
	sm.head[0], sm.head[1] = byte(n>>8), byte(n)
	return sm, true
}

// moveStarts moves the code offset that starts each entry (of size
// bytes) of the table b, in place.
func moveStarts(b []byte, size int, move func(int) int) {
	for p := 2; p+size <= len(b); p += size {
		setU16(b[p:], move(int(u16(b[p:]))))
	}
}

// moveRanges moves the start and the end of each entry of a local
// variable table b, in place.
func moveRanges(b []byte, move func(int) int) {
	for p := 2; p+10 <= len(b); p += 10 {
		start, length := int(u16(b[p:])), int(u16(b[p+2:]))
		from, to := move(start), move(start+length)
		setU16(b[p:], from)
		setU16(b[p+2:], to-from)
	}
}

func setU16(b []byte, v int) { b[0], b[1] = byte(v>>8), byte(v) }

// moveOffset adds shift to the u2 code offset at b.
func moveOffset(b []byte, shift int) {
	v := u16(b) + uint16(shift)
	b[0], b[1] = byte(v>>8), byte(v)
}
