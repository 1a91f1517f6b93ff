package classfile

import (
	"fmt"
	"slices"
	"sync"
)

// MaxCodeLength is the largest code array the JVM accepts (JVMS §4.7.3).
const MaxCodeLength = 65535

// codeDecoder holds the state of one DecodeCode call.
type codeDecoder struct {
	r       *reader
	c       *Class
	member  *Member
	code    *Code
	codeLen int
	*decodeScratch
	labelBlock []Label // labels are allocated in blocks
	nlabels    int
}

// decodeScratch holds the per-offset tables of a decoding, reused across
// calls: stamps instead of clearing make reuse cost nothing per method.
type decodeScratch struct {
	gen   uint32
	slots []offsetSlot // by bytecode offset, 0..codeLen inclusive
	insns []Insn
	offs  []int
}

type offsetSlot struct {
	labelGen, startGen uint32
	label              *Label
}

var scratchPool = sync.Pool{New: func() any { return new(decodeScratch) }}

// isStart reports whether an instruction starts at off (< codeLen).
func (d *codeDecoder) isStart(off int) bool { return d.slots[off].startGen == d.gen }

// label returns the label at off, or nil.
func (d *codeDecoder) label(off int) *Label {
	if s := &d.slots[off]; s.labelGen == d.gen {
		return s.label
	}
	return nil
}

// DecodeCode decodes method m's Code attribute into the label-based model.
// It returns nil, nil when m has no Code attribute (abstract and native
// methods). Errors name the class, the method and the offset.
func DecodeCode(c *Class, m *Member) (*Code, error) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return nil, nil
	}
	d := &codeDecoder{r: &reader{b: a.Info}, c: c, member: m, decodeScratch: scratchPool.Get().(*decodeScratch)}
	err := d.decode()
	for i := range d.insns {
		d.insns[i] = Insn{} // drop references into the result
	}
	scratchPool.Put(d.decodeScratch)
	if err != nil {
		// Names are built only for errors: building them for every
		// method is a measurable share of decoding.
		if fe, ok := err.(*FormatError); ok {
			name := c.Name() + "." + c.MemberName(m) + c.MemberDesc(m) + " Code"
			if fe.Class != "" {
				name += " " + fe.Class
			}
			fe.Class = name
		}
		return nil, err
	}
	return d.code, nil
}

// labelAt returns the label at bytecode offset off, creating it.
func (d *codeDecoder) labelAt(off int) *Label {
	if off < 0 || off > d.codeLen {
		d.r.fail("offset %d is outside the code (length %d)", off, d.codeLen)
		return nil
	}
	s := &d.slots[off]
	if s.labelGen != d.gen {
		if len(d.labelBlock) == 0 {
			d.labelBlock = make([]Label, 16)
		}
		s.labelGen, s.label = d.gen, &d.labelBlock[0]
		d.labelBlock = d.labelBlock[1:]
		*s.label = Label{Offset: off}
		d.nlabels++
	}
	return s.label
}

// validLabel is labelAt for tables (lines, local variables) whose entries
// are dropped rather than rejected when they do not point at an instruction.
func (d *codeDecoder) validLabel(off int) *Label {
	if off < 0 || off > d.codeLen || (off < d.codeLen && !d.isStart(off)) {
		return nil
	}
	return d.labelAt(off)
}

// reset readies the scratch tables for code of n bytes.
func (d *codeDecoder) reset(n int) {
	d.codeLen = n
	d.gen++
	if d.gen == 0 { // wrapped: old stamps could collide
		d.slots = nil
		d.gen = 1
	}
	if cap(d.slots) < d.codeLen+1 {
		d.slots = make([]offsetSlot, d.codeLen+1, d.codeLen+1+d.codeLen/4)
	}
	d.slots = d.slots[:d.codeLen+1]
}

