package classfile

import "slices"

// This file converts between the StackMapTable attribute (JVMS §4.7.4) and
// the expanded frames of the code model.

// InitialLocals returns the locals of the implicit first frame of method m:
// `this` (uninitializedThis in a constructor other than Object's) and the
// parameters, one entry per value.
func InitialLocals(c *Class, m *Member) []VType {
	return appendInitialLocals(make([]VType, 0, 8), c, m)
}

// appendInitialLocals appends InitialLocals(c, m) to locals.
func appendInitialLocals(locals []VType, c *Class, m *Member) []VType {
	desc := c.MemberDesc(m)
	if m.Access&AccStatic == 0 {
		if c.MemberName(m) == "<init>" && c.Name() != "java/lang/Object" {
			locals = append(locals, VType{Kind: VUninitializedThis})
		} else {
			locals = append(locals, VType{Kind: VObject, Class: c.Name()})
		}
	}
	for i := 1; ; {
		t, next := nextParam(desc, i)
		if t == "" { // the end, or a malformed parameter: stop there
			return locals
		}
		locals = append(locals, t.VType())
		i = next
	}
}

// decodeStackMap expands a StackMapTable into full frames.
func (d *codeDecoder) decodeStackMap(r *reader) ([]Frame, error) {
	n := r.count(1)
	frames := make([]Frame, 0, n)
	locals := InitialLocals(d.c, d.member)
	vtype := func(r *reader) VType { return readVType(r, d.c.Pool, d.validLabel) }
	off := -1
	for i := 0; i < n && r.err == nil; i++ {
		at := r.off
		delta, f := readFrame(r, locals, vtype)
		if r.err != nil {
			break
		}
		locals = f.Locals
		off += delta + 1
		l := d.validLabel(off)
		if l == nil || off >= d.codeLen {
			r.off = at
			return nil, r.fail("frame %d at offset %d is not at an instruction", i, off)
		}
		f.At = l
		frames = append(frames, f)
	}
	if r.err == nil && r.off != len(r.b) {
		return nil, r.fail("%d bytes of trailing data", len(r.b)-r.off)
	}
	return frames, r.err
}

// readFrame reads one StackMapTable entry, whose previous frame had the
// given locals, and returns its offset delta and the frame, without At.
// vtype reads one verification type. Errors are left in r.
func readFrame(r *reader, locals []VType, vtype func(*reader) VType) (delta int, f Frame) {
	at := r.off
	typ := int(r.u1())
	var stack []VType
	form := formShortest
	switch {
	case typ < 64:
		delta = typ
	case typ < 128:
		delta = typ - 64
		stack = []VType{vtype(r)}
	case typ < 247:
		r.off = at
		r.fail("reserved frame type %d", typ)
	case typ == 247:
		delta = int(r.u2())
		stack = []VType{vtype(r)}
		form = formSame1Extended
	case typ < 251: // chop
		delta = int(r.u2())
		k := 251 - typ
		if k > len(locals) {
			r.off = at
			r.fail("chop_frame removes %d of %d locals", k, len(locals))
			break
		}
		locals = locals[: len(locals)-k : len(locals)-k]
	case typ == 251:
		delta = int(r.u2())
		form = formSameExtended
	case typ < 255: // append
		delta = int(r.u2())
		for k := typ - 251; k > 0; k-- {
			locals = append(locals, vtype(r))
		}
	default: // full
		delta = int(r.u2())
		form = formFull
		nl := r.count(1)
		locals = make([]VType, nl)
		for j := range locals {
			locals[j] = vtype(r)
		}
		ns := r.count(1)
		stack = make([]VType, ns)
		for j := range stack {
			stack[j] = vtype(r)
		}
	}
	return delta, Frame{Locals: locals, Stack: stack, form: form}
}

// readVType reads a verification type; label gives the label of a `new`
// instruction's offset (nil: not an instruction).
func readVType(r *reader, p *Pool, label func(off int) *Label) VType {
	t := VType{Kind: r.u1()}
	switch t.Kind {
	case VTop, VInteger, VFloat, VDouble, VLong, VNull, VUninitializedThis:
	case VObject:
		i := r.u2()
		t.Class, t.index = p.ClassName(i), i
		if t.Class == "" && r.err == nil {
			r.off -= 2
			r.fail("verification type names constant %d, not a class", i)
		}
	case VUninitialized:
		off := int(r.u2())
		t.New = label(off)
		if t.New == nil && r.err == nil {
			r.off -= 2
			r.fail("uninitialized(%d) is not at an instruction", off)
		}
	default:
		r.off--
		r.fail("unknown verification type tag %d", t.Kind)
	}
	return t
}

