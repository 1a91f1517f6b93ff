package classfile

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// encodeGen stamps the labels placed by one layout, so that a reference to
// a label that is not in the instruction list is detected.
var encodeGen atomic.Uint64

// Encode writes code back into m's Code attribute, replacing it (or adding
// one). It lays the instructions out, choosing short or wide forms and
// switch padding, and rewrites a conditional branch whose target is out of
// 16-bit reach into the inverted branch over a goto_w. With opts.Frames it
// then recomputes MaxStack, MaxLocals and Frames (see frames.go).
func (code *Code) Encode(c *Class, m *Member, opts EncodeOptions) error {
	info, err := code.assemble(c, m, opts)
	if err != nil {
		return err
	}
	if a := c.Attr(m.Attributes, "Code"); a != nil {
		a.Info = info
		return nil
	}
	m.Attributes = append(m.Attributes, Attribute{Name: c.Pool.AddUtf8("Code"), Info: info})
	return nil
}

// assemble is Encode without writing m: it returns the Code attribute's
// bytes. m gives the method's descriptor and access, for frames and errors.
func (code *Code) assemble(c *Class, m *Member, opts EncodeOptions) ([]byte, error) {
	ls := layouts.Get().(*layoutScratch)
	defer layouts.Put(ls)
	offs, end, err := code.place(c, m, opts, ls)
	if err != nil {
		return nil, err
	}
	return code.emit(c, m, offs, end), nil
}

// place lays the code out and, with opts.Frames, computes its frames
// (Encode's work up to writing the bytes). The offsets are in ls.
func (code *Code) place(c *Class, m *Member, opts EncodeOptions, ls *layoutScratch) (offs []int, end int, err error) {
	name := memberName{c, m} // for errors only: formatted when one occurs
	if opts.Frames && opts.Hierarchy == nil {
		return nil, 0, fmt.Errorf("%s: computing frames needs a class hierarchy", name)
	}
	offs, end, rewrote, err := code.layout(name, ls)
	if err != nil {
		return nil, 0, err
	}
	if rewrote && !opts.Frames && c.Major >= 50 && len(code.Frames) > 0 {
		return nil, 0, fmt.Errorf("%s: a branch was rewritten to goto_w: the frames must be recomputed (EncodeOptions.Frames)", name)
	}
	if opts.Frames {
		// Frame computation may rewrite dead code and insert labels; lay
		// out again until the branch rewriting settles.
		var given []Frame
		kept := 0
		if opts.KeepFrames {
			given, kept = code.Frames, opts.KeptLocals
		}
		for try := 0; ; try++ {
			before := code.Insns
			if err := computeFrames(c, m, code, opts.Hierarchy, given, kept); err != nil {
				return nil, 0, fmt.Errorf("%s: %w", name, err)
			}
			if len(code.Insns) == len(before) && (len(before) == 0 || &code.Insns[0] == &before[0]) {
				break // the instructions are unchanged: so is the layout
			}
			offs, end, rewrote, err = code.layout(name, ls)
			if err != nil {
				return nil, 0, err
			}
			if !rewrote || try == 3 {
				break
			}
		}
	}
	return offs, end, nil
}

// ReencodeCode decodes every method body of c into the code model and
// encodes it again with opts: the round trip `weft classfile rewrite`
// runs. It returns the number of method bodies. Without opts.Frames the
// class's bytes come back unchanged, instruction forms included (the
// round-trip tests check every class of the JDK's image and of 68 Debian
// jars).
func ReencodeCode(c *Class, opts EncodeOptions) (methods int, err error) {
	for _, m := range c.Methods {
		code, err := DecodeCode(c, m)
		if err != nil {
			return methods, err
		}
		if code == nil {
			continue
		}
		if err := code.Encode(c, m, opts); err != nil {
			return methods, err
		}
		methods++
	}
	return methods, nil
}

// CodeTooLargeError is the error of encoding a method whose code would be
// over the JVM's limit of MaxCodeLength bytes.
type CodeTooLargeError struct {
	Method string // as the encoder names it
	Size   int    // bytes
}

func (e *CodeTooLargeError) Error() string {
	return fmt.Sprintf("%s: code is %d bytes, more than the JVM's limit of %d", e.Method, e.Size, MaxCodeLength)
}

// memberName formats as "Class.nameDesc", the prefix of Encode's errors;
// building that string for every method encoded cost more than the errors.
type memberName struct {
	c *Class
	m *Member
}

func (n memberName) String() string {
	return n.c.Name() + "." + n.c.MemberName(n.m) + n.c.MemberDesc(n.m)
}

