package weaver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// TestCflowAgainstAspectJ weaves testdata/cflow/Cf.java with ajc (with
// Cflows.aj) and with weft (with cflow.weft, the same advice), compares
// the -showWeaveInfo lines (the same join points advised, the same
// run-time tests), runs both and compares what the counting advice saw: cflow and cflowbelow over recursion
// (execution and call shadows), a cflow's bound value from its innermost
// entry, a cflow left by an exception, a thread started inside a cflow
// (not in it), if(), after throwing under cflowbelow, two bound values,
// a cflow inside a cflow and a constructor's execution. The counts are
// also checked against the expected ones. The main thread enters more
// than 8 cflows, so its table in weft.rt.Cflow grows (an entry that grew
// it once counted in the table it replaced, and e read 0).
func TestCflowAgainstAspectJ(t *testing.T) {
	t.Parallel() // see jdkOnce
	for _, f := range []string{ajcPath, aspectjrt} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "cflow", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tmp := t.TempDir()
	sep := string(filepath.ListSeparator)
	// ajc compiles and weaves the sources itself, and runs the program,
	// while weft's side compiles, weaves and runs (ajc is the slow part).
	java, javaHome := jvmtest.Java(t), jvmtest.JavaHome(t)
	ajOut := filepath.Join(tmp, "ajc.jar")
	type ajResult struct {
		info, out string
		err       error
	}
	ajDone := make(chan ajResult, 1)
	go func() {
		var r ajResult
		defer func() { ajDone <- r }()
		srcDir := filepath.Join(tmp, "ajsrc")
		for name, dst := range map[string]string{"Cnt.java": "cfadv/Cnt.java", "Cf.java": "app/Cf.java", "Cflows.aj": "Cflows.aj"} {
			b, err := os.ReadFile(filepath.Join("testdata", "cflow", name))
			if err == nil {
				err = os.MkdirAll(filepath.Dir(filepath.Join(srcDir, dst)), 0o755)
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(srcDir, dst), b, 0o644)
			}
			if err != nil {
				r.err = err
				return
			}
		}
		cmd := ajcCommand(t, "-1.8", "-showWeaveInfo", "-cp", aspectjrt, "-outjar", ajOut, "-sourceroots", srcDir)
		cmd.Env = append(os.Environ(), "JAVA_HOME="+javaHome)
		info, err := cmd.CombinedOutput()
		if err != nil {
			r.err = fmt.Errorf("ajc: %v\n%s", err, info)
			return
		}
		r.info = string(info)
		out, err := exec.Command(java, "-Xverify:all", "-cp", ajOut+sep+aspectjrt, "app.Cf").Output()
		r.out, r.err = string(out), err
	}()
	classes := jvmtest.Compile(t, map[string]string{"cfadv/Cnt.java": read("Cnt.java"), "app/Cf.java": read("Cf.java")}, "--release", "8")
	adv, app := filepath.Join(tmp, "adv"), filepath.Join(tmp, "app")
	for _, d := range []string{"cfadv", "app"} {
		dst := adv
		if d == "app" {
			dst = app
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(classes, d), filepath.Join(dst, d)); err != nil {
			t.Fatal(err)
		}
	}
	weftOut := filepath.Join(tmp, "weft")
	info := weftWeaveInfo(t, app, weftOut, "cflow.weft", []byte(read("cflow.weft")), adv, true)
	rt, err := rtjava.Build(jvmtest.JavaHome(t), "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(tmp, "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, rt); err != nil {
		t.Fatal(err)
	}
	run := func(cp ...string) string {
		out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", strings.Join(append(cp, adv), sep), "app.Cf")
		return out
	}
	plain, weft := run(app), run(weftOut, rtJar)
	r := <-ajDone
	if r.err != nil {
		t.Fatal(r.err)
	}
	aj := r.out
	// The same join points advised, with the same run-time tests; weft's
	// cflow entries and exits are not listed (nor are ajc's). Lines are
	// left out: ajc, compiling the source, gives an execution the line of
	// the method's declaration, weft its first line of code.
	noLine := regexp.MustCompile(`\(Cf\.java:[0-9]+\)`)
	ajInfo, weftInfo := map[string]int{}, map[string]int{}
	for l, n := range normalizeInfo(r.info) {
		ajInfo[noLine.ReplaceAllString(l, "(Cf.java)")] += n
	}
	for l, n := range info {
		weftInfo[noLine.ReplaceAllString(l, "(Cf.java)")] += n
	}
	missing, extra, _ := weaveInfoDiff(ajInfo, weftInfo, nil)
	if len(ajInfo) < 12 {
		t.Errorf("ajc reported %d weave-info lines:\n%s", len(ajInfo), r.info)
	}
	reportWeaveInfoDiff(t, missing, extra)
	const prog = "55\n19\nbottom\n"
	if plain != prog+"counts 0 0 0 0 0 0 0 0 0 0 0 0 0\n" {
		t.Errorf("unwoven run:\n%s", plain)
	}
	if weft != aj {
		t.Errorf("woven by ajc:\n%s\nwoven by weft:\n%s", aj, weft)
	}
	// a: fib calls below the first (177-1); b: leaves of fib(10); c: the
	// innermost nest's d (2, not the outermost 5); d: outside() in
	// thrower, not after it unwound; e: outside() in spawn, not in its
	// thread; f: fib calls with an even n; g: leaf called under a call
	// of nest; h: nest calls below the first; i: every fib call; j:
	// thrower frames below the first rethrowing; k: run2's innermost d (0);
	// l: outside() under a run2 that is below a run2 (a cflow in a cflow);
	// m: outside() in the constructor's execution.
	const want = prog + "counts 176 89 2 1 1 89 1 3 177 3 0 1 1\n"
	if weft != want {
		t.Errorf("woven by weft:\n%s\nwant:\n%s", weft, want)
	}
}