// uninitializedOffsets calls f with the position in b of the `new` offset
// of each uninitialized type in the n StackMapTable entries that make up
// b. It reports false if b is not n well-formed entries.
func uninitializedOffsets(b []byte, n int, f func(at int)) bool {
	p := 0
	vtypes := func(k int) bool {
		for ; k > 0; k-- {
			if p >= len(b) {
				return false
			}
			tag := b[p]
			p++
			switch {
			case tag == VObject:
				p += 2
			case tag == VUninitialized:
				if p+2 > len(b) {
					return false
				}
				f(p)
				p += 2
			case tag > VUninitialized:
				return false
			}
		}
		return p <= len(b)
	}
	count := func() int {
		if p+2 > len(b) {
			return -1
		}
		p += 2
		return int(b[p-2])<<8 | int(b[p-1])
	}
	for i := 0; i < n; i++ {
		if p >= len(b) {
			return false
		}
		typ := int(b[p])
		p++
		ok := true
		switch {
		case typ < 64:
		case typ < 128:
			ok = vtypes(1)
		case typ < 247:
			return false
		case typ == 247:
			p += 2
			ok = vtypes(1)
		case typ < 252: // chop, same_frame_extended
			p += 2
		case typ < 255: // append
			p += 2
			ok = vtypes(typ - 251)
		default: // full
			p += 2
			nl := count()
			ok = nl >= 0 && vtypes(nl)
			if ok {
				ns := count()
				ok = ns >= 0 && vtypes(ns)
			}
		}
		if !ok || p > len(b) {
			return false
		}
	}
	return p == len(b)
}

// appendStackMap appends frames (whose labels have offsets) to b as a
// StackMapTable, choosing the compressed frame forms unless a decoded
// frame's own form still fits it (see frameForm). locals0 is the implicit
// initial frame. Frames at an offset already written are skipped.
func appendStackMap(b []byte, p *Pool, frames []Frame, locals0 []VType) []byte {
	countAt := len(b)
	b = append(slices.Grow(b, 2+8*len(frames)), 0, 0)
	prevLocals := locals0
	prev := -1
	count := 0
	for i := range frames {
		f := &frames[i]
		off := f.At.Offset
		if off <= prev {
			continue
		}
		delta := off - prev - 1
		prev = off
		count++
		k := len(f.Locals) - len(prevLocals)
		switch {
		case f.form == formFull:
			b = appendFullFrame(b, p, f, delta)
		case len(f.Stack) == 0 && k == 0 && sameVTypes(f.Locals, prevLocals):
			if delta < 64 && f.form != formSameExtended {
				b = append(b, byte(delta))
			} else {
				b = append(b, 251)
				b = be16(b, uint16(delta))
			}
		case len(f.Stack) == 1 && k == 0 && sameVTypes(f.Locals, prevLocals):
			if delta < 64 && f.form != formSame1Extended {
				b = append(b, byte(64+delta))
			} else {
				b = append(b, 247)
				b = be16(b, uint16(delta))
			}
			b = appendVType(b, p, f.Stack[0])
		case len(f.Stack) == 0 && k < 0 && k >= -3 && sameVTypes(f.Locals, prevLocals[:len(f.Locals)]):
			b = append(b, byte(251+k))
			b = be16(b, uint16(delta))
		case len(f.Stack) == 0 && k > 0 && k <= 3 && sameVTypes(f.Locals[:len(prevLocals)], prevLocals):
			b = append(b, byte(251+k))
			b = be16(b, uint16(delta))
			for _, t := range f.Locals[len(prevLocals):] {
				b = appendVType(b, p, t)
			}
		default:
			b = appendFullFrame(b, p, f, delta)
		}
		prevLocals = f.Locals
	}
	b[countAt], b[countAt+1] = byte(count>>8), byte(count)
	return b
}

func appendFullFrame(b []byte, p *Pool, f *Frame, delta int) []byte {
	b = append(b, 255)
	b = be16(b, uint16(delta))
	b = be16(b, uint16(len(f.Locals)))
	for _, t := range f.Locals {
		b = appendVType(b, p, t)
	}
	b = be16(b, uint16(len(f.Stack)))
	for _, t := range f.Stack {
		b = appendVType(b, p, t)
	}
	return b
}

func sameVTypes(a, b []VType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Class != b[i].Class || a[i].New != b[i].New {
			return false
		}
	}
	return true
}

func appendVType(b []byte, p *Pool, t VType) []byte {
	b = append(b, t.Kind)
	switch t.Kind {
	case VObject:
		i := t.index
		if i == 0 || p.ClassName(i) != t.Class {
			i = p.classIndex(t.Class)
		}
		b = be16(b, i)
	case VUninitialized:
		b = be16(b, uint16(t.New.Offset))
	}
	return b
}
