package classfile

// This file reads a Code attribute without decoding it into the code
// model: its parts as bytes, the instructions' sizes and branch targets,
// a constructor's super(...) call and line entries. PrependCode and
// InsertCode keep a body this way, and the weaver matches a method's
// execution without decoding it.

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
// none or a table is malformed.
func LineAt(c *Class, m *Member, off int) (line int, ok bool) {
	found := false
	valid := eachLineEntry(c, m, func(pc, l int) bool {
		if pc == off {
			line, found = l, true
			return false
		}
		return true
	})
	return line, valid && found
}

// EntryLine returns the source line of the first instruction of m's body
// without decoding it: the line of the first LineNumberTable entry at
// offset 0 (the tables in order), or 0 if the body has no line entries.
// ok is false if m has no Code attribute, if its line entries all start
// past offset 0 or the one there says line 0 (callers then take the first
// valid entry, which takes decoding to find), or if the attribute is
// malformed.
func EntryLine(c *Class, m *Member) (line int, ok bool) {
	entries, atZero := false, false
	valid := eachLineEntry(c, m, func(pc, l int) bool {
		if pc == 0 {
			line, atZero = l, true
			return false
		}
		entries = true
		return true
	})
	switch {
	case !valid:
		return 0, false
	case atZero:
		return line, line != 0
	}
	return 0, !entries
}

// eachLineEntry calls visit with each LineNumberTable entry of m's Code
// attribute, the tables in order, until visit returns false. It reports
// false if m has no Code attribute or the attribute or a table is
// malformed (a malformed table after visit stopped is not seen).
func eachLineEntry(c *Class, m *Member, visit func(pc, line int) bool) bool {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return false
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
			return false
		}
		for p := 2; p < len(info); p += 4 {
			if !visit(int(u16(info[p:])), int(u16(info[p+2:]))) {
				return true
			}
		}
	}
	return r.err == nil
}

// tableOf reports whether b is a u2 count followed by that many entries
// of size bytes.
func tableOf(b []byte, size int) bool {
	return len(b) >= 2 && len(b) == 2+size*int(u16(b))
}

func u16(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }
