package classfile

import "fmt"

// This file inserts code before a method body without decoding the body.
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
// It returns false, leaving m unchanged, where the body cannot be kept byte
// for byte: a switch whose padding would change, jsr/ret subroutines
// (whose frames are not computed), type annotations on the code, a result
// over the JVM's 64 KB limit, or bytes it cannot read (DecodeCode reports
// those). The caller then decodes and encodes the whole method.
func PrependCode(c *Class, m *Member, h Hierarchy, prologue func(maxLocals uint16) []Insn) (bool, error) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return false, nil
	}
	body, ok := readRawCode(c, a.Info)
	if !ok || c.Major < 50 && body.stackMap >= 0 {
		return false, nil
	}
	pro := prologue(body.maxLocals)
	params := ArgSlots(c.MemberDesc(m))
	if m.Access&AccStatic == 0 {
		params++
	}
	if err := checkPrologue(pro, max(int(body.maxLocals), params)); err != nil {
		return false, fmt.Errorf("%s: %w", memberName{c, m}, err)
	}

	// pro, then END: goto END.
	end := NewLabel()
	syn := &Code{Insns: make([]Insn, 0, len(pro)+2)}
	syn.Insns = append(append(syn.Insns, pro...), Insn{Op: OpLabel, Label: end}, Insn{Op: OpGoto, Label: end})
	ls := layouts.Get().(*layoutScratch)
	defer layouts.Put(ls)
	offs, _, err := syn.place(c, m, EncodeOptions{Frames: true, Hierarchy: h}, ls)
	if err != nil {
		return false, err
	}
	shift := end.Offset
	if body.hasSwitch && shift%4 != 0 || shift+len(body.code) > MaxCodeLength {
		return false, nil
	}
	var frames stackMapParts
	if c.Major >= 50 {
		if frames, ok = prependFrames(c, m, syn.Frames, body, shift); !ok {
			return false, nil
		}
	}

	size := 8 + shift + len(body.code) + 2 + len(body.handlers) + 2 + len(frames.head) + len(frames.rest) + 6
	for _, at := range body.attrs {
		size += 6 + len(at.Info)
	}
	out := make([]byte, 0, size)
	out = be16(out, max(body.maxStack, syn.MaxStack))
	out = be16(out, max(body.maxLocals, syn.MaxLocals))
	out = be32(out, uint32(shift+len(body.code)))
	out = syn.appendBytecode(out, c.Pool, offs)[:8+shift] // without END's goto
	out = append(out, body.code...)
	out = be16(out, uint16(len(body.handlers)/8))
	at := len(out)
	out = append(out, body.handlers...)
	for p := at; p < len(out); p += 8 {
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
			moveStarts(out[at:], 4, shift)
		case body.locals, body.localTypes:
			moveStarts(out[at:], 10, shift)
		}
	}
	if frames.head != nil && body.stackMap < 0 {
		out = be16(out, c.Pool.AddUtf8("StackMapTable"))
		out = frames.append(out, shift)
	}
	a.Info = out
	return true, nil
}

// rawCode is a Code attribute read without decoding its instructions.
type rawCode struct {
	maxStack, maxLocals uint16
	code                []byte
	handlers            []byte // exception table entries, 8 bytes each
	attrs               []Attribute
	hasSwitch           bool
	stackMap            int // index in attrs of the StackMapTable, -1 if none
	// Utf8 indexes of the names of the tables whose entries start at a
	// code offset (0: none).
	lines, locals, localTypes uint16
}

// readRawCode reads a Code attribute and walks its instructions; false if
// it is malformed, has jsr/ret, type annotations or more than one
// StackMapTable.
func readRawCode(c *Class, info []byte) (rawCode, bool) {
	body := rawCode{stackMap: -1}
	r := &reader{b: info}
	body.maxStack, body.maxLocals = r.u2(), r.u2()
	n := int(r.u4())
	if r.err != nil || n == 0 || n > MaxCodeLength {
		return body, false
	}
	body.code = r.bytes(n)
	nh := r.count(8)
	body.handlers = r.bytes(8 * nh)
	na := r.count(6)
	if r.err != nil || !body.walk() {
		return body, false
	}
	body.attrs = make([]Attribute, 0, na)
	for i := 0; i < na && r.err == nil; i++ {
		name := r.u2()
		size := r.u4()
		if r.err != nil || uint64(size) > uint64(len(r.b)-r.off) {
			return body, false
		}
		body.attrs = append(body.attrs, Attribute{Name: name, Info: r.bytes(int(size))})
		switch c.Pool.Utf8(name) {
		case "StackMapTable":
			if body.stackMap >= 0 {
				return body, false
			}
			body.stackMap = i
		case "LineNumberTable":
			body.lines = name
		case "LocalVariableTable":
			body.locals = name
		case "LocalVariableTypeTable":
			body.localTypes = name
		case "RuntimeVisibleTypeAnnotations", "RuntimeInvisibleTypeAnnotations":
			return body, false
		}
	}
	for _, at := range body.attrs {
		ok := true
		switch at.Name {
		case body.lines:
			ok = tableOf(at.Info, 4)
		case body.locals, body.localTypes:
			ok = tableOf(at.Info, 10)
		}
		if !ok {
			return body, false
		}
	}
	return body, r.err == nil && r.off == len(r.b)
}

