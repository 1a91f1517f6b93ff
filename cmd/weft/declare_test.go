package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

const declareAppSrc = `package p;
public class A {
    public A() {
        super();
        n();
    }
    void n() { }
    public static void main(String[] args) {
        new A().n();
    }
}`

// TestWeaveDeclare: weft weave reports declare warnings at the source
// file and line of each join point, as ajc does, and weaves; a declare
// error fails it with nothing written, all messages reported; weft check
// only validates them; a dynamic pointcut is an error at its designator.
func TestWeaveDeclare(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"p/A.java": declareAppSrc}, "-g")
	jar := filepath.Join(t.TempDir(), "app.jar")
	jvmtest.Jar(t, app, jar, "")
	warn := writeFile(t, "warn.weft", `aspect W {
    pointcut inA(): within(p.A);
    declare warning: call(* p.A.n()) && inA() : "n() is deprecated";
}
`)
	errs := writeFile(t, "errs.weft", `aspect E {
    declare warning: call(* p.A.n()) : "n() is deprecated";
    declare error: execution(p.A.new()) : "no A";
}
`)
	env := []string{newCache(t)}

	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := weft(t, env, "weave", "-q", "-a", warn, "-o", out, app)
	want := "p/A.java:5: warning: n() is deprecated\n\tmethod-call(void p.A.n())\n\tsee also: " + warn + ":3:5\n" +
		"p/A.java:9: warning: n() is deprecated\n\tmethod-call(void p.A.n())\n\tsee also: " + warn + ":3:5\n"
	if code != 0 || stderr != want {
		t.Errorf("weave with a declare warning: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(out, "p", "A.class")); err != nil {
		t.Errorf("weave with a declare warning wrote nothing: %v", err)
	}

	for _, tt := range []struct{ in, out string }{
		{app, filepath.Join(t.TempDir(), "out")},
		{jar, filepath.Join(t.TempDir(), "out.jar")},
	} {
		_, stderr, code = weft(t, env, "weave", "-q", "-a", errs, "-o", tt.out, tt.in)
		for _, w := range []string{
			"p/A.java:5: error: no A\n\tconstructor-execution(void p.A.<init>())\n\tsee also: " + errs + ":3:5\n",
			"p/A.java:5: warning: n() is deprecated\n",
			"p/A.java:9: warning: n() is deprecated\n",
			"weft: 1 declare error: nothing written\n",
		} {
			if !strings.Contains(stderr, w) {
				t.Errorf("weave %s with a declare error: stderr lacks %q:\n%s", tt.in, w, stderr)
			}
		}
		if code == 0 {
			t.Errorf("weave %s with a declare error: exit 0", tt.in)
		}
		if _, err := os.Stat(tt.out); err == nil {
			t.Errorf("weave %s with a declare error wrote %s", tt.in, tt.out)
		}
	}

	stdout, stderr, code := weft(t, env, "check", errs)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "  declare error: execution(p.A.new()) : \"no A\"\n") ||
		!strings.Contains(stdout, "1 aspect, 0 pointcuts, 0 advice, 2 declare;") {
		t.Errorf("check: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	dynamic := writeFile(t, "dyn.weft", "aspect D {\n    declare warning: call(* p.A.n()) && this(p.A) : \"m\";\n}\n")
	_, stderr, code = weft(t, env, "weave", "-q", "-a", dynamic, "-o", filepath.Join(t.TempDir(), "o"), app)
	if code == 0 || !strings.Contains(stderr, dynamic+":2:41: this() cannot be used in declare warning: it is decided at run time") {
		t.Errorf("weave with this() in declare warning: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestJDKAndRunDeclare: weft jdk reports declare warnings at JDK classes'
// source lines; a declare error fails weft jdk with nothing written and
// stops weft run before java starts.
func TestJDKAndRunDeclare(t *testing.T) {
	env := []string{newCache(t)}
	warn := writeFile(t, "warn.weft", "aspect W {\n    declare warning: execution(* java.util.logging.Logger.getName()) : \"getName\";\n}\n")
	errs := writeFile(t, "errs.weft", "aspect E {\n    declare error: execution(* java.util.logging.Logger.getName()) : \"no getName\";\n}\n")
	dir := filepath.Join(t.TempDir(), "jdk")
	_, stderr, code := weft(t, env, "jdk", "-q", "-a", warn, "--modules", "java.logging", "-o", dir)
	prefix := "java/util/logging/Logger.java:"
	if code != 0 || !strings.HasPrefix(stderr, prefix) ||
		!strings.Contains(stderr, ": warning: getName\n\tmethod-execution(java.lang.String java.util.logging.Logger.getName())\n\tsee also: "+warn+":2:5\n") {
		t.Errorf("jdk with a declare warning: exit %d, stderr:\n%s", code, stderr)
	}

	dir = filepath.Join(t.TempDir(), "jdk")
	_, stderr, code = weft(t, env, "jdk", "-q", "-a", errs, "--modules", "java.logging", "-o", dir)
	if code == 0 || !strings.HasPrefix(stderr, prefix) || !strings.Contains(stderr, ": error: no getName\n") ||
		!strings.HasSuffix(stderr, "weft: 1 declare error: nothing written\n") {
		t.Errorf("jdk with a declare error: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("jdk with a declare error wrote %s", dir)
	}

	stdout, stderr, code := weft(t, env, "run", "-a", errs, "--modules", "java.logging", "--patches", "--", jvmtest.Java(t), "-version")
	if code == 0 || stdout != "" || !strings.Contains(stderr, ": error: no getName\n") || strings.Contains(stderr, "version \"") {
		t.Errorf("run with a declare error: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}
