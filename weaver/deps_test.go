package weaver

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoGrammarDependency keeps the weaver independent of the aspect
// language: it talks to it through package advice only.
func TestNoGrammarDependency(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "participle") || strings.HasSuffix(p, "weft/pointcut") {
			t.Errorf("the weaver depends on %s; it must see the aspect language only through package advice", p)
		}
	}
}