// walk checks the instructions' sizes, notes switches, and reports false
// for invalid code and for jsr/ret.
func (body *rawCode) walk() bool {
	bc := body.code
	s4 := func(i int) int64 {
		return int64(int32(uint32(bc[i])<<24 | uint32(bc[i+1])<<16 | uint32(bc[i+2])<<8 | uint32(bc[i+3])))
	}
	for pc := 0; pc < len(bc); {
		op := bc[pc]
		size := opSize[op]
		switch op {
		case OpJsr, OpJsrW, OpRet:
			return false
		case OpWide:
			if pc+1 >= len(bc) {
				return false
			}
			switch w := bc[pc+1]; {
			case w == OpIinc:
				size = 6
			case w >= OpIload && w <= OpAload, w >= OpIstore && w <= OpAstore:
				size = 4
			default:
				return false
			}
		case OpTableswitch, OpLookupswitch:
			body.hasSwitch = true
			p := (pc + 4) &^ 3
			if p+12 > len(bc) {
				return false
			}
			if op == OpTableswitch {
				k := s4(p+8) - s4(p+4) + 1
				if k <= 0 || int64(p+12)+4*k > int64(len(bc)) {
					return false
				}
				size = p + 12 + 4*int(k) - pc
			} else {
				k := s4(p + 4)
				if k < 0 || int64(p+8)+8*k > int64(len(bc)) {
					return false
				}
				size = p + 8 + 8*int(k) - pc
			}
		}
		if size == 0 || pc+size > len(bc) {
			return false
		}
		pc += size
	}
	return true
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

// prependFrames returns the StackMapTable of the body after the prologue
// shift bytes long: the prologue's frames (computed, the last where the
// body starts), then the body's, the first written again relative to the
// prologue's last (or standing for it, at the same offset), the others
// kept.
func prependFrames(c *Class, m *Member, computed []Frame, body rawCode, shift int) (stackMapParts, bool) {
	var sm stackMapParts
	frames := make([]Frame, 0, len(computed)+1)
	var last *Frame
	for i := range computed {
		switch f := &computed[i]; {
		case f.At.Offset == shift: // at END, or another label placed there
			last = f
		case f.At.Offset < shift:
			frames = append(frames, *f)
		}
	}
	if last == nil || len(last.Stack) != 0 {
		return sm, false // pro must fall into the body with an empty stack
	}
	initial := InitialLocals(c, m)
	first := Frame{At: &Label{Offset: -1}}
	if body.stackMap >= 0 {
		r := &reader{b: body.attrs[body.stackMap].Info, name: "StackMapTable"}
		if n := r.count(1); n > 0 {
			moved := func(off int) *Label { return &Label{Offset: off + shift} }
			var delta int
			delta, first = readFrame(r, initial, func(r *reader) VType { return readVType(r, c.Pool, moved) })
			if r.err != nil || delta >= len(body.code) {
				return sm, false
			}
			first.At = &Label{Offset: delta + shift}
			sm.rest, sm.more = r.b[r.off:], n-1
			fits := true
			if !uninitializedOffsets(sm.rest, sm.more, func(p int) { fits = fits && int(u16(sm.rest[p:]))+shift <= 0xFFFF }) || !fits {
				return sm, false
			}
		}
	}
	if first.At.Offset != shift {
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

// tableOf reports whether b is a u2 count followed by that many entries
// of size bytes.
func tableOf(b []byte, size int) bool {
	return len(b) >= 2 && len(b) == 2+size*int(u16(b))
}

// moveStarts adds shift to the code offset that starts each entry (of
// size bytes) of the table b, in place.
func moveStarts(b []byte, size, shift int) {
	for p := 2; p+size <= len(b); p += size {
		moveOffset(b[p:], shift)
	}
}

// moveOffset adds shift to the u2 code offset at b.
func moveOffset(b []byte, shift int) {
	v := u16(b) + uint16(shift)
	b[0], b[1] = byte(v>>8), byte(v)
}

func u16(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }

// EntryLine returns the source line of the first instruction of m's body
// without decoding it: the line of the first LineNumberTable entry at
// offset 0 (the tables in order), or 0 if the body has no line entries.
// ok is false if m has no Code attribute, if its line entries all start
// past offset 0 or the one there says line 0 (callers then take the first
// valid entry, which takes decoding to find), or if the attribute is
// malformed.
func EntryLine(c *Class, m *Member) (line int, ok bool) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return 0, false
	}
	r := &reader{b: a.Info}
	r.u2()
	r.u2()
	r.bytes(int(r.u4()))
	r.bytes(8 * r.count(8))
	na := r.count(6)
	entries := false
	for i := 0; i < na && r.err == nil; i++ {
		name := r.u2()
		info := r.bytes(int(r.u4()))
		if r.err != nil || c.Pool.Utf8(name) != "LineNumberTable" {
			continue
		}
		if !tableOf(info, 4) {
			return 0, false
		}
		for p := 2; p < len(info); p += 4 {
			if u16(info[p:]) == 0 {
				line = int(u16(info[p+2:]))
				return line, line != 0
			}
			entries = true
		}
	}
	return 0, r.err == nil && !entries
}
