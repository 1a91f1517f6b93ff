package classfile

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unsafe"
)

// TestInsnSize: instruction lists are the largest memory of weaving the
// JDK; the form (in Const) and the Class entry of a frame's type (in
// VType's padding) cost no bytes.
func TestInsnSize(t *testing.T) {
	if n := unsafe.Sizeof(Insn{}); n != 24 {
		t.Errorf("an Insn is %d bytes, not 24", n)
	}
	if n := unsafe.Sizeof(VType{}); n != 32 {
		t.Errorf("a VType is %d bytes, not 32", n)
	}
}

// formsCode is the bytecode of a Code attribute (at offset 8, as code
// is) that writes every instruction with forms in a form longer than its
// operands need, as some compilers do; k is an Integer entry below 256.
// It is not meant to run.
func formsCode(k uint16) []byte {
	return []byte{
		OpAload, 0, // 0: aload 0, not aload_0 (Groovy writes it)
		OpPop,
		OpWide, OpIload, 0, 5, // 3: wide iload 5
		OpPop,
		OpWide, OpIinc, 0, 1, 0, 1, // 8: wide iinc 1, 1
		OpLdcW, 0, byte(k), // 14: ldc_w of a small index
		OpPop,
		OpWide, OpAload, 0, 0, // 18: wide aload 0
		OpAstore, 3, // 22: astore 3, not astore_3
		OpGotoW, 0, 0, 0, 5, // 24: goto_w 29
		OpIconst0,           // 29
		OpTableswitch, 0xAB, // 30: padding that is not zero
		0, 0, 0, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 18, // 32: default 48, 0..0 → 48
		OpReturn,           // 48
		OpJsrW, 0, 0, 0, 5, // 49: jsr_w 54
		OpWide, OpAstore, 0, 4, // 54: wide astore 4
		OpWide, OpIstore, 1, 44, // 58: wide istore 300 (needs wide)
		OpWide, OpRet, 0, 4, // 62: wide ret 4
	}
}

// formsClass returns java/lang/Object with formsCode as the body of
// <init>.
func formsClass(t *testing.T) []byte {
	return objectWithInit(t, func(p *Pool) []byte {
		k := p.AddInt(123456)
		if k > 255 {
			t.Fatalf("Integer entry %d: not below 256", k)
		}
		code := formsCode(k)
		info := []byte{0, 2, 1, 45, 0, 0, 0, byte(len(code))}
		info = append(info, code...)
		return append(info, 0, 0, 0, 0)
	})
}

// TestRoundTripForms: code written in longer forms than needed comes back
// byte for byte, each instruction's form recorded.
func TestRoundTripForms(t *testing.T) {
	b := formsClass(t)
	checkRoundTrip(t, "java/lang/Object", b)

	c, err := Parse("java/lang/Object", b)
	if err != nil {
		t.Fatal(err)
	}
	code, err := DecodeCode(c, c.FindMethod("<init>", "()V"))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		op    uint16
		index uint16
		form  Form
	}{
		{OpAload, 0, FormOperandByte}, {OpPop, 0, FormShortest},
		{OpIload, 5, FormWide}, {OpPop, 0, FormShortest},
		{OpIinc, 1, FormWide}, {OpLdc, c.Pool.AddInt(123456), FormWide}, {OpPop, 0, FormShortest},
		{OpAload, 0, FormWide}, {OpAstore, 3, FormOperandByte},
		{OpGoto, 0, FormWide}, {OpIconst0, 0, FormShortest}, {OpTableswitch, 0, FormShortest},
		{OpReturn, 0, FormShortest}, {OpJsr, 0, FormWide},
		{OpAstore, 4, FormWide}, {OpIstore, 300, FormShortest}, {OpRet, 4, FormWide},
	}
	i := 0
	for _, in := range code.Insns {
		if in.Op == OpLabel {
			continue
		}
		if i >= len(want) {
			t.Fatalf("more instructions than the %d written", len(want))
		}
		w := want[i]
		if in.Op != w.op || (in.Label == nil && in.Switch == nil && in.Index != w.index) || in.Form() != w.form {
			t.Errorf("instruction %d: %s %d form %d, want %s %d form %d", i, OpNames[in.Op], in.Index, in.Form(), OpNames[w.op], w.index, w.form)
		}
		if in.Op == OpIinc && in.increment() != 1 {
			t.Errorf("wide iinc 1, 1: increment %d (Const %#x)", in.increment(), in.Const)
		}
		i++
	}
	if i != len(want) {
		t.Fatalf("%d instructions, want %d", i, len(want))
	}
}

