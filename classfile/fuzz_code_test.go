package classfile

import (
	"errors"
	"testing"
)

// codeFuzzClasses are the JDK classes whose methods seed FuzzDecodeCode:
// switches, wide locals, exception handlers, rich stack map frames,
// invokedynamic and type annotations between them.
var codeFuzzClasses = []string{
	"java/lang/Integer", "java/util/HashMap", "java/util/regex/Pattern$CharPropertyGreedy",
	"java/lang/invoke/StringConcatFactory", "java/util/concurrent/ConcurrentHashMap$TreeBin",
	"jdk/internal/math/FloatingDecimal", "java/lang/Character",
}

// FuzzDecodeCode mutates the Code attribute of real methods. DecodeCode
// must not panic, and its errors must be *FormatError naming the class and
// method with an offset inside the attribute; code it accepts must encode
// (without frame recomputation) without panicking and, if Encode accepts
// it, decode again to the same instructions. PrependCode and
// SelfContained must not panic on it either, and what PrependCode keeps
// must decode.
func FuzzDecodeCode(f *testing.F) {
	src := jdkSource(f)
	var classes [][]byte
	for _, name := range codeFuzzClasses {
		b, err := src.Class(name)
		if err != nil {
			f.Fatal(err)
		}
		c, err := Parse(name, b)
		if err != nil {
			f.Fatal(err)
		}
		ci := uint8(len(classes))
		classes = append(classes, b)
		for mi, m := range c.Methods {
			if a := c.Attr(m.Attributes, "Code"); a != nil {
				f.Add(ci, uint16(mi), a.Info)
			}
		}
	}
	// Forms longer than the operands need and switch padding that is
	// not zero (form_test.go), which the decoder records.
	lookup := []byte{OpIconst0, OpLookupswitch, 0xFF, 0xFF, 0, 0, 0, 19, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 19, OpReturn}
	for _, code := range [][]byte{formsCode(1), lookup} {
		info := append([]byte{0, 2, 1, 45, 0, 0, 0, byte(len(code))}, code...)
		f.Add(uint8(0), uint16(0), append(info, 0, 0, 0, 0))
	}
	f.Fuzz(func(t *testing.T, ci uint8, mi uint16, info []byte) {
		b := classes[int(ci)%len(classes)]
		c, err := Parse("", b) // a fresh copy: Encode adds constants
		if err != nil {
			t.Fatal(err)
		}
		m := c.Methods[int(mi)%len(c.Methods)]
		codeName := c.Pool.AddUtf8("Code")
		attrs := []Attribute{{Name: codeName, Info: info}}
		for _, a := range m.Attributes {
			if a.Name != codeName {
				attrs = append(attrs, a)
			}
		}
		m.Attributes = attrs
		where := c.Name() + "." + c.MemberName(m) + c.MemberDesc(m)
		SelfContained(c, m) // reads the raw bytes: must not panic on any

		// PrependCode must not panic, whatever the attribute; what it
		// accepts must decode if the original did.
		pc, err := Parse("", b)
		if err != nil {
			t.Fatal(err)
		}
		pm := pc.Methods[int(mi)%len(pc.Methods)]
		pm.Attributes = append([]Attribute(nil), attrs...)
		kept, _, _, _ := prependToken(pc, pm, testHierarchy)

		code, err := DecodeCode(c, m)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%s: error %v (%T) is no *FormatError", where, err, err)
			}
			if len(fe.Class) < len(where) || fe.Class[:len(where)] != where {
				t.Fatalf("error does not name %s: %v", where, err)
			}
			if fe.Offset < 0 || fe.Offset > len(info) {
				t.Fatalf("%s: error offset %d outside the %d-byte attribute: %v", where, fe.Offset, len(info), err)
			}
			return
		}
		if code == nil {
			t.Fatalf("%s: DecodeCode found no Code attribute", where)
		}
		if kept {
			if _, err := DecodeCode(pc, pm); err != nil {
				t.Fatalf("%s: decoding the code PrependCode kept: %v", where, err)
			}
		}
		var ops []Insn
		for _, in := range code.Insns {
			if in.Op != OpLabel {
				ops = append(ops, in)
			}
		}
		if err := code.Encode(c, m, EncodeOptions{}); err != nil {
			return // e.g. frames at offsets the new layout cannot hold
		}
		again, err := DecodeCode(c, m)
		if err != nil {
			t.Fatalf("%s: decoding the re-encoded code: %v", where, err)
		}
		i := 0
		for _, in := range again.Insns {
			if in.Op == OpLabel {
				continue
			}
			if i >= len(ops) || in.Op != ops[i].Op || in.Index != ops[i].Index || in.Const != ops[i].Const {
				t.Fatalf("%s: instruction %d changed by encode+decode: %+v", where, i, in)
			}
			i++
		}
		if i != len(ops) {
			t.Fatalf("%s: %d instructions became %d", where, len(ops), i)
		}
	})
}
