package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// workSrc calls heavy args[0] times and light 100 times, each a loop of
// small calls.
const workSrc = `public class Work {
    static int step(int i) { return i + 1; }
    static int heavy() { int s = 0; for (int i = 0; i < 50; i++) s = step(s); return s; }
    static int light() { int s = 0; for (int i = 0; i < 20; i++) s = step(s); return s; }
    public static void main(String[] a) {
        int s = 0;
        for (int i = 0; i < Integer.parseInt(a[0]); i++) s += heavy();
        for (int i = 0; i < 100; i++) s += light();
        System.out.println(s);
    }
}
`

// smallProfile are the options of the tests that profile a small program
// of their own (TestDiff's Work, TestProfileMaven's demo): java.base and
// their classes, one woven JDK in the shared cache for both.
var smallProfile = []string{"--modules", "java.base", "--include", "Work", "--include", "demo/**"}

// TestDiff profiles a program twice, its input making heavy run 10 % more
// often the second time: weft diff names Work.step under Work.heavy first
// (500 more calls, +10 %), heavy second; writes the differential flame
// graph; and with --fail-over 5 exits 1 naming the contexts that grew,
// with --fail-over 20 exits 0.
func TestDiff(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"Work.java": workSrc})
	env := []string{sharedCache(t)}
	dir := t.TempDir()
	for _, run := range []struct{ out, n string }{{"base", "100"}, {"head", "110"}} {
		if _, stderr, code := weft(t, env, append(append([]string{"profile", "--no-time"}, smallProfile...), "-o", filepath.Join(dir, run.out), "--",
			jvmtest.Java(t), "-cp", app, "Work", run.n)...); code != 0 {
			t.Fatalf("profile %s: exit %d\n%s", run.n, code, stderr)
		}
	}
	html := filepath.Join(dir, "diff.html")
	stdout, stderr, code := weft(t, nil, "diff", "-o", html, "--top", "3", filepath.Join(dir, "base"), filepath.Join(dir, "head", "profile.cct"))
	rows := regexp.MustCompile(`(?m)^\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)  (.*)$`).FindAllStringSubmatch(stdout, -1)
	if code != 0 || len(rows) < 2 || rows[0][1] != "+500" || rows[0][2] != "+10.0%" || rows[0][5] != "Work.step < Work.heavy" ||
		rows[1][1] != "+10" || rows[1][5] != "Work.heavy < Work.main" {
		t.Errorf("weft diff: exit %d, rows %q\nstdout:\n%s\nstderr:\n%s", code, rows, stdout, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `{"diff":true,"data":{"metrics":["calls","calls (old)"]`) {
		t.Errorf("differential flame graph: %v\n%.300s", err, page)
	}
	stdout, stderr, code = weft(t, nil, "diff", "-o", "", "--fail-over", "5", filepath.Join(dir, "base"), filepath.Join(dir, "head"))
	if code != 1 || !strings.Contains(stdout, "Work.main;Work.heavy: 5100 → 5610 (+10.00%)") || !strings.Contains(stderr, "grown over --fail-over") {
		t.Errorf("--fail-over 5: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, stderr, code = weft(t, nil, "diff", "-o", "", "--fail-over", "20", filepath.Join(dir, "base"), filepath.Join(dir, "head")); code != 0 {
		t.Errorf("--fail-over 20: exit %d\n%s", code, stderr)
	}
}
