package weaver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

const aroundFolder = "testdata/around"

// readAround returns the files of testdata/around named, by path.
func readAround(t *testing.T, names ...string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(aroundFolder, n))
		if err != nil {
			t.Fatal(err)
		}
		m[n] = string(b)
	}
	return m
}

// TestAroundAgainstAspectJ runs the same program woven by ajc (Around.aj)
// and by weft (around.weft) with around advice at every kind of join point
// weft has — method execution and call, constructor call, array
// construction, field get and set, static and instance — proceeding zero,
// one and two times, with new arguments, a new target, results changed,
// null to a primitive, a wrong result type (ClassCastException), an
// exception caught around proceed, a run-time test (args(String) of an
// Object), two around advice at one call and at one execution, and before and after
// advice of higher and lower precedence at an around's join point: the
// output and the advice counts must be the same, under -Xverify:all.
func TestAroundAgainstAspectJ(t *testing.T) {
	for _, f := range []string{ajcPath, aspectjrt} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ)
		}
	}
	progSrc := readAround(t, "app/Main.java", "app/Point.java", "app/Box.java", "aradv/Count.java")
	app := jvmtest.Compile(t, progSrc, "--release", "8", "-g")
	sep := string(filepath.ListSeparator)

	// ajc, while weft weaves (ajc takes most of the test's time).
	ajOut := t.TempDir()
	cmd := exec.Command(ajcPath, "-1.8", "-inpath", app, "-Xjoinpoints:arrayconstruction",
		"-cp", aspectjrt, "-d", ajOut, filepath.Join(aroundFolder, "Around.aj"))
	ajc := make(chan error, 1)
	var ajcOut []byte
	go func() {
		var err error
		ajcOut, err = cmd.CombinedOutput()
		ajc <- err
	}()

	// weft
	src := runtimeSources()
	for k, v := range readAround(t, "aradv/Adv.java") {
		src[k] = v
	}
	for k, v := range progSrc {
		src[k] = v
	}
	adv := jvmtest.Compile(t, src)
	weftOut := t.TempDir()
	_, warnings := weftWeave(t, app, weftOut, adv, aspectFile{"around.weft", []byte(readAround(t, "around.weft")["around.weft"])})
	wantWarnings := []string{
		"app/Main.class: around.weft:28: around advice not woven at method-call(int app.Main.nullInt()) in app.Main: void around advice at a join point returning int",
		"app/Point.class: around.weft:29: around advice not woven at constructor-execution(void app.Point.<init>(int, int)) in app.Point: around constructor execution is not supported",
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("weft warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", weftOut+sep+adv, "app.Main")
	if err := <-ajc; err != nil {
		t.Fatalf("ajc: %v\n%s", err, ajcOut)
	}
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", ajOut+sep+aspectjrt, "app.Main")
	if got != want {
		t.Errorf("weft's run differs from ajc's:\najc:\n%s\nweft:\n%s", want, got)
	}
	// ajc is the oracle; these lines keep the comparison from being vacuous.
	for _, line := range []string{"twice 22", "greet hi BOB!", "skip -1", "fact 120", "log x\nlog x\nnullInt",
		"nullInt 0", "str java.lang.ClassCastException", "point (11,2)", "array 6", "f 1003", "f 1012", "sf 42",
		"box 99", "big 8", "thrower -3", "two 25", "id aa 1",
		"counts {a-in=8, a-out=4, array=1, b-in=8, b-out=4, big=1, box=1, fact=5, get=2, greet=1, id=1, log=1, log2=2, nullInt=1, point=1, set=2, sget=1, skip=1, str=1, thrower=1, twice=4, two1=1, two2=1}"} {
		if !strings.Contains(want, line) {
			t.Errorf("ajc's run lacks %q:\n%s", line, want)
		}
	}
}
