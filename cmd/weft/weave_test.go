package main

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestWeaveCommand runs `weft runtime` and `weft weave --weave-info` on a
// class directory with the counting example, then the woven program,
// verified, on the JVM.
func TestWeaveCommand(t *testing.T) {
	tmp := t.TempDir()
	rtJar := filepath.Join(tmp, "weft-rt.jar")
	if _, _, err := weftInProcess("runtime", "-o", rtJar); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(rtJar)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "weft/rt/") {
			n++
		}
	}
	zr.Close()
	if n < 4 {
		t.Fatalf("runtime jar has %d weft/rt classes", n)
	}

	adv := countAdviceWithRuntime(t)
	app := jvmtest.Compile(t, map[string]string{"demo/Fib.java": `package demo;
public class Fib {
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) { System.out.println("fib " + fib(10)); }
}`}, "-g")
	os.WriteFile(filepath.Join(app, "demo", "notes.txt"), []byte("kept"), 0o644)
	out := filepath.Join(tmp, "out")
	stdout, _, err := weftInProcess("weave", "-q", "-a", "../../examples/count/count.weft", "--advice-cp", adv,
		"-o", out, "--weave-info", "-", app)
	if err != nil {
		t.Fatal(err)
	}
	want := `Join point 'constructor-execution(void demo.Fib.<init>())' in Type 'demo.Fib' (Fib.java:2) advised by before advice from 'Count' (count.weft:3)
Join point 'method-execution(int demo.Fib.fib(int))' in Type 'demo.Fib' (Fib.java:3) advised by before advice from 'Count' (count.weft:3)
Join point 'method-execution(void demo.Fib.main(java.lang.String[]))' in Type 'demo.Fib' (Fib.java:4) advised by before advice from 'Count' (count.weft:3)
`
	if stdout != want {
		t.Errorf("weave info:\n%s\nwant:\n%s", stdout, want)
	}
	if b, err := os.ReadFile(filepath.Join(out, "demo", "notes.txt")); err != nil || string(b) != "kept" {
		t.Errorf("resource not copied: %q %v", b, err)
	}
	o, e := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+adv, "demo.Fib")
	if o != "fib 55\n" || !strings.Contains(e, "count: 178 hits at 2 join points") {
		t.Errorf("woven run: stdout %q stderr %q", o, e)
	}
}

// TestWeaveFindsAdvice: the advice class is looked up on --advice-cp, the
// inputs and -cp; on none of them it is an error at the advice, as in
// weft check (weave used to succeed, and the woven program died with
// NoClassDefFoundError).
func TestWeaveFindsAdvice(t *testing.T) {
	adv := countAdvice(t)
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	_, stderr, code := weft(t, nil, "weave", "-q", "-a", countWeft, "-o", filepath.Join(t.TempDir(), "out"), app)
	for _, want := range []string{
		countWeft + ":4:9: advice at line 3: weft.tools.count.Counter not found on " + app,
		"hint: put the compiled advice class on --advice-cp",
	} {
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("weave without the advice class: exit %d, stderr lacks %q:\n%s", code, want, stderr)
		}
	}

	// On -cp, or as another input, it is found.
	onCP := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{{"-o", onCP, "-cp", adv, app}, {"-o", t.TempDir(), app, adv}} {
		_, stderr, code := weft(t, nil, append([]string{"weave", "-q", "-a", countWeft}, args...)...)
		if code != 0 || stderr != "" {
			t.Errorf("weave %v: exit %d\n%s", args, code, stderr)
		}
	}
	o, e := jvmtest.Run(t, "-cp", onCP+string(filepath.ListSeparator)+adv, "Hello")
	if o != "hello\n" || !strings.Contains(e, "count: 1 hits at 1 join points") {
		t.Errorf("woven run: stdout %q stderr %q", o, e)
	}
}

// TestWeaveAdviceDidNotMatch: advice that advised nothing in any input is
// warned of as ajc's Xlint:adviceDidNotMatch, unless --Xlint ignore.
func TestWeaveAdviceDidNotMatch(t *testing.T) {
	adv := countAdvice(t)
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	nowhere := writeFile(t, "nowhere.weft", nowhereWeft)
	weave := func(extra ...string) (string, int) {
		args := append([]string{"weave", "-q", "-a", countWeft, "-a", nowhere, "--advice-cp", adv,
			"-o", filepath.Join(t.TempDir(), "out")}, extra...)
		_, stderr, code := weft(t, nil, append(args, app)...)
		return stderr, code
	}
	stderr, code := weave()
	want := "weft: warning: " + nowhere + ":2: advice defined in Nowhere has not been applied [Xlint:adviceDidNotMatch]\n"
	if code != 0 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	if stderr, code := weave("--Xlint", "ignore"); code != 0 || stderr != "" {
		t.Errorf("--Xlint ignore: exit %d, stderr:\n%s", code, stderr)
	}
	if stderr, code := weave("--Xlint=error"); code == 0 || !strings.Contains(stderr, `invalid argument "error" for "--Xlint" flag`) {
		t.Errorf("--Xlint=error: exit %d, stderr:\n%s", code, stderr)
	}
}

