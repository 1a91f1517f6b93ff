package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// runCapturingStderr runs `weft args...` in process and returns what it
// wrote to standard error (weft jdk and run write there directly).
func runCapturingStderr(t *testing.T, args ...string) (string, error) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stderr
	os.Stderr = f // the JDK weaving's progress and diagnostics go to os.Stderr
	err = runWeft(args, strings.NewReader(""), io.Discard, f)
	os.Stderr = saved
	b, rerr := os.ReadFile(f.Name())
	if rerr != nil {
		t.Fatal(rerr)
	}
	return string(b), err
}

// Every command that reads aspects reports the same diagnostics: all
// errors of all files, a file's semantic errors even when it also has
// syntax errors, and the warnings, resolved against the same JDK (the java
// on PATH's, whatever $JAVA_HOME says).
func TestCommandsReportTheSameDiagnostics(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.weft")
	b := filepath.Join(dir, "b.weft")
	os.WriteFile(a, []byte(`aspect A {
    before(): call(* *(..) { x.Y.z(); }
    before(Object o): call(* *(..)) { x.Y.z(o); }
}
`), 0o644)
	os.WriteFile(b, []byte(`aspect B {
    pointcut puts(): call(* Map.put(..));
    before(): adviceexecution() { x.Y.z(); }
    before(java.util.HashMap m): target(m) { example.tracker.Tracker.map(m); }
}
`), 0o644)
	adv := jvmtest.Compile(t, map[string]string{"example/tracker/Tracker.java": `package example.tracker;
public class Tracker { public static void map(java.util.Map<?, ?> m) {} }`})
	in := t.TempDir()
	t.Setenv("JAVA_HOME", filepath.Join(dir, "not-a-jdk"))
	t.Setenv("WEFT_CACHE", strings.TrimPrefix(newCache(t), "WEFT_CACHE="))

	common := []string{"-a", a, "-a", b, "--advice-cp=" + adv, "--java-home="}
	commands := map[string][]string{
		"check": {"check", a, b, "--advice-cp=" + adv, "--java-home="},
		"weave": append(append([]string{"weave"}, common...), "-o", filepath.Join(dir, "out"), in),
		"jdk":   append(append([]string{"jdk", "-q"}, common...), "-o", filepath.Join(dir, "jdk")),
		"run":   append(append([]string{"run"}, common...), "--", "java", "-version"),
	}
	stderrs := map[string]string{}
	for name, args := range commands {
		stderr, err := runCapturingStderr(t, args...)
		if err == nil || err.Error() != "3 errors in "+a+", "+b {
			t.Errorf("%s: error %v, want 3 errors", name, err)
		}
		if _, after, ok := strings.Cut(stderr, "(once)\n"); ok { // run may say first that it weaves the JDK
			stderr = after
		}
		stderrs[name] = stderr
	}
	diags := stderrs["check"]
	for _, d := range []string{
		a + ":2:19: missing `)`: this `(` is not closed",
		a + ":3:12: formal o is not bound by the pointcut",
		b + ":3:15: adviceexecution() is not supported yet",
		"weft: warning: " + b + ":2:29: type Map is not qualified",
		"hint: write the fully qualified name: java.util.Map",
	} {
		if !strings.Contains(diags, d) {
			t.Errorf("check's stderr lacks %q:\n%s", d, diags)
		}
	}
	if strings.Contains(diags, "cannot check") {
		t.Errorf("check did not resolve java.util.HashMap in the JDK of the java on PATH:\n%s", diags)
	}
	for _, name := range []string{"weave", "jdk", "run"} {
		if stderrs[name] != diags {
			t.Errorf("%s's diagnostics differ from check's:\n%s\ncheck's:\n%s", name, stderrs[name], diags)
		}
	}
}