// insnSize returns the encoded size of in at offset off; long says that a
// goto or jsr needs its 32-bit form.
func insnSize(in *Insn, off int, long bool) int {
	op := in.Op
	switch {
	case op == OpLabel:
		return 0
	case op >= OpIload && op <= OpAload, op >= OpIstore && op <= OpAstore, op == OpRet:
		switch localForm(in) {
		case FormShortest:
			return 1
		case FormOperandByte:
			return 2
		}
		return 4
	case op == OpIinc:
		if iincWide(in) {
			return 6
		}
		return 3
	case op == OpLdc:
		if in.Index > 255 || in.form() == FormWide {
			return 3
		}
		return 2
	case op == OpGoto, op == OpJsr:
		if long || in.form() == FormWide {
			return 5
		}
		return 3
	case op == OpTableswitch:
		return 1 + (3 - off%4) + 12 + 4*len(in.Switch.Targets)
	case op == OpLookupswitch:
		return 1 + (3 - off%4) + 8 + 8*len(in.Switch.Keys)
	}
	return opSize[op]
}

// localForm returns the form an xload, xstore or ret is written in: the
// one recorded unless the slot needs a longer one. FormShortest is
// xload_n, FormOperandByte the form with an operand byte.
func localForm(in *Insn) Form {
	f := in.form()
	switch {
	case f == FormWide || in.Index > 255:
		return FormWide
	case in.Index > 3 || f == FormOperandByte || in.Op == OpRet:
		return FormOperandByte
	}
	return FormShortest
}

// iincWide reports whether an iinc is written with the wide prefix.
func iincWide(in *Insn) bool {
	inc := in.increment()
	return in.Index > 255 || inc < -128 || inc > 127 || in.form() == FormWide
}

// isJump reports whether op is a branch with a single label operand.
func isJump(op uint16) bool {
	return op >= OpIfeq && op <= OpJsr || op == OpIfnull || op == OpIfnonnull
}

// invertBranch returns the conditional branch with the opposite condition.
func invertBranch(op uint16) uint16 {
	if op == OpIfnull {
		return OpIfnonnull
	} else if op == OpIfnonnull {
		return OpIfnull
	}
	return (op - OpIfeq) ^ 1 + OpIfeq
}

// layoutScratch holds layout's per-instruction tables, reused across
// Encode calls: they are dead once the attribute is written, and fresh
// ones for every method were a tenth of what weaving the JDK allocated.
type layoutScratch struct {
	offs []int
	long []bool
}

var layouts = sync.Pool{New: func() any { return new(layoutScratch) }}

// layout assigns an offset to every instruction and label. It returns the
// offsets (in ls, valid until ls is reused), the code length, and whether
// it rewrote a conditional branch.
func (code *Code) layout(name memberName, ls *layoutScratch) (offs []int, end int, rewrote bool, err error) {
	for {
		gen := encodeGen.Add(1)
		n := len(code.Insns)
		if cap(ls.offs) < n {
			ls.offs, ls.long = make([]int, n+n/4), make([]bool, n+n/4)
		}
		offs = ls.offs[:n] // every entry is set before it is read
		long := ls.long[:n]
		clear(long)
		for {
			off := 0
			for i := range code.Insns {
				in := &code.Insns[i]
				offs[i] = off
				if in.Op == OpLabel {
					if in.Label == nil {
						return nil, 0, false, fmt.Errorf("%s: instruction %d: label placement without a label", name, i)
					}
					in.Label.Offset = off
					in.Label.gen = gen
					continue
				}
				if in.Op > OpJsrW || (opSize[in.Op] == 0 && in.Op != OpTableswitch && in.Op != OpLookupswitch) {
					return nil, 0, false, fmt.Errorf("%s: instruction %d: invalid opcode %d", name, i, in.Op)
				}
				if (in.Op == OpTableswitch || in.Op == OpLookupswitch) && in.Switch == nil {
					return nil, 0, false, fmt.Errorf("%s: instruction %d: %s without a switch table", name, i, OpNames[in.Op])
				}
				off += insnSize(in, off, long[i])
			}
			end = off
			changed, rewriteAt := false, -1
			for i := range code.Insns {
				in := &code.Insns[i]
				if !isJump(in.Op) || long[i] {
					continue
				}
				if in.form() == FormWide && (in.Op == OpGoto || in.Op == OpJsr) {
					continue // goto_w or jsr_w already
				}
				if in.Label == nil || in.Label.gen != gen {
					return nil, 0, false, fmt.Errorf("%s: instruction %d (%s) jumps to a label that is not placed", name, i, OpNames[in.Op])
				}
				if d := in.Label.Offset - offs[i]; d >= -32768 && d <= 32767 {
					continue
				}
				if in.Op == OpGoto || in.Op == OpJsr {
					long[i], changed = true, true
				} else {
					rewriteAt = i
					break
				}
			}
			if rewriteAt >= 0 {
				// ifXX far  →  ifNOTXX skip; goto_w far; skip:
				in := code.Insns[rewriteAt]
				skip := NewLabel()
				code.Insns = append(code.Insns[:rewriteAt+1], append([]Insn{
					{Op: OpGoto, Label: in.Label},
					{Op: OpLabel, Label: skip},
				}, code.Insns[rewriteAt+1:]...)...)
				code.Insns[rewriteAt] = Insn{Op: invertBranch(in.Op), Label: skip}
				rewrote = true
				break // restart with fresh offsets
			}
			if !changed {
				if end > MaxCodeLength {
					return nil, 0, false, &CodeTooLargeError{Method: name.String(), Size: end}
				}
				if err := code.checkLabels(name, gen); err != nil {
					return nil, 0, false, err
				}
				code.gen = gen
				return offs, end, rewrote, nil
			}
		}
	}
}

