package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestJDKAdviceAndLaunchers weaves java.base: without --advice-cp it is an
// error at the advice (it used to weave a JDK that dies calling the
// advice); advice that advised nothing is warned of as ajc does; and
// DIR/weft.jargs runs javac on the woven JDK as docs/jdk.md says.
func TestJDKAdviceAndLaunchers(t *testing.T) {
	adv := countAdvice(t)
	nowhere := writeFile(t, "nowhere.weft", nowhereWeft)
	env := []string{newCache(t)}
	dir := filepath.Join(t.TempDir(), "jdk")
	_, stderr, code := weft(t, env, "jdk", "-q", "-a", countWeft, "--modules", "java.base", "-o", dir)
	if code == 0 || !strings.Contains(stderr, countWeft+":4:9: advice at line 3: weft.tools.count.Counter not found") ||
		!strings.Contains(stderr, "hint: put the compiled advice class on --advice-cp") {
		t.Errorf("weft jdk without --advice-cp: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("weft jdk without --advice-cp wrote %s", dir)
	}

	_, stderr, code = weft(t, env, "jdk", "-q", "-a", countWeft, "-a", nowhere, "--advice-cp", adv,
		"--modules", "java.base", "-o", dir)
	want := "weft: warning: " + nowhere + ":2: advice defined in Nowhere has not been applied [Xlint:adviceDidNotMatch]\n"
	if code != 0 || stderr != want {
		t.Fatalf("weft jdk: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}

	// javac $(cat DIR/weft.jargs) ...: javac runs woven (the advice counts)
	// and its output runs.
	jargs, err := os.ReadFile(filepath.Join(dir, "weft.jargs"))
	if err != nil {
		t.Fatal(err)
	}
	src := writeFile(t, "Hello.java", helloSrc)
	out := t.TempDir()
	javac := exec.Command(jvmtest.Javac(t), jvmtest.ToolArgs(append(strings.Fields(string(jargs)), "-d", out, src)...)...)
	b, err := javac.CombinedOutput()
	if err != nil || !strings.Contains(string(b), " hits at ") {
		t.Errorf("javac with weft.jargs: %v\n%s", err, b)
	}
	if o, _ := jvmtest.Run(t, "-cp", out, "Hello"); o != "hello\n" {
		t.Errorf("Hello compiled on the woven JDK prints %q", o)
	}
}

// TestJDKModulesAsJava: the modules weft jdk weaves and counts ("in N
// modules") are those java --list-modules lists: docs/figures.md's figure.
func TestJDKModulesAsJava(t *testing.T) {
	home := jvmtest.JavaHome(t)
	img, err := classpath.OpenJDK(home)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	got := append([]string(nil), img.Modules()...)
	sort.Strings(got)
	b, err := exec.Command(jvmtest.Java(t), "--list-modules").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Fields(string(b)) {
		name, _, _ := strings.Cut(l, "@")
		want = append(want, name)
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("image modules (%d):\n%v\njava --list-modules (%d):\n%v", len(got), got, len(want), want)
	}
}
