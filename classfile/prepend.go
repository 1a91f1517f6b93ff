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
	qs := quickScratches.Get().(*quickScratch)
	defer quickScratches.Put(qs)
	syn, begin, end := qs.insertionCode(entry, prefix, at)
	offs, err := syn.placeInsertion(c, m, h, ls, qs)
	if err != nil {
		return false, err
	}
	if pad := (end.Offset - split) % 4; body.hasSwitch && pad != 0 {
		// A switch keeps its padding where the code after split moves by
		// a multiple of 4 bytes: nops make up the rest.
		for ; pad < 4; pad++ {
			at = append(at, Insn{Op: OpNop})
		}
		syn, begin, end = qs.insertionCode(entry, prefix, at)
		if offs, err = syn.placeInsertion(c, m, h, ls, qs); err != nil {
			return false, err
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

// insertionCode returns the code InsertCode analyses: entry, BEGIN:
// prefix, at, END: goto END; in qs, which InsertCode keeps until it is
// done.
func (qs *quickScratch) insertionCode(entry, prefix, at []Insn) (syn *Code, begin, end *Label) {
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

// placeInsertion lays out InsertCode's code and computes its frames, max
// stack and max locals: by quickFrames where it can (the frames then live
// in qs), else by the general analysis (place).
func (syn *Code) placeInsertion(c *Class, m *Member, h Hierarchy, ls *layoutScratch, qs *quickScratch) ([]int, error) {
	offs, _, rewrote, err := syn.layout(memberName{c, m}, ls)
	if err != nil {
		return nil, err
	}
	if frames, maxStack, maxLocals, ok := quickFrames(c, m, syn, qs); ok && !rewrote && maxStack <= 0xFFFF && maxLocals <= 0xFFFF {
		syn.Frames, syn.MaxStack, syn.MaxLocals = frames, uint16(maxStack), uint16(maxLocals)
		return offs, nil
	}
	offs, _, err = syn.place(c, m, EncodeOptions{Frames: true, Hierarchy: h}, ls)
	return offs, err
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
	for pc := 0; pc < len(bc); {
		switch bc[pc] {
		case OpJsr, OpJsrW, OpRet:
			return false
		case OpTableswitch, OpLookupswitch:
			body.hasSwitch = true
		}
		size := rawInsnSize(bc, pc)
		if size == 0 {
			return false
		}
		pc += size
	}
	return true
}

// rawInsnSize returns the size of the instruction at bc[pc], 0 if it is
// invalid or runs past the end of bc.
func rawInsnSize(bc []byte, pc int) int {
	op := bc[pc]
	size := opSize[op]
	switch op {
	case OpWide:
		if pc+1 >= len(bc) {
			return 0
		}
		switch w := bc[pc+1]; {
		case w == OpIinc:
			size = 6
		case w >= OpIload && w <= OpAload, w >= OpIstore && w <= OpAstore:
			size = 4
		default:
			return 0
		}
	case OpTableswitch, OpLookupswitch:
		p := (pc + 4) &^ 3
		if p+12 > len(bc) {
			return 0
		}
		if op == OpTableswitch {
			k := int32At(bc[p+8:]) - int32At(bc[p+4:]) + 1
			if k <= 0 || int64(p+12)+4*k > int64(len(bc)) {
				return 0
			}
			size = p + 12 + 4*int(k) - pc
		} else {
			k := int32At(bc[p+4:])
			if k < 0 || int64(p+8)+8*k > int64(len(bc)) {
				return 0
			}
			size = p + 8 + 8*int(k) - pc
		}
	}
	if size == 0 || pc+size > len(bc) {
		return 0
	}
	return size
}

func int32At(b []byte) int64 {
	return int64(int32(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])))
}

// branchTargets calls f with each branch target of the instruction of the
// given size at bc[pc] (none for other instructions).
func branchTargets(bc []byte, pc, size int, f func(target int)) {
	switch op := bc[pc]; {
	case op >= OpIfeq && op <= OpJsr, op == OpIfnull, op == OpIfnonnull:
		f(pc + int(int16(u16(bc[pc+1:]))))
	case op == OpGotoW, op == OpJsrW:
		f(pc + int(int32At(bc[pc+1:])))
	case op == OpTableswitch, op == OpLookupswitch:
		p := (pc + 4) &^ 3
		f(pc + int(int32At(bc[p:])))
		step := 4
		if op == OpLookupswitch {
			step = 8
		}
		for q := p + 12; q < pc+size; q += step {
			f(pc + int(int32At(bc[q:])))
		}
	}
}

// prefix decodes the code before split for InsertCode's analysis; false
// if a branch or an exception handler crosses split (or starts before
// it), or if split is not where an instruction starts.
func (body *rawCode) prefix(c *Class, m *Member, split int) ([]Insn, bool) {
	bc := body.code
	pc := 0
	for pc < split {
		pc += rawInsnSize(bc, pc) // the body is walked: sizes are valid
	}
	if pc != split {
		return nil, false
	}
	for ; pc < len(bc); pc += rawInsnSize(bc, pc) {
		back := false
		branchTargets(bc, pc, rawInsnSize(bc, pc), func(t int) { back = back || t < split })
		if back {
			return nil, false
		}
	}
	for p := 0; p < len(body.handlers); p += 8 {
		if int(u16(body.handlers[p:])) < split || int(u16(body.handlers[p+4:])) < split {
			return nil, false
		}
	}
	d := &codeDecoder{r: &reader{b: bc[:split]}, c: c, member: m, decodeScratch: scratchPool.Get().(*decodeScratch)}
	defer scratchPool.Put(d.decodeScratch)
	d.reset(split)
	insns, offs, err := d.decodeInsns(bc[:split], 0)
	defer clear(d.insns) // drop references into the result
	if err != nil || d.label(split) != nil {
		return nil, false
	}
	out := make([]Insn, 0, len(insns)+d.nlabels)
	for i, in := range insns {
		if l := d.label(offs[i]); l != nil {
			out = append(out, Insn{Op: OpLabel, Label: l})
		}
		out = append(out, in)
	}
	return out, true
}

// SuperCallEnd returns the offset just past constructor m's super(...) or
// this(...) call, where its execution starts: the first invokespecial of
// an <init> method that no `new` before it is waiting for. ok is false if
// m has no such call (java/lang/Object's constructor) or its code cannot
// be read.
func SuperCallEnd(c *Class, m *Member) (end int, ok bool) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil || len(a.Info) < 8 {
		return 0, false
	}
	n := int(u16(a.Info[4:]))<<16 | int(u16(a.Info[6:]))
	if n > len(a.Info)-8 {
		return 0, false
	}
	bc := a.Info[8 : 8+n]
	news := 0
	for pc := 0; pc < len(bc); {
		size := rawInsnSize(bc, pc)
		switch {
		case size == 0:
			return 0, false
		case bc[pc] == OpNew:
			news++
		case bc[pc] == OpInvokespecial:
			if _, name, _ := c.Pool.MemberRef(u16(bc[pc+1:])); name == "<init>" {
				if news == 0 {
					return pc + size, true
				}
				news--
			}
		}
		pc += size
	}
	return 0, false
}