// checkLabels verifies that switch targets and exception handlers refer
// to placed labels.
func (code *Code) checkLabels(name memberName, gen uint64) error {
	placed := func(l *Label) bool { return l != nil && l.gen == gen }
	for i := range code.Insns {
		if sw := code.Insns[i].Switch; sw != nil {
			ok := placed(sw.Default)
			for _, t := range sw.Targets {
				ok = ok && placed(t)
			}
			if !ok {
				return fmt.Errorf("%s: instruction %d: switch target is not placed", name, i)
			}
			if code.Insns[i].Op == OpTableswitch && int64(sw.High)-int64(sw.Low)+1 != int64(len(sw.Targets)) {
				return fmt.Errorf("%s: instruction %d: tableswitch %d..%d has %d targets", name, i, sw.Low, sw.High, len(sw.Targets))
			}
			if code.Insns[i].Op == OpLookupswitch && len(sw.Keys) != len(sw.Targets) {
				return fmt.Errorf("%s: instruction %d: lookupswitch has %d keys and %d targets", name, i, len(sw.Keys), len(sw.Targets))
			}
		}
	}
	for i, h := range code.Handlers {
		if !placed(h.Start) || !placed(h.End) || !placed(h.Handler) {
			return fmt.Errorf("%s: exception handler %d refers to a label that is not placed", name, i)
		}
	}
	for _, f := range code.Frames {
		if !placed(f.At) {
			return fmt.Errorf("%s: a frame is at a label that is not placed", name)
		}
	}
	return nil
}

// emit writes the Code attribute's bytes for the laid-out instructions.
func (code *Code) emit(c *Class, m *Member, offs []int, end int) []byte {
	p := c.Pool
	size := 8 + end + 2 + 8*len(code.Handlers) + 2 + 10 + 4*len(code.Lines) +
		12 + 10*(len(code.Locals)+len(code.LocalTypes)) + 8 + 12*len(code.Frames)
	for _, a := range code.Attributes {
		size += 6 + len(a.Info)
	}
	b := make([]byte, 0, size)
	b = be16(b, code.MaxStack)
	b = be16(b, code.MaxLocals)
	b = be32(b, uint32(end))
	b = code.appendBytecode(b, p, offs)

	var handlers []Handler
	for _, h := range code.Handlers {
		if h.Start.Offset < h.End.Offset {
			handlers = append(handlers, h)
		}
	}
	b = be16(b, uint16(len(handlers)))
	for _, h := range handlers {
		b = be16(b, uint16(h.Start.Offset))
		b = be16(b, uint16(h.End.Offset))
		b = be16(b, uint16(h.Handler.Offset))
		b = be16(b, h.CatchType)
	}

	return code.appendAttributes(b, c, m, end)
}

