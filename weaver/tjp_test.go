package weaver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
)

const tjpFolder = "testdata/tjp"

// TestJoinPointAgainstAspectJ weaves the same program with the same
// before and after advice passing thisJoinPoint, by ajc (Tjp.aj) and by
// weft (tjp.weft), the advice printing everything the join point tells:
// toString, toShortString, toLongString, the signature's forms, name,
// declaring type and modifiers, kind, source location, this, target, the
// arguments and the static part's short and long forms, at calls,
// executions, constructor calls and executions and array constructions.
// Both runs must print the same, but for the kind of an array
// construction (docs/language.md: weft's kind is array-construction).
func TestJoinPointAgainstAspectJ(t *testing.T) {
	for _, f := range []string{ajcPath, aspectjrt} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(tjpFolder, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": read("Main.java")}, "--release", "8", "-g")
	print := read("Print.java.in")
	sep := string(filepath.ListSeparator)

	// ajc, weaving the class files as weft does.
	ajAdv := jvmtest.Compile(t, map[string]string{"tjpadv/Print.java": strings.ReplaceAll(print, "PKG", "org.aspectj.lang")},
		"--release", "8", "-cp", aspectjrt)
	ajOut := t.TempDir()
	cmd := exec.Command(ajcPath, "-1.8", "-inpath", app, "-Xjoinpoints:arrayconstruction",
		"-cp", aspectjrt+sep+ajAdv, "-d", ajOut, filepath.Join(tjpFolder, "Tjp.aj"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ajc: %v\n%s", err, b)
	}
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", strings.Join([]string{ajOut, ajAdv, aspectjrt}, sep), "app.Main")

	// weft
	src := runtimeSources()
	src["tjpadv/Print.java"] = strings.ReplaceAll(print, "PKG", "weft.rt")
	adv := jvmtest.Compile(t, src)
	f, err := pointcut.ParseFile("tjp.weft", []byte(read("tjp.weft")))
	if err != nil {
		t.Fatal(err)
	}
	h := NewMethodHierarchy(classfile.NewHierarchy(classfile.NewDirSource(app), mustJDK(t)),
		classfile.NewDirSource(app), mustJDK(t))
	prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: adv, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	weftOut := t.TempDir()
	st, err := New(prog, prog.Advice(), Options{Hierarchy: h}).WeavePath(app, weftOut)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range st.Warnings {
		t.Errorf("weft warning: %s", w)
	}
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", weftOut+sep+adv, "app.Main")

	// The only difference by design: an array construction's kind.
	got = strings.ReplaceAll(got, "kind array-construction", "kind constructor-call")
	if n := strings.Count(want, "\nbefore "); n < 50 {
		t.Fatalf("ajc's run printed %d join points: the comparison is vacuous\n%s", n, want)
	}
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				lo := max(0, i-10)
				t.Fatalf("weft and ajc differ at line %d:\nweft: %s\najc:  %s\n\najc's output before:\n%s",
					i+1, g, w, strings.Join(wl[lo:i], "\n"))
			}
		}
	}
}
