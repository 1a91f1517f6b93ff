package weaver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
)

// BenchmarkWeaveGuava weaves guava with the counting aspect in process
// (for profiling; bench/ compares the CLI with ajc): count is
// examples/count (before advice at entry: bodies kept as they are), exits
// adds after advice at every method's exits and before advice at every
// constructor call (bodies decoded, their frames computed).
func BenchmarkWeaveGuava(b *testing.B) {
	b.Run("count", func(b *testing.B) { benchWeaveGuava(b, string(must(os.ReadFile("../examples/count/count.weft")))) })
	b.Run("exits", func(b *testing.B) { benchWeaveGuava(b, exitsAspect) })
}

const exitsAspect = `aspect Exits {
    before(): (execution(* *(..)) || call(new(..))) {
        weft.tools.count.Counter.hit(joinPointId);
    }
    after(): execution(* *(..)) {
        weft.tools.count.Counter.hit(joinPointId);
    }
}
`

func benchWeaveGuava(b *testing.B, aspect string) {
	const guava = "/usr/share/java/guava.jar"
	home := jvmtest.JavaHome(b)
	src, err := classpath.OpenSource(guava, home)
	if err != nil {
		b.Fatal(err)
	}
	jdk, err := classpath.OpenJDK(home)
	if err != nil {
		b.Fatal(err)
	}
	adv := jvmtest.Compile(b, map[string]string{"weft/tools/count/Counter.java": string(must(os.ReadFile("../examples/count/Counter.java")))},
		"-cp", filepath.Join(home, "lib"), "-sourcepath", "../runtime-java")
	text := []byte(aspect)
	out := filepath.Join(b.TempDir(), "g.jar")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := HierarchyOf(src, jdk)
		f, err := pointcut.ParseFile("aspect.weft", text)
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
