package jdk

import (
	"fmt"
	"sync/atomic"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// EntryHook is a minimal hand-written transformation, independent of the
// aspect weaver: at the entry of every method with code it inserts
//
//	if (weft.rt.BIB.ready) Owner.Name(id);   // id: int, unique per method
//
// It exists to exercise the JDK-mode scheme (Thread and System patches,
// --patch-module, advice on the boot class path, -Xverify:all) over whole
// modules on its own; the hook method must do its own DIB guarding. Its
// only branch target is the method's entry state, so it needs no frame
// computation.
type EntryHook struct {
	Owner, Name string // a static (I)V method
	nextID      atomic.Int32
	// Exclude, if set, names methods left alone.
	Exclude func(class, method, desc string) bool
	// OnID, if set, is told each method's id (it may be called
	// concurrently).
	OnID func(class, method string, id int32)
}

// WeaveClass implements ClassWeaver.
func (h *EntryHook) WeaveClass(name string, data []byte) (*Woven, error) {
	c, err := classfile.Parse(name, data)
	if err != nil {
		return nil, err
	}
	res := &Woven{}
	cname := c.Name()
	if c.Access&classfile.AccModule != 0 || hasPrefix(cname, rtnames.NamespacePrefix) {
		return res, nil
	}
	p := c.Pool
	var ready, hook uint16
	for _, m := range c.Methods {
		mname, mdesc := c.MemberName(m), c.MemberDesc(m)
		if h.Exclude != nil && h.Exclude(cname, mname, mdesc) {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s.%s%s left unwoven: %v", cname, mname, mdesc, err))
			continue
		}
		if code == nil {
			continue
		}
		if ready == 0 {
			ready = p.AddFieldref(rtnames.BIBReady.Owner, rtnames.BIBReady.Name, rtnames.BIBReady.Desc)
			hook = p.AddMethodref(h.Owner, h.Name, "(I)V", false)
		}
		id := h.nextID.Add(1) - 1
		skip := classfile.NewLabel()
		if len(code.Insns) > 0 && code.Insns[0].Op == classfile.OpLabel {
			skip = code.Insns[0].Label // a jump target already: reuse it
		}
		entry := []classfile.Insn{
			{Op: classfile.OpGetstatic, Index: ready},
			{Op: classfile.OpIfeq, Label: skip},
			{Op: classfile.OpLdc, Index: p.AddInt(id)},
			{Op: classfile.OpInvokestatic, Index: hook},
		}
		if skip != code.Insns[0].Label {
			entry = append(entry, classfile.Insn{Op: classfile.OpLabel, Label: skip})
		}
		hasFrame := false
		for _, f := range code.Frames {
			hasFrame = hasFrame || f.At == skip
		}
		if c.Major >= 50 && !hasFrame {
			code.Frames = append([]classfile.Frame{{At: skip, Locals: classfile.InitialLocals(c, m)}}, code.Frames...)
		}
		code.Insns = append(entry, code.Insns...)
		if code.MaxStack < 1 {
			code.MaxStack = 1
		}
		saved := m.Attributes
		m.Attributes = append([]classfile.Attribute(nil), m.Attributes...)
		if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
			m.Attributes = saved
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s.%s%s left unwoven: %v", cname, mname, mdesc, err))
			continue
		}
		if h.OnID != nil {
			h.OnID(cname, mname+mdesc, id)
		}
		res.MethodsWoven++
		res.Methods = append(res.Methods, mname+mdesc)
	}
	if res.MethodsWoven > 0 {
		res.Class = c.Bytes()
	}
	return res, nil
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