func (d *codeDecoder) decode() error {
	r := d.r
	code := &Code{MaxStack: r.u2(), MaxLocals: r.u2()}
	d.code = code
	n := r.u4()
	if r.err == nil && (n == 0 || n > MaxCodeLength) {
		return r.fail("code_length %d is not in 1..%d", n, MaxCodeLength)
	}
	bcStart := r.off
	bc := r.bytes(int(n))
	if r.err != nil {
		return r.err
	}
	d.reset(len(bc))
	insns, offs, err := d.decodeInsns(bc, bcStart)
	if err != nil {
		return err
	}
	for off := 0; off < d.codeLen; off++ {
		if d.slots[off].labelGen == d.gen && !d.isStart(off) {
			return r.fail("branch target %d is not the start of an instruction", off)
		}
	}

	nh := r.count(8)
	for i := 0; i < nh; i++ {
		at := r.off
		start, end, handler, ct := int(r.u2()), int(r.u2()), int(r.u2()), r.u2()
		if r.err != nil {
			break
		}
		h := Handler{Start: d.validLabel(start), End: d.validLabel(end), Handler: d.validLabel(handler), CatchType: ct}
		if h.Start == nil || h.End == nil || h.Handler == nil || start >= end || handler >= d.codeLen {
			r.off = at
			return r.fail("exception table entry %d [%d, %d) → %d is invalid", i, start, end, handler)
		}
		code.Handlers = append(code.Handlers, h)
	}

	na := r.count(6)
	var stackMap []byte
	for i := 0; i < na && r.err == nil; i++ {
		nameIdx := r.u2()
		size := r.u4()
		if r.err == nil && uint64(size) > uint64(len(r.b)-r.off) {
			return r.fail("attribute length %d exceeds the remaining %d bytes", size, len(r.b)-r.off)
		}
		info := r.bytes(int(size))
		if r.err != nil {
			break
		}
		attrName := d.c.Pool.Utf8(nameIdx)
		sub := &reader{b: info, name: attrName}
		if code.attrs.order == nil {
			code.attrs.order = make([]codeAttrKind, 0, na)
		}
		switch attrName {
		case "LineNumberTable":
			d.decodeLines(sub)
			code.attrs.add(attrLines, nameIdx)
		case "LocalVariableTable":
			code.Locals = append(code.Locals, d.decodeLocals(sub)...)
			code.attrs.add(attrLocals, nameIdx)
		case "LocalVariableTypeTable":
			code.LocalTypes = append(code.LocalTypes, d.decodeLocals(sub)...)
			code.attrs.add(attrLocalTypes, nameIdx)
		case "StackMapTable":
			stackMap = info
			code.attrs.add(attrStackMap, nameIdx)
		case "RuntimeVisibleTypeAnnotations", "RuntimeInvisibleTypeAnnotations":
			code.TypeAnnotations = append(code.TypeAnnotations, d.decodeTypeAnnotations(sub, nameIdx))
			code.attrs.add(attrTypeAnnotations, nameIdx)
		default:
			code.Attributes = append(code.Attributes, Attribute{Name: nameIdx, Info: info})
			code.attrs.add(attrOther, nameIdx)
		}
		if sub.err != nil {
			return sub.err
		}
	}
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		return r.fail("%d bytes of trailing data", len(r.b)-r.off)
	}
	if stackMap != nil {
		frames, err := d.decodeStackMap(&reader{b: stackMap, name: "StackMapTable"})
		if err != nil {
			return err
		}
		code.Frames = frames
	}

	// Interleave label placements with the instructions.
	code.Insns = make([]Insn, 0, len(insns)+d.nlabels)
	for i, in := range insns {
		if l := d.label(offs[i]); l != nil {
			code.Insns = append(code.Insns, Insn{Op: OpLabel, Label: l})
		}
		code.Insns = append(code.Insns, in)
	}
	if l := d.label(d.codeLen); l != nil {
		code.Insns = append(code.Insns, Insn{Op: OpLabel, Label: l})
	}
	return nil
}

