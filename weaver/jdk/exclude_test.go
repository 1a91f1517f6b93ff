package jdk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
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
		_, err := WeaveModules(Options{JavaHome: home, Modules: []string{"java.base"}, Out: out,
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

// TestExcludeJFRInstrumentors: the methods of JFR's instrumentors (which
// JFR copies into java.base classes when a recording starts) are
// excluded, found by their annotation; other jdk.jfr classes are not.
// e2e's TestHarshVersionAndHello starts a recording on the woven image
// (without this rule the JVM does not start: IllegalAccessError).
func TestExcludeJFRInstrumentors(t *testing.T) {
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t), "jdk.jfr")
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	x := &Exclusions{}
	for name, want := range map[string]bool{
		"jdk/jfr/internal/instrument/FileChannelImplInstrumentor": true,
		"jdk/jfr/internal/instrument/ThrowableTracer":             false,
		"jdk/jfr/Recording": false,
	} {
		c := noteClass(t, img, x, name)
		for _, m := range c.Methods {
			if got := x.Excluded(name, c.Pool.Utf8(m.Name), c.Pool.Utf8(m.Desc)); got != want {
				t.Errorf("%s.%s excluded: %v, want %v", name, c.Pool.Utf8(m.Name), got, want)
			}
		}
	}
}

// TestExcludeMountTransitions: on JDK 25, the methods that mount, unmount
// and yield a virtual thread are excluded, found by their annotations
// (VirtualThread's mount, unmount and runContinuation, the task wrapper),
// and so is every method of Continuation; the rest of VirtualThread (park,
// yieldContinuation, run: they run as the virtual thread, before and after
// a yield alike) is woven. e2e's TestJDK25VirtualThreads shows why.
func TestExcludeMountTransitions(t *testing.T) {
	img, err := classpath.OpenJDK(jvmtest.JDK25(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	x := &Exclusions{}
	classes := []string{"java/lang/VirtualThread", "java/lang/VirtualThread$VThreadContinuation$1", "jdk/internal/vm/Continuation"}
	for _, name := range classes {
		noteClass(t, img, x, name)
	}
	for _, m := range []struct {
		class, name, desc string
		want              bool
	}{
		{"java/lang/VirtualThread", "mount", "()V", true},
		{"java/lang/VirtualThread", "unmount", "()V", true},
		{"java/lang/VirtualThread", "runContinuation", "()V", true},
		{"java/lang/VirtualThread$VThreadContinuation$1", "run", "()V", true},
		{"jdk/internal/vm/Continuation", "run", "()V", true},
		{"jdk/internal/vm/Continuation", "yield0", "(Ljdk/internal/vm/ContinuationScope;Ljdk/internal/vm/Continuation;)Z", true},
		{"jdk/internal/vm/Continuation", "isStarted", "()Z", true},
		{"java/lang/VirtualThread", "park", "()V", false},
		{"java/lang/VirtualThread", "yieldContinuation", "()Z", false},
		{"java/lang/VirtualThread", "run", "(Ljava/lang/Runnable;)V", false},
		{"java/lang/VirtualThread", "afterYield", "()V", false},
	} {
		if got := x.Excluded(m.class, m.name, m.desc); got != m.want {
			t.Errorf("%s.%s%s excluded: %v, want %v", m.class, m.name, m.desc, got, m.want)
		}
	}
}

// noteClass reads class name of img, lets x learn it as the image driver
// does (Notable, Note) and returns it parsed.
func noteClass(t *testing.T, img *classpath.ImageSource, x *Exclusions, name string) *classfile.Class {
	t.Helper()
	data, err := img.Class(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	if Notable(data) {
		x.Note(c)
	}
	return c
}
