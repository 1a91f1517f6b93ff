package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/weaver/jdk"
)

// BenchmarkJDKCommand runs `weft jdk` in process, as the CLI does, with
// the counting example (every method and constructor execution) over
// the modules in $WEFT_BENCH_MODULES (default: all). Profile it with
// -cpuprofile; bench/jdk.sh times the CLI itself.
func BenchmarkJDKCommand(b *testing.B) {
	adv := countAdvice(b)
	mods := os.Getenv("WEFT_BENCH_MODULES")
	if mods == "" {
		mods = "all"
	}
	cache := b.TempDir()
	b.Setenv("WEFT_CACHE", cache)
	// The runtime is built once and cached, as a second `weft jdk` finds it.
	if _, err := jdk.BuildRuntime(jvmtest.JavaHome(b), filepath.Join(cache, "rt")); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(b.TempDir(), "jdk")
		home := jvmtest.JavaHome(b)
		j := launch.OpenJDK(home)
		prog, _, err := resolveAdvice(io.Discard, j, []string{"../../examples/count/count.weft"}, adv, nil)
		if err != nil {
			b.Fatal(err)
		}
		sum, _, err := launch.WeaveJDK(launch.JDKJob{Matcher: prog, Advice: prog.Advice(), AdviceCP: adv, JDK: j,
			Modules: mods, Out: out})
		j.Close()
		if err != nil {
			b.Fatal(err)
		}
		classes, woven, methods := sum.Totals()
		b.ReportMetric(float64(classes), "classes")
		b.ReportMetric(float64(woven), "woven")
		b.ReportMetric(float64(methods), "methods")
	}
}
