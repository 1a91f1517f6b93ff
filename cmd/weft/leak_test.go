package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestLeakDemo runs README's demo (examples/leak/demo, as run.sh does)
// with weft leak's default options but for the JDK's modules, java.base
// only (all the demo uses): its four growing contexts — the cache's
// HashMap nodes, the boxed Integer keys, the summaries' Strings and their
// byte arrays, three of them allocated inside the JDK, one under string
// concatenation's method handles — each name Requests.handle, however many
// JDK frames lie between, and no hidden frame (a lambda form) is among
// them.
func TestLeakDemo(t *testing.T) {
	src, err := os.ReadFile("../../examples/leak/demo/Requests.java")
	if err != nil {
		t.Fatal(err)
	}
	app := jvmtest.Compile(t, map[string]string{"Requests.java": string(src)})
	out := filepath.Join(t.TempDir(), "leak")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, "leak", "--patches", "--modules", "java.base", "-o", out,
		"--", "java", "-Xmx32m", "-cp", app, "Requests")
	if code != 0 || stdout != "50000 cached, 1188890 bytes of summaries\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	r := readLeakReport(t, out)
	sites := map[string]bool{}
	for _, g := range r.Growing {
		sites[g.Site] = true
		handle := false
		for _, f := range g.Context {
			handle = handle || f == "Requests.handle"
			if flame.KindOf(f) == flame.HiddenFrame {
				t.Errorf("growing %s: a hidden frame in its context %v", g.Site, g.Context)
			}
		}
		if !handle {
			t.Errorf("growing %s: no Requests.handle in its context %v", g.Site, g.Context)
		}
	}
	for _, s := range []string{"java.util.HashMap$Node", "java.lang.Integer", "java.lang.String", "byte[]"} {
		if !sites[s] {
			t.Errorf("no growing context of %s: %+v\n%s", s, r.Growing, stderr)
		}
	}
}

// leakReport is what the tests read of a weft leak's leak.json.
type leakReport struct {
	Growing []struct {
		Site    string
		Context []string
	}
}

// readLeakReport reads the leak.json weft leak wrote in out.
func readLeakReport(t *testing.T, out string) leakReport {
	t.Helper()
	var r leakReport
	b, err := os.ReadFile(filepath.Join(out, "leak.json"))
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLeakJIT: weft leak takes weft profile's JIT policies, and says which
// it takes when given another, before weaving anything.
func TestLeakJIT(t *testing.T) {
	if _, stderr, code := weft(t, nil, "leak", "--jit", "fast", "--", "java", "-version"); code == 0 || !strings.Contains(stderr, `--jit "fast": want c1, delayed or stock`) {
		t.Errorf("--jit fast: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestLeakModuleMain runs javac as a module's main class (java -m) under
// weft leak on a runtime image whose options name java.sql, a module
// java -m jdk.compiler/... does not resolve, and whose leak tracker uses
// sun.misc.Unsafe, of another (jdk.unsupported): the JVM warned "Unknown
// module" at the first and died starting for the second, until weft
// resolved the default modules too.
func TestLeakModuleMain(t *testing.T) {
	out := filepath.Join(t.TempDir(), "leak")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, "leak", "--modules", "java.base,java.sql", "-o", out,
		"--", "java", "-m", "jdk.compiler/com.sun.tools.javac.Main", "-version")
	if code != 0 || !strings.HasPrefix(stdout, "javac ") || strings.Contains(stderr, "Unknown module") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	readLeakReport(t, out)
	if _, err := os.Stat(filepath.Join(out, "leak.txt")); err != nil {
		t.Error(err)
	}
}

// TestLeakJVMCrash: a JVM that dies (of -XX:+CrashOnOutOfMemoryError) is
// said to have crashed, with its exit status and its fatal error report,
// not taken for a program that did not run on the woven JDK.
func TestLeakJVMCrash(t *testing.T) {
	// The JVM aborts: no core dump of its gigabyte heap in this directory.
	var core syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &core); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{Cur: 0, Max: core.Max}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_CORE, &core) })
	app := jvmtest.Compile(t, map[string]string{"Huge.java": `public class Huge {
    public static void main(String[] args) {
        System.out.println(new long[Integer.MAX_VALUE].length);
    }
}`})
	dir := t.TempDir()
	_, stderr, code := weft(t, []string{sharedCache(t)}, "leak", "--patches", "--modules", "java.base", "-o", filepath.Join(dir, "leak"),
		"--", "java", "-XX:+CrashOnOutOfMemoryError", "-XX:ErrorFile="+filepath.Join(dir, "hs_err_pid%p.log"), "-cp", app, "Huge")
	reports, err := filepath.Glob(filepath.Join(dir, "hs_err_pid*.log"))
	if err != nil || len(reports) != 1 {
		t.Fatalf("fatal error reports %v (%v), want one\nstderr:\n%s", reports, err, stderr)
	}
	want := "weft: the JVM crashed (exit status 134, signal 6: aborted): its fatal error report is " + reports[0] + "\n"
	if code != 134 || !strings.Contains(stderr, want) || strings.Contains(stderr, "wrote no report") {
		t.Errorf("exit %d, want 134 and %q\nstderr:\n%s", code, want, stderr)
	}
}
