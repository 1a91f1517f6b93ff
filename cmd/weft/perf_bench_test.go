package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver/jdk"
)

// countAdvice compiles the counting example's advice class (against the
// runtime sources) once per benchmark.
func countAdvice(b testing.TB) string {
	b.Helper()
	home := jvmtest.JavaHome(b)
	counter, err := os.ReadFile("../../examples/count/Counter.java")
	if err != nil {
		b.Fatal(err)
	}
	return jvmtest.Compile(b, map[string]string{"count/Counter.java": string(counter)},
		"-cp", filepath.Join(home, "lib"), "-sourcepath", "../../runtime-java")
}

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
		sum, err := weaveJDK(jdkJob{aspects: []string{"../../examples/count/count.weft"}, adviceCP: adv,
			modules: mods, out: out})
		if err != nil {
			b.Fatal(err)
		}
		classes, woven, methods := sum.Totals()
		b.ReportMetric(float64(classes), "classes")
		b.ReportMetric(float64(woven), "woven")
		b.ReportMetric(float64(methods), "methods")
	}
}
