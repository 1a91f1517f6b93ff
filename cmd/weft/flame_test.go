package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlameCommand: folded stacks round-trip through weft flame (lines of
// one context merged), and the HTML, speedscope and top outputs are
// written (the page itself is checked in a browser by package flame).
func TestFlameCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "calls.folded")
	os.WriteFile(in, []byte("main;a;b 5\nmain;a;c 3\nmain;a;b 2\nmain 1\n"), 0o644)
	out := filepath.Join(dir, "again.folded")
	page := filepath.Join(dir, "p.html")
	ss := filepath.Join(dir, "p.json")
	stdout, _, err := weftInProcess("flame", in, "--folded", out, "-o", page, "--speedscope", ss, "--top", "2")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if want := "main 1\nmain;a;b 7\nmain;a;c 3\n"; string(b) != want {
		t.Errorf("folded:\n%s\nwant:\n%s", b, want)
	}
	for _, f := range []string{page, ss} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(stdout, "    7   63.6%  b\n") || !strings.Contains(stdout, "   11  100.0%  main\n") {
		t.Errorf("top:\n%s", stdout)
	}

	// A calling-context file in canonical order: the page streamed is the
	// page of the tree read whole (with speedscope asked too).
	cct := filepath.Join(dir, "p.cct")
	os.WriteFile(cct, []byte("# weft cct 1\nmetrics calls objects\nf main\nn 0 0 1 0\nf a\nn 1 1 2 3\nf b\nn 2 2 4 0\nn 1 2 1 1\n"), 0o644)
	streamed, whole := filepath.Join(dir, "s.html"), filepath.Join(dir, "w.html")
	if ok, err := streamFlame(&flameOptions{out: streamed}, []string{cct}); !ok || err != nil {
		t.Fatalf("weft flame did not stream the page: %v", err)
	}
	if _, _, err := weftInProcess("flame", cct, "-o", whole, "--speedscope", ss); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(streamed)
	b, _ = os.ReadFile(whole)
	if len(a) == 0 || string(a) != string(b) || !strings.Contains(string(a), "weft flame graph: calls, objects") {
		t.Errorf("the streamed page (%d bytes) is not the page of the tree (%d bytes)", len(a), len(b))
	}

	bad := filepath.Join(dir, "bad.folded")
	os.WriteFile(bad, []byte("main;a 1\nmain;b x\n"), 0o644)
	if _, _, err := weftInProcess("flame", bad); err == nil || !strings.Contains(err.Error(), bad+":2: ") {
		t.Errorf("bad input: %v, want an error at %s:2", err, bad)
	}
}
