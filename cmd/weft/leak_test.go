package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestLeakDemo runs README's demo (examples/leak/demo, as run.sh does)
// with weft leak's default options but for the JDK's modules, java.base
// only (all the demo uses): its four growing contexts — the cache's
// HashMap nodes, the boxed Integer keys, the summaries' Strings and their
// byte arrays, three of them allocated inside the JDK, one under string
// concatenation's method handles — each name Requests.handle, however many
// JDK frames lie between, and no hidden frame (a lambda form) is among
// them.
func TestLeakDemo(t *testing.T) {
	src, err := os.ReadFile("../../examples/leak/demo/Requests.java")
	if err != nil {
		t.Fatal(err)
	}
	app := jvmtest.Compile(t, map[string]string{"Requests.java": string(src)})
	out := filepath.Join(t.TempDir(), "leak")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, "leak", "--patches", "--modules", "java.base", "-o", out,
		"--", "java", "-Xmx32m", "-cp", app, "Requests")
	if code != 0 || stdout != "50000 cached, 1188890 bytes of summaries\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	r := readLeakReport(t, out)
	sites := map[string]bool{}
	for _, g := range r.Growing {
		sites[g.Site] = true
		handle := false
		for _, f := range g.Context {
			handle = handle || f == "Requests.handle"
			if flame.KindOf(f) == flame.HiddenFrame {
				t.Errorf("growing %s: a hidden frame in its context %v", g.Site, g.Context)
			}
		}
		if !handle {
			t.Errorf("growing %s: no Requests.handle in its context %v", g.Site, g.Context)
		}
	}
	for _, s := range []string{"java.util.HashMap$Node", "java.lang.Integer", "java.lang.String", "byte[]"} {
		if !sites[s] {
			t.Errorf("no growing context of %s: %+v\n%s", s, r.Growing, stderr)
		}
	}
}

// leakReport is what the tests read of a weft leak's leak.json.
type leakReport struct {
	Growing []struct {
		Site    string
		Context []string
	}
}

// readLeakReport reads the leak.json weft leak wrote in out.
func readLeakReport(t *testing.T, out string) leakReport {
	t.Helper()
	var r leakReport
	b, err := os.ReadFile(filepath.Join(out, "leak.json"))
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLeakJIT: weft leak takes weft profile's JIT policies, and says which
// it takes when given another, before weaving anything.
func TestLeakJIT(t *testing.T) {
	if _, stderr, code := weft(t, nil, "leak", "--jit", "fast", "--", "java", "-version"); code == 0 || !strings.Contains(stderr, `--jit "fast": want c1, delayed or stock`) {
		t.Errorf("--jit fast: exit %d, stderr:\n%s", code, stderr)
	}
}
