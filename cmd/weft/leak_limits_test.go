package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// manyContextsSrc allocates at 3,000 sites of its own, each in a context
// of its own, then keeps objects made at one more site, last.
func manyContextsSrc() string {
	var b strings.Builder
	b.WriteString("public class Many {\n    static final java.util.List<Object> KEEP = new java.util.ArrayList<>();\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "    static Object m%d() { return new int[%d]; }\n", i, i%7+1)
	}
	b.WriteString("    public static void main(String[] a) {\n        long n = 0;\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "        n += ((int[]) m%d()).length;\n", i)
	}
	b.WriteString("        for (int i = 0; i < 20_000; i++) KEEP.add(new StringBuilder(\"kept\"));\n")
	b.WriteString("        System.out.println(n + \" \" + KEEP.size());\n    }\n}\n")
	return b.String()
}

// TestLeakContextTableFull: a program with more contexts than the leak
// tracker's table holds (a thirty-second of a 16 MB heap: 2,048, the
// tool's own heap share turned off) runs to its end, and the report says
// the table filled, how many sites' allocations lost their calling frames
// and how many allocations that was, in leak.txt and leak.json; the
// context's row says its frames are lost. Past the table, new contexts
// were folded into their site without a word: every growing context of
// such runs had no calling frames.
func TestLeakContextTableFull(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"Many.java": manyContextsSrc()})
	out := filepath.Join(t.TempDir(), "leak")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, "leak", "--patches", "--modules", "java.base", "--tool-heap", "0",
		"-o", out, "--", "java", "-Xmx16m", "-cp", app, "Many")
	n := 0
	for i := range 3000 {
		n += i%7 + 1
	}
	if code != 0 || stdout != fmt.Sprintf("%d 20000\n", n) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var r struct {
		MaxContexts, FoldedContexts, FoldedAllocations int64
		Live                                           []struct{ FramesLost bool }
	}
	b, err := os.ReadFile(filepath.Join(out, "leak.json"))
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxContexts != 2048 || r.FoldedContexts == 0 || r.FoldedAllocations == 0 {
		t.Errorf("leak.json: %d contexts at most, %d folded with %d allocations: want 2048, and some folded", r.MaxContexts,
			r.FoldedContexts, r.FoldedAllocations)
	}
	txt, _ := os.ReadFile(filepath.Join(out, "leak.txt"))
	const want = "warning: the table of 2,048 contexts was full: later contexts were counted at their site alone, without calling frames, at "
	if !strings.Contains(string(txt), want) {
		t.Errorf("leak.txt does not say %q:\n%s", want, txt)
	}
	// The kept StringBuilders' context came after the table filled: its
	// row, live or growing (as sampling saw it), says its frames are lost.
	if !strings.Contains(string(b), `"framesLost":true`) {
		t.Errorf("leak.json: no row's frames lost")
	}
}