// TestFormsGiveWay: a recorded form is written only while it holds the
// operands, switch padding only while it has its length (here the
// tableswitch moves from 30 to 29), and instructions built by hand get the
// shortest forms.
func TestFormsGiveWay(t *testing.T) {
	b := formsClass(t)
	c, err := Parse("java/lang/Object", b)
	if err != nil {
		t.Fatal(err)
	}
	m := c.FindMethod("<init>", "()V")
	code, err := DecodeCode(c, m)
	if err != nil {
		t.Fatal(err)
	}
	k := c.Pool.AddInt(123456)
	var insns []Insn
	for _, in := range code.Insns {
		switch {
		case in.Op == OpAload && in.Form() == FormOperandByte:
			in.Index = 300 // aload 0 → wide aload 300
		case in.Op == OpIinc:
			in.Const = int32(int16(in.Const)) // the form dropped: iinc 1, 1
		}
		insns = append(insns, in)
	}
	insns = append(insns, Insn{Op: OpAload}, Insn{Op: OpLdc, Index: k}, Insn{Op: OpIinc, Index: 2, Const: -3})
	code.Insns = insns
	if err := code.Encode(c, m, EncodeOptions{}); err != nil {
		t.Fatal(err)
	}
	got := rawBytecode(c.Attr(m.Attributes, "Code").Info)
	want := formsCode(k)
	want = append(append([]byte{OpWide, OpAload, 1, 44}, want[2:8]...), append([]byte{OpIinc, 1, 1}, want[14:30]...)...)
	want = append(want, OpTableswitch, 0, 0) // at 29: two bytes of padding, zeros
	want = append(want, 0, 0, 0, 19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 19)
	want = append(want, formsCode(k)[48:]...)
	want = append(want, OpAload0, OpLdc, byte(k), OpIinc, 2, 0xFD)
	if !bytes.Equal(got, want) {
		t.Fatalf("encoded\n%x\nwant\n%x", got, want)
	}
}

// TestRoundTripDuplicateClassEntries: a pool may hold two Class entries
// for one name (headius-options's Option, among 71 classes of Debian's
// jars); a frame naming the second is written with the second again.
func TestRoundTripDuplicateClassEntries(t *testing.T) {
	b := objectWithInit(t, func(p *Pool) []byte {
		first := p.AddClass("java/lang/Object")
		p.entries = append(p.entries, Constant{Tag: TagClass, A: p.Get(first).A})
		dup := uint16(len(p.entries) - 1)
		code := []byte{OpAconstNull, OpIfnull, 0, 3, OpReturn} // a frame at 4
		info := []byte{0, 1, 0, 1, 0, 0, 0, byte(len(code))}
		info = append(info, code...)
		info = append(info, 0, 0, 0, 1)
		info = be16(info, p.AddUtf8("StackMapTable"))
		// full_frame at 4: locals [Object (the second entry)], stack [].
		info = append(info, 0, 0, 0, 12, 0, 1, 255, 0, 4, 0, 1, VObject)
		info = be16(info, dup)
		return append(info, 0, 0)
	})
	checkRoundTrip(t, "java/lang/Object", b)
}

// rawBytecode returns the code array of a Code attribute's info, nil if
// the info is too short for its code_length.
func rawBytecode(info []byte) []byte {
	if len(info) < 8 {
		return nil
	}
	n := int(binary.BigEndian.Uint32(info[4:]))
	if n > len(info)-8 || n < 0 {
		return nil
	}
	return info[8 : 8+n]
}
