package classfile

import (
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// BenchmarkParseFramesWrite parses every class of java.base, decodes every
// method, re-encodes it with frames recomputed and writes the class: the
// work of ASM's ClassReader → ClassWriter(COMPUTE_FRAMES) with every method
// expanded (ASM 9.4 does about 13.7k classes/s on one thread here). The
// hierarchy is warmed up first, as it is in a weaving run.
func BenchmarkParseFramesWrite(b *testing.B) {
	src, err := OpenTestJDK(jvmtest.JavaHome(b))
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	h := NewTestHierarchy(src)
	opts := EncodeOptions{Frames: true, Hierarchy: h}
	benchClasses(b, func(b *testing.B, data []byte) {
		c, err := Parse("", data)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil {
				b.Fatal(err)
			}
			if code == nil {
				continue
			}
			if err := code.Encode(c, m, opts); err != nil {
				b.Fatal(err)
			}
		}
		c.Bytes()
	})
}

// BenchmarkParseDecodeEncode is the same without frame computation (the
// decoded frames are written back), to show what the analysis costs.
func BenchmarkParseDecodeEncode(b *testing.B) {
	benchClasses(b, func(b *testing.B, data []byte) {
		c, err := Parse("", data)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil {
				b.Fatal(err)
			}
			if code == nil {
				continue
			}
			if err := code.Encode(c, m, EncodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		c.Bytes()
	})
}

// BenchmarkComputeFrames times the analysis alone: every method of java.base
// is decoded and laid out once, then its frames are computed per iteration.
func BenchmarkComputeFrames(b *testing.B) {
	src, err := OpenTestJDK(jvmtest.JavaHome(b))
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	h := NewTestHierarchy(src)
	type method struct {
		c    *Class
		m    *Member
		code *Code
	}
	var methods []method
	classes := javaBase(b)
	for _, data := range classes {
		c, err := Parse("", data)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil {
				b.Fatal(err)
			}
			if code == nil {
				continue
			}
			// Encode once: dead code and labels are settled, offsets set.
			if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: h}); err != nil {
				b.Fatal(err)
			}
			methods = append(methods, method{c, m, code})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, x := range methods {
			if err := computeFrames(x.c, x.m, x.code, h, nil, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(classes)*b.N)/secs, "classes/s")
	b.ReportMetric(float64(len(methods)*b.N)/secs, "methods/s")
	b.ReportMetric(0, "ns/op")
}