// decodeInsns decodes the bytecode into normalized instructions and the
// offset of each.
func (d *codeDecoder) decodeInsns(bc []byte, base int) ([]Insn, []int, error) {
	insns, offs := d.insns[:0], d.offs[:0]
	defer func() { d.insns, d.offs = insns, offs }()
	fail := func(off int, format string, args ...any) ([]Insn, []int, error) {
		d.r.off = base + off
		return nil, nil, d.r.fail("bytecode offset %d: %s", off, fmt.Sprintf(format, args...))
	}
	u2 := func(i int) int { return int(bc[i])<<8 | int(bc[i+1]) }
	s4 := func(i int) int32 {
		return int32(uint32(bc[i])<<24 | uint32(bc[i+1])<<16 | uint32(bc[i+2])<<8 | uint32(bc[i+3]))
	}
	for pc := 0; pc < len(bc); {
		op := bc[pc]
		d.slots[pc].startGen = d.gen
		in := Insn{Op: uint16(op)}
		size := opSize[op]
		if size == 0 && op != OpTableswitch && op != OpLookupswitch && op != OpWide {
			return fail(pc, "invalid opcode 0x%02x", op)
		}
		if size > 0 && pc+size > len(bc) {
			return fail(pc, "%s runs past the end of the code", OpNames[op])
		}
		switch {
		case op >= OpIload && op <= OpAload, op >= OpIstore && op <= OpAstore, op == OpRet:
			in.Index = uint16(bc[pc+1])
			if in.Index <= 3 && op != OpRet {
				in.SetForm(FormOperandByte)
			}
		case op >= OpIload0 && op <= OpAload3:
			in.Op = uint16(OpIload + (op-OpIload0)/4)
			in.Index = uint16((op - OpIload0) % 4)
		case op >= OpIstore0 && op <= OpAstore3:
			in.Op = uint16(OpIstore + (op-OpIstore0)/4)
			in.Index = uint16((op - OpIstore0) % 4)
		case op == OpBipush:
			in.Const = int32(int8(bc[pc+1]))
		case op == OpSipush:
			in.Const = int32(int16(u2(pc + 1)))
		case op == OpLdc:
			in.Index = uint16(bc[pc+1])
		case op == OpLdcW:
			in.Op = OpLdc
			in.Index = uint16(u2(pc + 1))
			if in.Index <= 255 {
				in.SetForm(FormWide)
			}
		case op == OpLdc2W, op >= OpGetstatic && op <= OpInvokestatic, op == OpNew,
			op == OpAnewarray, op == OpCheckcast, op == OpInstanceof:
			in.Index = uint16(u2(pc + 1))
		case op == OpInvokeinterface, op == OpInvokedynamic:
			in.Index = uint16(u2(pc + 1)) // count and zero bytes are recomputed
		case op == OpMultianewarray:
			in.Index = uint16(u2(pc + 1))
			in.Const = int32(bc[pc+3])
		case op == OpNewarray:
			in.Const = int32(bc[pc+1])
		case op == OpIinc:
			in.Index = uint16(bc[pc+1])
			in.Const = int32(int8(bc[pc+2]))
		case op >= OpIfeq && op <= OpJsr, op == OpIfnull, op == OpIfnonnull:
			in.Label = d.labelAt(pc + int(int16(u2(pc+1))))
		case op == OpGotoW, op == OpJsrW:
			in.Op = OpGoto
			if op == OpJsrW {
				in.Op = OpJsr
			}
			in.Label = d.labelAt(pc + int(s4(pc+1)))
			in.SetForm(FormWide)
		case op == OpWide:
			if pc+1 >= len(bc) {
				return fail(pc, "wide runs past the end of the code")
			}
			in.Op = uint16(bc[pc+1])
			switch {
			case in.Op == OpIinc:
				size = 6
			case in.Op >= OpIload && in.Op <= OpAload, in.Op >= OpIstore && in.Op <= OpAstore, in.Op == OpRet:
				size = 4
			default:
				return fail(pc, "wide followed by %s", OpNames[in.Op])
			}
			if pc+size > len(bc) {
				return fail(pc, "wide %s runs past the end of the code", OpNames[in.Op])
			}
			in.Index = uint16(u2(pc + 2))
			if in.Op == OpIinc {
				in.Const = int32(int16(u2(pc + 4)))
			}
			if in.Index <= 255 && in.Const >= -128 && in.Const <= 127 {
				in.SetForm(FormWide) // a wide prefix the operands do not need
			}
		case op == OpTableswitch, op == OpLookupswitch:
			p := (pc + 4) &^ 3
			if p+12 > len(bc) && !(op == OpLookupswitch && p+8 <= len(bc)) {
				return fail(pc, "%s runs past the end of the code", OpNames[op])
			}
			sw := &Switch{Default: d.labelAt(pc + int(s4(p)))}
			for _, b := range bc[pc+1 : p] {
				if b != 0 {
					sw.pad = bc[pc+1 : p : p]
				}
			}
			if op == OpTableswitch {
				sw.Low, sw.High = s4(p+4), s4(p+8)
				n := int64(sw.High) - int64(sw.Low) + 1
				if n <= 0 || int64(p+12)+4*n > int64(len(bc)) {
					return fail(pc, "tableswitch %d..%d does not fit the code", sw.Low, sw.High)
				}
				sw.Targets = make([]*Label, n)
				for i := range sw.Targets {
					sw.Targets[i] = d.labelAt(pc + int(s4(p+12+4*i)))
				}
				size = p + 12 + 4*int(n) - pc
			} else {
				n := int64(s4(p + 4))
				if n < 0 || int64(p+8)+8*n > int64(len(bc)) {
					return fail(pc, "lookupswitch with %d pairs does not fit the code", n)
				}
				sw.Keys = make([]int32, n)
				sw.Targets = make([]*Label, n)
				for i := range sw.Keys {
					sw.Keys[i] = s4(p + 8 + 8*i)
					sw.Targets[i] = d.labelAt(pc + int(s4(p+12+8*i)))
				}
				size = p + 8 + 8*int(n) - pc
			}
			in.Switch = sw
		}
		if d.r.err != nil {
			return fail(pc, "%v", d.r.err)
		}
		insns = append(insns, in)
		offs = append(offs, pc)
		pc += size
	}
	return insns, offs, nil
}

