package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

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
// their classes, bytecodes counted, one woven JDK in the shared cache for
// both.
var smallProfile = []string{"--bytecodes", "--modules", "java.base", "--include", "Work", "--include", "demo/**"}

// workBytecodes are the bytecodes Work's contexts count for Work 100, read
// off javac's code: step is iload_0 iconst_1 iadd ireturn; heavy runs
// 4 + 3 × 51 + 5 × 50 + 2 = 409, light 4 + 3 × 21 + 5 × 20 + 2 = 169; main
// 4 + 6 × 101 + 6 × 100 + 2 + 3 × 101 + 6 × 100 + 4.
var workBytecodes = map[string]int64{
	"Work.main":                      2119,
	"Work.main;Work.heavy":           100 * 409,
	"Work.main;Work.heavy;Work.step": 100 * 50 * 4,
	"Work.main;Work.light":           100 * 169,
	"Work.main;Work.light;Work.step": 100 * 20 * 4,
}

// checkWorkBytecodes checks the bytecodes of Work 100's contexts in the
// profile in dir.
func checkWorkBytecodes(t *testing.T, dir string) {
	t.Helper()
	m := readMetric(t, dir, "bytecodes")
	for path, want := range workBytecodes {
		if got := at(m, path); got != want {
			t.Errorf("%s: %s ran %d bytecodes, want %d", dir, path, got, want)
		}
	}
}

// pprofSelf sums, in the pprof file at path, the values of sample type
// typ of the samples whose leaf frame is fn.
func pprofSelf(t *testing.T, path, typ, fn string) int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	k := slices.IndexFunc(p.SampleType, func(v *profile.ValueType) bool { return v.Type == typ })
	if k < 0 {
		t.Fatalf("%s: no sample type %s", path, typ)
	}
	var n int64
	for _, s := range p.Sample {
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 && s.Location[0].Line[0].Function.Name == fn {
			n += s.Value[k]
		}
	}
	return n
}

// diffRow is a row of weft diff's table: the change, relative change, old
// and new values, and the context.
var diffRow = regexp.MustCompile(`(?m)^\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)  (.*)$`)

// TestDiff profiles a program three times, the third its input making
// heavy run 10 % more often: each of Work's contexts counts the bytecodes
// its code ran, exactly, and the same in both runs of the same input, the
// JDK's code called from Work's included; the top frames by bytecodes
// start with Work.heavy, and pprof's file has Work.step's; weft diff names Work.step under
// Work.heavy first (500 more calls, +10 %), heavy second, and by bytecodes
// heavy first (+10 %, 10 × 409 more), then step; writes the differential
// flame graph; and with --fail-over 5 exits 1 naming the contexts that
// grew, with --fail-over 20 exits 0.
func TestDiff(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"Work.java": workSrc})
	env := []string{sharedCache(t)}
	dir := t.TempDir()
	for _, run := range []struct{ out, n string }{{"base", "100"}, {"again", "100"}, {"head", "110"}} {
		_, stderr, code := weft(t, env, append(append([]string{"profile", "--no-time"}, smallProfile...), "--write-folded", "-o", filepath.Join(dir, run.out),
			"--pprof", filepath.Join(dir, run.out+".pb.gz"), "--", jvmtest.Java(t), "-cp", app, "Work", run.n)...)
		if code != 0 {
			t.Fatalf("profile %s: exit %d\n%s", run.n, code, stderr)
		}
		if top := regexp.MustCompile(`ranked by the bytecode instructions they ran \(bytecodes\):\n.*\n +40900 .* Work.heavy\n`); run.out == "base" && !top.MatchString(stderr) {
			t.Errorf("no top frames by bytecodes, Work.heavy first with 40900:\n%s", stderr)
		}
	}
	checkWorkBytecodes(t, filepath.Join(dir, "base"))
	if n := pprofSelf(t, filepath.Join(dir, "base.pb.gz"), "bytecodes", "Work.step"); n != 100*70*4 {
		t.Errorf("pprof: Work.step ran %d bytecodes, want %d", n, 100*70*4)
	}
	base, again := readMetric(t, filepath.Join(dir, "base"), "bytecodes"), readMetric(t, filepath.Join(dir, "again"), "bytecodes")
	for path, n := range base {
		if strings.Contains(path, "Work.") && again[path] != n {
			t.Errorf("%s: %d bytecodes, then %d in a second run", path, n, again[path])
		}
	}
	stdout, stderr, code := weft(t, nil, "diff", "-o", "", "--metric", "bytecodes", "--top", "2", filepath.Join(dir, "base"), filepath.Join(dir, "head"))
	rows := diffRow.FindAllStringSubmatch(stdout, -1)
	if code != 0 || len(rows) < 2 || rows[0][1] != "+4090" || rows[0][2] != "+10.0%" || rows[0][5] != "Work.heavy < Work.main" ||
		rows[1][1] != "+2000" || rows[1][5] != "Work.step < Work.heavy" {
		t.Errorf("weft diff --metric bytecodes: exit %d, rows %q\nstdout:\n%s\nstderr:\n%s", code, rows, stdout, stderr)
	}
	html := filepath.Join(dir, "diff.html")
	stdout, stderr, code = weft(t, nil, "diff", "-o", html, "--top", "3", filepath.Join(dir, "base"), filepath.Join(dir, "head", "profile.cct"))
	rows = diffRow.FindAllStringSubmatch(stdout, -1)
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
