package classfile

import (
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// javaBase loads every class file of java.base once per test binary.
func javaBase(b *testing.B) [][]byte {
	b.Helper()
	javaBaseOnce.Do(func() {
		src, err := OpenTestJDK(jvmtest.JavaHome(b), "java.base")
		if err != nil {
			javaBaseErr = err
			return
		}
		defer src.Close()
		javaBaseErr = src.Walk(func(e TestEntry) error {
			data, err := e.Read()
			javaBaseClasses = append(javaBaseClasses, data)
			return err
		})
	})
	if javaBaseErr != nil {
		b.Fatal(javaBaseErr)
	}
	return javaBaseClasses
}

var (
	javaBaseOnce    sync.Once
	javaBaseClasses [][]byte
	javaBaseErr     error
)

// benchClasses runs fn over all classes of java.base per iteration and
// reports classes/s and MB/s of class-file input.
func benchClasses(b *testing.B, fn func(b *testing.B, data []byte)) {
	classes := javaBase(b)
	size := 0
	for _, c := range classes {
		size += len(c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range classes {
			fn(b, c)
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(classes)*b.N)/secs, "classes/s")
	b.ReportMetric(float64(size*b.N)/secs/1e6, "MB/s")
	b.ReportMetric(0, "ns/op") // one op is all of java.base: not a useful figure
}

// BenchmarkParse decodes every class of java.base (ASM 9.4's ClassReader
// with SKIP nothing does about 46k classes/s on its benchmark machine).
func BenchmarkParse(b *testing.B) {
	benchClasses(b, func(b *testing.B, data []byte) {
		if _, err := Parse("", data); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkParseWrite decodes and re-encodes every class of java.base
// (ASM's copy, ClassReader to ClassWriter: about 57k classes/s).
func BenchmarkParseWrite(b *testing.B) {
	benchClasses(b, func(b *testing.B, data []byte) {
		c, err := Parse("", data)
		if err != nil {
			b.Fatal(err)
		}
		c.Bytes()
	})
}