func (d *codeDecoder) decodeLines(r *reader) {
	n := r.count(4)
	d.code.Lines = slices.Grow(d.code.Lines, n)
	for i := 0; i < n; i++ {
		pc, line := int(r.u2()), r.u2()
		if l := d.validLabel(pc); l != nil {
			d.code.Lines = append(d.code.Lines, LineNumber{Start: l, Line: line})
		}
	}
}

func (d *codeDecoder) decodeLocals(r *reader) []LocalVar {
	n := r.count(10)
	vars := make([]LocalVar, 0, n)
	for i := 0; i < n; i++ {
		start, length := int(r.u2()), int(r.u2())
		v := LocalVar{Name: r.u2(), Desc: r.u2(), Slot: r.u2()}
		v.Start, v.End = d.validLabel(start), d.validLabel(start+length)
		if v.Start != nil && v.End != nil {
			vars = append(vars, v)
		}
	}
	return vars
}

func (d *codeDecoder) decodeTypeAnnotations(r *reader, name uint16) CodeTypeAnnotations {
	ta := CodeTypeAnnotations{Name: name}
	n := r.count(3)
	for i := 0; i < n && r.err == nil; i++ {
		a := CodeTypeAnnotation{TargetType: r.u1()}
		switch a.TargetType {
		case 0x40, 0x41:
			m := r.count(6)
			for j := 0; j < m; j++ {
				start, length, slot := int(r.u2()), int(r.u2()), r.u2()
				a.Ranges = append(a.Ranges, LocalVarRange{Start: d.labelAt(start), End: d.labelAt(start + length), Slot: slot})
			}
		case 0x42: // catch_target: an exception-table index, kept raw
			a.Target = r.bytes(2)
		case 0x43, 0x44, 0x45, 0x46:
			a.At = d.labelAt(int(r.u2()))
		case 0x47, 0x48, 0x49, 0x4A, 0x4B:
			a.At = d.labelAt(int(r.u2()))
			a.TypeArg = r.u1()
		default:
			r.fail("type annotation target 0x%02x cannot appear in a Code attribute", a.TargetType)
			return ta
		}
		start := r.off
		pathLen := int(r.u1())
		r.bytes(2 * pathLen)
		skipAnnotation(r, 0)
		a.Rest = r.b[start:r.off:r.off]
		ta.Annotations = append(ta.Annotations, a)
	}
	return ta
}

// skipAnnotation advances r over one annotation structure (JVMS §4.7.16).
func skipAnnotation(r *reader, depth int) {
	r.u2() // type_index
	n := r.count(3)
	for i := 0; i < n && r.err == nil; i++ {
		r.u2()
		skipElementValue(r, depth+1)
	}
}

func skipElementValue(r *reader, depth int) {
	if depth > 64 {
		r.fail("annotation element values nested too deeply")
		return
	}
	switch tag := r.u1(); tag {
	case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z', 's', 'c':
		r.u2()
	case 'e':
		r.u2()
		r.u2()
	case '@':
		skipAnnotation(r, depth)
	case '[':
		n := r.count(1)
		for i := 0; i < n && r.err == nil; i++ {
			skipElementValue(r, depth+1)
		}
	default:
		r.fail("unknown element_value tag %q", tag)
	}
}

// opSize is the encoded size of each fixed-size opcode (0: invalid or
// variable-size).
var opSize = func() [256]int {
	var s [256]int
	for op := 0; op <= OpJsrW; op++ {
		s[op] = 1
	}
	for _, op := range []int{OpBipush, OpLdc, OpIload, OpLload, OpFload, OpDload, OpAload,
		OpIstore, OpLstore, OpFstore, OpDstore, OpAstore, OpRet, OpNewarray} {
		s[op] = 2
	}
	for _, op := range []int{OpSipush, OpLdcW, OpLdc2W, OpIinc, OpGetstatic, OpPutstatic,
		OpGetfield, OpPutfield, OpInvokevirtual, OpInvokespecial, OpInvokestatic, OpNew,
		OpAnewarray, OpCheckcast, OpInstanceof, OpIfnull, OpIfnonnull} {
		s[op] = 3
	}
	for op := OpIfeq; op <= OpJsr; op++ {
		s[op] = 3
	}
	s[OpMultianewarray] = 4
	s[OpInvokeinterface], s[OpInvokedynamic], s[OpGotoW], s[OpJsrW] = 5, 5, 5, 5
	s[OpTableswitch], s[OpLookupswitch], s[OpWide] = 0, 0, 0
	return s
}()

// OpSize returns the encoded size in bytes, operands included, of an
// instruction with the fixed-size opcode op; it returns 0 for an invalid
// opcode and for the variable-size ones (tableswitch, lookupswitch, wide).
func OpSize(op byte) int { return opSize[op] }
