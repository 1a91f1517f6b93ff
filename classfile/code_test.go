package classfile

import (
	"bytes"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestCodeRoundTripJDK decodes and re-encodes (keeping the decoded frames)
// every method of java.base and checks that the result decodes again to the
// same instructions, and that most methods come back byte-identical (javac's
// encodings are the shortest ones the encoder also picks).
func TestCodeRoundTripJDK(t *testing.T) {
	src, err := OpenJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var methods, identical int
	err = src.Walk(func(e ClassEntry) error {
		b, err := e.Read()
		if err != nil {
			return err
		}
		c, err := Parse(e.Path, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil {
				t.Fatal(err)
			}
			if code == nil {
				continue
			}
			methods++
			orig := append([]byte(nil), c.Attr(m.Attributes, "Code").Info...)
			n := len(code.Insns)
			if err := code.Encode(c, m, EncodeOptions{}); err != nil {
				t.Fatal(err)
			}
			got := c.Attr(m.Attributes, "Code").Info
			if bytes.Equal(orig, got) {
				identical++
				continue
			}
			again, err := DecodeCode(c, m)
			if err != nil {
				t.Fatalf("%s.%s: re-decode: %v", c.Name(), c.MemberName(m), err)
			}
			if len(again.Insns) != n || len(again.Frames) != len(code.Frames) {
				t.Fatalf("%s.%s: %d insns/%d frames became %d/%d", c.Name(), c.MemberName(m), n, len(code.Frames), len(again.Insns), len(again.Frames))
			}
			for i, f := range code.Frames {
				g := again.Frames[i]
				if f.At.Offset != g.At.Offset || !sameFrameTypes(f.Locals, g.Locals) || !sameFrameTypes(f.Stack, g.Stack) {
					t.Fatalf("%s.%s: frame %d changed: %+v became %+v", c.Name(), c.MemberName(m), i, f, g)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d methods, %d byte-identical after decode+encode", methods, identical)
	if methods < 10000 || identical < methods*9/10 {
		t.Errorf("only %d of %d methods byte-identical", identical, methods)
	}
}

// sameFrameTypes compares verification types across two decodings (labels
// differ, their offsets must not).
func sameFrameTypes(a, b []VType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Class != b[i].Class ||
			(a[i].New != nil) != (b[i].New != nil) || a[i].New != nil && a[i].New.Offset != b[i].New.Offset {
			return false
		}
	}
	return true
}