// appendBytecode appends the laid-out instructions (offs are their
// offsets, which also give switch padding) to b.
func (code *Code) appendBytecode(b []byte, p *Pool, offs []int) []byte {
	for i := range code.Insns {
		in := &code.Insns[i]
		off := offs[i]
		op := in.Op
		switch {
		case op == OpLabel:
		case op >= OpIload && op <= OpAload, op >= OpIstore && op <= OpAstore, op == OpRet:
			switch localForm(in) {
			case FormShortest:
				base := uint16(OpIload0)
				if op >= OpIstore {
					base = OpIstore0
					op -= OpIstore
				} else {
					op -= OpIload
				}
				b = append(b, byte(base+op*4+in.Index))
			case FormOperandByte:
				b = append(b, byte(op), byte(in.Index))
			default:
				b = append(b, OpWide, byte(op))
				b = be16(b, in.Index)
			}
		case op == OpIinc:
			if iincWide(in) {
				b = append(b, OpWide, OpIinc)
				b = be16(b, in.Index)
				b = be16(b, uint16(int16(in.increment())))
			} else {
				b = append(b, OpIinc, byte(in.Index), byte(int8(in.increment())))
			}
		case op == OpLdc:
			if in.Index > 255 || in.form() == FormWide {
				b = append(b, OpLdcW)
				b = be16(b, in.Index)
			} else {
				b = append(b, OpLdc, byte(in.Index))
			}
		case op == OpBipush, op == OpNewarray:
			b = append(b, byte(op), byte(in.Const))
		case op == OpSipush:
			b = append(b, byte(op))
			b = be16(b, uint16(int16(in.Const)))
		case isJump(op):
			d := in.Label.Offset - off
			if (op == OpGoto || op == OpJsr) && (d < -32768 || d > 32767 || in.form() == FormWide) {
				if op == OpGoto {
					b = append(b, OpGotoW)
				} else {
					b = append(b, OpJsrW)
				}
				b = be32(b, uint32(int32(d)))
			} else {
				b = append(b, byte(op))
				b = be16(b, uint16(int16(d)))
			}
		case op == OpTableswitch, op == OpLookupswitch:
			sw := in.Switch
			b = append(b, byte(op))
			if pad := 3 - off%4; len(sw.pad) == pad {
				b = append(b, sw.pad...) // the decoded padding, not zeros
			} else {
				b = append(b, make([]byte, pad)...)
			}
			b = be32(b, uint32(int32(sw.Default.Offset-off)))
			if op == OpTableswitch {
				b = be32(b, uint32(sw.Low))
				b = be32(b, uint32(sw.High))
				for _, t := range sw.Targets {
					b = be32(b, uint32(int32(t.Offset-off)))
				}
			} else {
				b = be32(b, uint32(len(sw.Keys)))
				for k, key := range sw.Keys {
					b = be32(b, uint32(key))
					b = be32(b, uint32(int32(sw.Targets[k].Offset-off)))
				}
			}
		case op == OpInvokeinterface:
			_, _, desc := p.MemberRef(in.Index)
			b = append(b, byte(op))
			b = be16(b, in.Index)
			b = append(b, byte(1+ArgSlots(desc)), 0)
		case op == OpInvokedynamic:
			b = append(b, byte(op))
			b = be16(b, in.Index)
			b = append(b, 0, 0)
		case op == OpMultianewarray:
			b = append(b, byte(op))
			b = be16(b, in.Index)
			b = append(b, byte(in.Const))
		case opSize[op] == 3: // ldc2_w, field, method, class operands
			b = append(b, byte(op))
			b = be16(b, in.Index)
		default:
			b = append(b, byte(op))
		}
	}
	return b
}

// appendAttributes appends the Code attribute's attributes: those the
// decoded Code had in their order, then tables and attributes added since.
func (code *Code) appendAttributes(b []byte, c *Class, m *Member, end int) []byte {
	w := codeAttrWriter{code: code, c: c, m: m, end: end, b: b}
	countAt := len(w.b)
	w.b = be16(w.b, 0)
	var written [nTables]bool
	ta, other := 0, 0
	for _, kind := range code.attrs.order {
		switch {
		case kind < nTables:
			if !written[kind] && w.has(kind) {
				w.table(kind)
			}
			written[kind] = true // merged: tables split over several attributes come back as one
		case kind == attrTypeAnnotations && ta < len(code.TypeAnnotations):
			w.typeAnnotations(&code.TypeAnnotations[ta])
			ta++
		case kind == attrOther && other < len(code.Attributes):
			w.raw(&code.Attributes[other])
			other++
		}
	}
	for kind := range nTables {
		if !written[kind] && w.has(kind) {
			w.table(kind)
		}
	}
	for ; ta < len(code.TypeAnnotations); ta++ {
		w.typeAnnotations(&code.TypeAnnotations[ta])
	}
	for ; other < len(code.Attributes); other++ {
		w.raw(&code.Attributes[other])
	}
	w.b[countAt], w.b[countAt+1] = byte(w.n>>8), byte(w.n)
	return w.b
}

// codeAttrWriter appends the attributes of one Code attribute.
type codeAttrWriter struct {
	code *Code
	c    *Class
	m    *Member
	end  int // code length
	b    []byte
	n    int // attributes written
}