// LineAt returns the line of the first LineNumberTable entry (the
// tables in order) at offset off of m's code; ok is false if there is
// none.
func LineAt(c *Class, m *Member, off int) (line int, ok bool) {
	line, ok, _ = lineAt(c, m, off)
	return line, ok
}

// lineAt is LineAt; entries says whether m's code has line entries at
// all, and it reports ok false for a malformed Code attribute.
func lineAt(c *Class, m *Member, off int) (line int, ok, entries bool) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return 0, false, false
	}
	r := &reader{b: a.Info}
	r.u2()
	r.u2()
	r.bytes(int(r.u4()))
	r.bytes(8 * r.count(8))
	na := r.count(6)
	for i := 0; i < na && r.err == nil; i++ {
		name := r.u2()
		info := r.bytes(int(r.u4()))
		if r.err != nil || c.Pool.Utf8(name) != "LineNumberTable" {
			continue
		}
		if !tableOf(info, 4) {
			return 0, false, false
		}
		for p := 2; p < len(info); p += 4 {
			if int(u16(info[p:])) == off {
				return int(u16(info[p+2:])), true, true
			}
			entries = true
		}
	}
	return 0, false, entries && r.err == nil
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
func insertFrames(c *Class, m *Member, computed []Frame, body rawCode, split, end int, move func(int) int, qs *quickScratch) (stackMapParts, bool) {
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

// tableOf reports whether b is a u2 count followed by that many entries
// of size bytes.
func tableOf(b []byte, size int) bool {
	return len(b) >= 2 && len(b) == 2+size*int(u16(b))
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
