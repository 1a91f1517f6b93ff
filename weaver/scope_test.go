package weaver

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver/scope"
)

// TestScopeGuava weaves guava with advice at every execution, in the scope
// com/google/common/collect/**: only classes of that package change (and
// get sisters); every other entry is the input's byte for byte.
func TestScopeGuava(t *testing.T) {
	const guava = "/usr/share/java/guava.jar"
	src, err := classpath.OpenSource(guava, jvmtest.JavaHome(t))
	if err != nil {
		t.Fatalf("%v: install Debian's libguava-java (bash .ci/run does)", err)
	}
	defer src.Close()
	s, err := scope.New(scope.Pattern{Glob: "com/google/common/collect/**", Where: "--include"})
	if err != nil {
		t.Fatal(err)
	}
	rules := testMatcher{{kind: advice.MethodExecution, adv: adv(advice.Before, 0, "before", "(I)V", val(advice.JoinPointID, 0, "I"))}}
	w := New(rules, []*advice.Advice{rules[0].adv}, Options{Hierarchy: classpath.NewHierarchy(src, mustJDK(t)), Scope: s})
	out := filepath.Join(t.TempDir(), "guava.jar")
	st, err := w.WeavePath(guava, out)
	if err != nil {
		t.Fatal(err)
	}
	in, outs := jvmtest.JarEntries(t, guava), jvmtest.JarEntries(t, out)
	changed, kept, sisters := 0, 0, 0
	for name, b := range outs {
		orig, ok := in[name]
		inScope := strings.HasPrefix(name, "com/google/common/collect/")
		switch {
		case !ok && inScope && strings.HasSuffix(name, SisterSuffix+".class"):
			sisters++
		case !ok:
			t.Errorf("%s: added, out of the scope", name)
		case bytes.Equal(orig, b):
			kept++
		case inScope:
			changed++
		default:
			t.Errorf("%s: changed, out of the scope", name)
		}
	}
	if changed < 100 || sisters != changed || len(in)+sisters != len(outs) {
		t.Errorf("%d classes changed, %d sisters, %d kept; %d entries in, %d out", changed, sisters, kept, len(in), len(outs))
	}
	left := s.Left()["outside the includes"]
	t.Logf("%d woven, %d kept byte for byte; %d classes outside the includes; stats %d woven", changed, kept, left, st.Woven)
	if left < 500 {
		t.Errorf("the scope left out %d classes, want guava's classes outside collect", left)
	}
}