// has reports whether the table of the kind is to be written: it has
// entries, or the decoded Code had it.
func (w *codeAttrWriter) has(kind codeAttrKind) bool {
	code := w.code
	if code.attrs.names[kind] != 0 && (kind != attrStackMap || w.c.Major >= 50) {
		return true
	}
	switch kind {
	case attrLines:
		return len(code.Lines) > 0
	case attrLocals:
		return len(code.Locals) > 0
	case attrLocalTypes:
		return len(code.LocalTypes) > 0
	default:
		return w.c.Major >= 50 && len(code.Frames) > 0
	}
}

// tableNames are the attribute names of the tables, by kind.
var tableNames = [nTables]string{"LineNumberTable", "LocalVariableTable", "LocalVariableTypeTable", "StackMapTable"}

// table appends the table of the kind. Entries whose labels are no longer
// placed (their instructions were removed) are dropped.
func (w *codeAttrWriter) table(kind codeAttrKind) {
	code := w.code
	name := code.attrs.names[kind]
	if name == 0 || w.c.Pool.Utf8(name) != tableNames[kind] {
		name = w.c.Pool.AddUtf8(tableNames[kind])
	}
	w.b = be16(w.b, name)
	at := len(w.b)
	w.b = be32(w.b, 0)
	switch kind {
	case attrLines:
		w.lines()
	case attrLocals:
		w.locals(code.Locals)
	case attrLocalTypes:
		w.locals(code.LocalTypes)
	case attrStackMap:
		w.b = appendStackMap(w.b, w.c.Pool, code.Frames, InitialLocals(w.c, w.m))
	}
	w.endAttr(at)
}

// endAttr sets the length of the attribute whose length field is at at.
func (w *codeAttrWriter) endAttr(at int) {
	n := len(w.b) - at - 4
	w.b[at], w.b[at+1], w.b[at+2], w.b[at+3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	w.n++
}

func (w *codeAttrWriter) placed(l *Label) bool { return l != nil && l.gen == w.code.gen }

func (w *codeAttrWriter) lines() {
	at := len(w.b)
	w.b = be16(w.b, 0)
	n := 0
	for _, ln := range w.code.Lines {
		if w.placed(ln.Start) && ln.Start.Offset < w.end {
			w.b = be16(w.b, uint16(ln.Start.Offset))
			w.b = be16(w.b, ln.Line)
			n++
		}
	}
	w.b[at], w.b[at+1] = byte(n>>8), byte(n)
}

func (w *codeAttrWriter) locals(vars []LocalVar) {
	at := len(w.b)
	w.b = be16(w.b, 0)
	n := 0
	for _, v := range vars {
		if w.placed(v.Start) && w.placed(v.End) && v.Start.Offset <= v.End.Offset {
			w.b = be16(w.b, uint16(v.Start.Offset))
			w.b = be16(w.b, uint16(v.End.Offset-v.Start.Offset))
			w.b = be16(w.b, v.Name)
			w.b = be16(w.b, v.Desc)
			w.b = be16(w.b, v.Slot)
			n++
		}
	}
	w.b[at], w.b[at+1] = byte(n>>8), byte(n)
}

func (w *codeAttrWriter) typeAnnotations(ta *CodeTypeAnnotations) {
	w.b = be16(w.b, ta.Name)
	at := len(w.b)
	w.b = be32(w.b, 0)
	w.b = be16(w.b, uint16(len(ta.Annotations)))
	for _, a := range ta.Annotations {
		w.b = append(w.b, a.TargetType)
		switch {
		case a.Ranges != nil || a.TargetType == 0x40 || a.TargetType == 0x41:
			w.b = be16(w.b, uint16(len(a.Ranges)))
			for _, r := range a.Ranges {
				w.b = be16(w.b, uint16(r.Start.Offset))
				w.b = be16(w.b, uint16(r.End.Offset-r.Start.Offset))
				w.b = be16(w.b, r.Slot)
			}
		case a.At != nil:
			w.b = be16(w.b, uint16(a.At.Offset))
			if a.TargetType >= 0x47 {
				w.b = append(w.b, a.TypeArg)
			}
		default:
			w.b = append(w.b, a.Target...)
		}
		w.b = append(w.b, a.Rest...)
	}
	w.endAttr(at)
}

func (w *codeAttrWriter) raw(a *Attribute) {
	w.b = be16(w.b, a.Name)
	w.b = be32(w.b, uint32(len(a.Info)))
	w.b = append(w.b, a.Info...)
	w.n++
}
