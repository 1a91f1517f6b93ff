package main

import (
	"encoding/json"
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
		err := launch.BuildJDK(launch.Options{Aspects: []string{"../../examples/count/count.weft"}, AdviceCP: adv,
			JavaHome: jvmtest.JavaHome(b), Modules: mods, Out: out, Quiet: true, Stderr: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		var sum jdk.Summary
		if err := readJSON(filepath.Join(out, "summary.json"), &sum); err != nil {
			b.Fatal(err)
		}
		classes, woven, methods := sum.Totals()
		b.ReportMetric(float64(classes), "classes")
		b.ReportMetric(float64(woven), "woven")
		b.ReportMetric(float64(methods), "methods")
	}
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
