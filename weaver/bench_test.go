package weaver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
)

// BenchmarkWeaveGuava weaves guava with the counting aspect in process
// (for profiling; bench/ compares the CLI with ajc).
func BenchmarkWeaveGuava(b *testing.B) {
	const guava = "/usr/share/java/guava.jar"
	home := jvmtest.JavaHome(b)
	src, err := classfile.OpenSource(guava, home)
	if err != nil {
		b.Fatal(err)
	}
	jdk, err := classfile.OpenJDK(home)
	if err != nil {
		b.Fatal(err)
	}
	adv := jvmtest.Compile(b, map[string]string{"count/Counter.java": string(must(os.ReadFile("../examples/count/Counter.java")))},
		"-cp", filepath.Join(home, "lib"), "-sourcepath", "../runtime-java")
	text := must(os.ReadFile("../examples/count/count.weft"))
	out := filepath.Join(b.TempDir(), "g.jar")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := NewMethodHierarchy(classfile.NewHierarchy(src, jdk), src, jdk)
		f, err := pointcut.ParseFile("count.weft", text)
		if err != nil {
			b.Fatal(err)
		}
		prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: adv, Hierarchy: h})
		if err != nil {
			b.Fatal(err)
		}
		st, err := New(prog, prog.Advice(), Options{Hierarchy: h}).WeavePath(guava, out)
		if err != nil || st.Woven < 1000 {
			b.Fatal(err, st)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
