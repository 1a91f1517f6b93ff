package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestToolsInScope: weft profile and weft recrash --jdk-frames in a scope
// of the program's own classes (the JDK out of it) are exact as they are
// over every class: the profile's counts of the program's contexts, and
// recrash's tests from the program's frames (none from the JDK's).
func TestToolsInScope(t *testing.T) {
	t.Run("profile", func(t *testing.T) {
		app := jvmtest.Compile(t, map[string]string{"Prof.java": profSrc}, "-g")
		out := filepath.Join(t.TempDir(), "prof")
		stdout, stderr, code := weft(t, []string{sharedCache(t)}, "profile", "--patches", "-o", out, "--write-folded", "--include", "Prof*",
			"--modules", "java.base", "--", "java", "-cp", app, "Prof")
		if code != 0 || stdout != "fib 610\npool 1152 32\n" {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		calls := readMetric(t, out, "calls")
		if got := at(calls, "Prof.main;Prof.measured;Prof.caller;Prof.empty"); got != 100000 {
			t.Errorf("calls of Prof.empty under measured: %d, want 100000", got)
		}
		if got := below(calls, "Prof.main;Prof.fib"); got != 1973 {
			t.Errorf("calls of fib(15): %d, want 1973", got)
		}
		for stack := range calls {
			if strings.Contains(stack, "java.") {
				t.Errorf("a JDK frame in the scope Prof*: %s", stack)
				break
			}
		}
	})
	t.Run("recrash", func(t *testing.T) {
		app := jvmtest.Compile(t, crashySrc, "-g")
		java := []string{"java", "-cp", app, "crashy.Main"}
		wantOut, _, _ := jvmtest.RunErr(t, java[1:]...)
		out := filepath.Join(t.TempDir(), "crash")
		stdout, stderr, code := weft(t, []string{sharedCache(t)}, append([]string{"recrash", "--patches", "--jdk-frames",
			"--include", "crashy/**", "-o", out, "--"}, java...)...)
		if code != 0 || stdout != wantOut {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, test := range []string{`Crash\d+_\d+_Sums_sumTest reproduces`, `Crash\d+_\d+_Inventory_itemTest reproduces`,
			`Crash\d+_\d+_Pricing_totalTest reproduces`} {
			if !regexp.MustCompile(test).Match(summary) {
				t.Errorf("no %s:\n%s", test, summary)
			}
		}
		if regexp.MustCompile(`Crash\d+_\d+_(Integer|ArrayList)_`).Match(summary) {
			t.Errorf("a test from a JDK frame, out of the scope:\n%s", summary)
		}
	})
}