// TestCflowAgainstAspectJOnLang3 compares, on commons-lang3 woven with
// cflow, cflowbelow and if() advice written for ajc (CflowDiff.aj) and for
// weft (cflowdiff.weft) — calls and executions in the control flow of
// library methods, a negated cflow, a cflow binding the entry's argument,
// after throwing under cflowbelow, an if() on a bound argument — the join
// points advised, join point for join point, with the same run-time
// tests, and the run of the exercise program on the unwoven, the
// ajc-woven and the weft-woven jar: the same output, the same advice
// counts. ajc names a method declared in a generic superclass with the
// subclass's type arguments (AbstractCircuitBreaker<java.lang.Integer>.isOpen),
// weft with the erased type (difference 17): those are dropped from ajc's
// lines. (The jar is woven once for the tests over commons-lang3:
// lang3Woven.)
func TestCflowAgainstAspectJOnLang3(t *testing.T) {
	t.Parallel() // see jdkOnce
	w := lang3Woven(t)
	want, got := typeArgsDropped(w.ajc["CflowDiff"]), w.weft["CflowDiff"]
	missing, extra, _ := weaveInfoDiff(want, got, nil)
	perAdvice := advicePerLine(want, true)
	t.Logf("ajc: %d distinct weave-info lines, weft: %d; per advice: %v", len(want), len(got), perAdvice)
	for line := 3; line <= 8; line++ {
		if k := "(line " + string(rune('0'+line)) + ")"; perAdvice[k] == 0 {
			t.Errorf("ajc applied the advice of line %d nowhere", line)
		}
	}
	reportWeaveInfoDiff(t, missing, extra)

	w.checkProgram(t)
	ajCounts, weftCounts := w.aj.counts["CflowCounter"], w.wf.counts["CflowCounter"]
	if ajCounts != weftCounts || strings.Contains(weftCounts, " 0") {
		t.Errorf("advice counts differ or are 0: ajc %s, weft %s", ajCounts, weftCounts)
	}
	t.Logf("advice counts: ajc %s, weft %s", ajCounts, weftCounts)
}

// typeArgs are the type arguments ajc writes after a declaring type.
var typeArgs = regexp.MustCompile(`([A-Za-z0-9_$])<[A-Za-z0-9_.$, <>?]*>\.`)

// typeArgsDropped returns the weave-info lines with the type arguments of
// declaring types dropped.
func typeArgsDropped(lines map[string]int) map[string]int {
	out := map[string]int{}
	for l, n := range lines {
		out[typeArgs.ReplaceAllString(l, "$1.")] += n
	}
	return out
}