// fibApp compiles the tests' small program, demo.Fib.
func fibApp(t *testing.T) string {
	return jvmtest.Compile(t, map[string]string{"demo/Fib.java": `package demo;
public class Fib {
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) { System.out.println("fib " + fib(10)); }
}`}, "-g")
}

// weaveCount runs `weft weave -q -a count.weft --advice-cp adv -o out inputs...`.
func weaveCount(adv, out string, inputs ...string) error {
	_, _, err := weftInProcess(append([]string{"weave", "-q", "-a", "../../examples/count/count.weft", "--advice-cp", adv,
		"-o", out}, inputs...)...)
	return err
}

// TestWeaveClassFile: a single .class file is woven into a class file, or
// into a directory, its sister class and the runtime jar next to it (it
// used to fail: "zip: not a valid zip file").
func TestWeaveClassFile(t *testing.T) {
	adv := countAdvice(t)
	class := filepath.Join(fibApp(t), "demo", "Fib.class")
	intoDir := filepath.Join(t.TempDir(), "demo")
	if err := os.MkdirAll(intoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(t.TempDir(), "demo", "Fib.class"), intoDir} {
		if err := weaveCount(adv, out, class); err != nil {
			t.Fatalf("weave %s -o %s: %v", class, out, err)
		}
		dir := filepath.Dir(out)
		if out == intoDir {
			dir = out
		}
		for _, f := range []string{"Fib.class", "Fib$weft$jp.class", "weft-rt.jar"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("-o %s: %v", out, err)
			}
		}
		cp := strings.Join([]string{filepath.Dir(dir), filepath.Join(dir, "weft-rt.jar"), adv}, string(filepath.ListSeparator))
		o, e := jvmtest.Run(t, "-Xverify:all", "-cp", cp, "demo.Fib")
		if o != "fib 55\n" || !strings.Contains(e, "count: 178 hits at 2 join points") {
			t.Errorf("-o %s: woven run: stdout %q stderr %q", out, o, e)
		}
	}
}

// TestOutputErrorsNameTheOutput: when the output jar cannot be written,
// weave and classfile rewrite name it, not the temporary file they write
// first (they said "open /x/.weft-1039439311.jar: ...").
func TestOutputErrorsNameTheOutput(t *testing.T) {
	adv := countAdvice(t)
	jar := filepath.Join(t.TempDir(), "app.jar")
	jvmtest.Jar(t, fibApp(t), jar, "")
	busy := t.TempDir() // an existing directory in the way
	if err := os.WriteFile(filepath.Join(busy, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// /proc takes no new files, even from root.
	for _, out := range []string{busy, "/proc/weft-test-out.jar"} {
		err := weaveCount(adv, out, jar)
		if err == nil || !strings.Contains(err.Error(), out) || strings.Contains(err.Error(), ".weft-") {
			t.Errorf("weave -o %s: error %v, want one naming %s and no temporary file", out, err, out)
		}
		_, err = rewrite([]string{jar}, rewriteFlags{out: out, jobs: 1}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), out) || strings.Contains(err.Error(), ".weft-") {
			t.Errorf("classfile rewrite -o %s: error %v, want one naming %s and no temporary file", out, err, out)
		}
	}
}

// TestOutputFlagIsOut: every command that writes an output names its flag
// --out, -o for short (classfile rewrite said --output).
func TestOutputFlagIsOut(t *testing.T) {
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if f := c.Flags().ShorthandLookup("o"); f != nil {
			n++
			if f.Name != "out" {
				t.Errorf("%s: -o is --%s, want --out", c.CommandPath(), f.Name)
			}
		}
		if f := c.Flags().Lookup("output"); f != nil {
			t.Errorf("%s: has --output, want --out", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&goProfiles{}))
	if n < 4 { // weave, jdk, runtime, classfile rewrite
		t.Errorf("%d commands with -o, want at least 4", n)
	}
}
