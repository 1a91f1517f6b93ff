package jdk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// onlyClasses weaves the named classes and leaves the rest unchanged.
type onlyClasses struct {
	names map[string]bool
	inner ClassWeaver
}

func (o onlyClasses) WeaveClass(name string, data []byte) (*Woven, error) {
	ci, err := classfile.ReadClassInfo(name, data)
	if err != nil || !o.names[ci.Name] {
		return &Woven{}, err
	}
	return o.inner.WeaveClass(name, data)
}

// hookSetup builds the JDK-mode runtime and the weftproto.Counter hook.
func hookSetup(t *testing.T) (home string, rt map[string][]byte, adv string) {
	home = jvmtest.JavaHome(t)
	rt, err := BuildRuntime(home, runtimeCache(t))
	if err != nil {
		t.Fatal(err)
	}
	rtDir := t.TempDir()
	for n, b := range rt {
		p := filepath.Join(rtDir, n+".class")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, b, 0o644)
	}
	adv = jvmtest.Compile(t, map[string]string{"weftproto/Counter.java": counterSrc},
		"--patch-module", "java.base="+rtDir, "--add-exports", "java.base/weft.rt=ALL-UNNAMED")
	return home, rt, adv
}

// TestExcludeEmptyFinalize shows why an empty finalize() stays unwoven:
// with java.lang.Object.finalize woven (no longer empty), HotSpot treats
// every object as finalizable and the JVM does not get through a hello
// world; with the exclusion list it runs.
func TestExcludeEmptyFinalize(t *testing.T) {
	home, rt, adv := hookSetup(t)
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	want, _ := jvmtest.Run(t, "-cp", app, "Hello")
	for _, exclude := range []bool{false, true} {
		x := &Exclusions{}
		h := &EntryHook{Owner: "weftproto/Counter", Name: "hit"}
		if exclude {
			h.Exclude = x.Excluded
		}
		out := t.TempDir()
		_, err := WeaveImage(Options{JavaHome: home, Modules: []string{"java.base"}, Out: out,
			Weaver: onlyClasses{map[string]bool{"java/lang/Object": true}, h}, Exclusions: x,
			Runtime: rt, BootAppend: []string{adv}})
		if err != nil {
			t.Fatal(err)
		}
		got, stderr, err := jvmtest.RunErr(t, "@"+filepath.Join(out, "weft.args"), "-Xmx64m",
			"-XX:ErrorFile="+filepath.Join(out, "hs_err.log"), "-cp", app, "Hello")
		ok := err == nil && got == want
		t.Logf("exclusion=%v: exit %v, stdout %q, stderr %.300q", exclude, err, got, stderr)
		if ok != exclude {
			t.Errorf("exclusion=%v: run ok=%v, want %v", exclude, ok, exclude)
		}
		if exclude && !x.Excluded("java/lang/Object", "finalize", "()V") {
			t.Error("Object.finalize is not on the exclusion list")
		}
	}
	if (&Exclusions{}).Excluded("java/lang/Object", "finalize", "()V") {
		t.Error("a class not yet seen is excluded")
	}
}
