package pointcut

import (
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// Resolution checks JDK types against the image of Options.JavaHome, and
// by default against the JDK of the java on PATH, as every command does,
// whatever $JAVA_HOME says.
func TestResolveUsesTheGivenJDK(t *testing.T) {
	dir := compileTracker(t)
	src := "aspect A {\n" + `before(java.util.HashMap m): target(m) { example.tracker.Tracker.map(m); }` + "\n}\n"
	f, err := ParseFile("t.weft", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// HashMap passed for a Map parameter is checked through the JDK: a
	// home without one leaves it open, with a warning.
	resolve := func(javaHome string) ErrorList {
		t.Helper()
		p, err := ResolveWith([]*File{f}, Options{AdviceCP: dir, JavaHome: javaHome})
		if err != nil {
			t.Fatal(err)
		}
		return p.Warnings
	}
	noJDK := filepath.Join(t.TempDir(), "no-jdk")
	if w := resolve(noJDK); len(w) != 1 || !contains(w[0].Error(), "cannot check that java.util.HashMap is assignable to parameter 1 (java.util.Map)") {
		t.Errorf("JavaHome %s: warnings %v, want one saying HashMap could not be checked", noJDK, w)
	}
	if w := resolve(jvmtest.JavaHome(t)); len(w) != 0 {
		t.Errorf("JavaHome %s: warnings %v", jvmtest.JavaHome(t), w)
	}
	t.Setenv("JAVA_HOME", noJDK)
	if w := resolve(""); len(w) != 0 {
		t.Errorf("default JDK with JAVA_HOME=%s and java on PATH: warnings %v", noJDK, w)
	}
}
