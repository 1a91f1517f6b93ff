package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/launch/jvmopts"
)

const profSrc = `import java.util.concurrent.*;
public class Prof {
    static void empty() {}
    static void caller(int n) { for (int i = 0; i < n; i++) empty(); }
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    static int work() { return fib(12); }
    static void warm() { for (int i = 0; i < 3; i++) caller(100000); }
    static void measured() { caller(100000); }
    public static void main(String[] a) throws Exception {
        System.out.println("fib " + fib(15));
        int[][] grid = new int[3][4];
        long[][][] cube = new long[2][3][5];
        for (int i = 0; i < 3; i++) new Object();
        warm(); // the JIT compiles empty() and the advice first: calibration measures compiled code
        measured();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        java.util.List<Future<Integer>> fs = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) fs.add(pool.submit(Prof::work));
        int sum = 0;
        for (Future<Integer> f : fs) sum += f.get();
        pool.shutdown();
        System.out.println("pool " + sum + " " + grid.length + cube.length);
    }
}`

const snapSrc = `public class Snap {
    public static void main(String[] a) throws Exception {
        java.nio.file.Path cct = java.nio.file.Paths.get(System.getenv("WEFT_PROFILE_OUT"), "profile.cct");
        for (int i = 0; i < 50 && !java.nio.file.Files.exists(cct); i++) Thread.sleep(100);
        System.out.println("snapshot while running: " + java.nio.file.Files.exists(cct));
        Thread[] ts = new Thread[3];
        for (int i = 0; i < ts.length; i++) (ts[i] = new Thread(Snap::work)).start();
        for (Thread t : ts) t.join();
    }
    static void work() { for (int i = 0; i < 5; i++) step(); new Object(); }
    static void step() {}
}`

// TestProfileSnapshotsAndCounts: --period writes the profile while the
// program runs (the program sees it); --no-time counts without a clock,
// the threads' trees merged as they are written, exactly; the default JIT
// policy is C1's, and an unknown policy, way of timing or interval is an
// error.
func TestProfileSnapshotsAndCounts(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"Snap.java": snapSrc})
	out := filepath.Join(t.TempDir(), "prof")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, "profile", "--patches", "-o", out, "--no-time", "--period", "0.2",
		"--write-folded", "-v", "--modules", "java.base", "--", "java", "-cp", app, "Snap")
	if code != 0 || stdout != "snapshot while running: true\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.txt"))
	if !strings.Contains(string(summary), "calibration inner 0 ns outer 0 ns") {
		t.Errorf("--no-time calibrated a clock:\n%s", summary)
	}
	if !strings.Contains(stderr, "weft: profile in "+out) || strings.Contains(stderr, "top 10 frames by") {
		t.Errorf("stderr (where the profile is, no table of frames by a time not measured):\n%s", stderr)
	}
	// The JIT policy's options and the collector, as weft computes them
	// for this command line (their values: TestTieredC1ThreadsMatchTheJVM,
	// TestCollectorOptions).
	line, err := javacmd.Parse("java", []string{"-cp", app, "Snap"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jit, err := jvmopts.JIT("c1", line)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{" -XX:TieredStopAtLevel=1 "}
	if !strings.Contains(strings.Join(jit, " "), "-XX:CICompilerCount=") {
		t.Errorf("--jit c1 sets no C1 thread count: %q", jit)
	}
	for _, o := range append(jit, jvmopts.Collector(line)...) {
		want = append(want, " "+o+" ")
	}
	for _, o := range want {
		if !strings.Contains(stderr, o) {
			t.Errorf("the JVM's command line (-v) has no %s:\n%s", o, stderr)
		}
	}
	calls, objects := readMetric(t, out, "calls"), readMetric(t, out, "objects")
	if w, s, o := at(calls, "Snap.work"), at(calls, "Snap.work;Snap.step"), at(objects, "Snap.work;new java.lang.Object"); w != 3 || s != 15 || o != 3 {
		t.Errorf("3 threads' trees merged: work %d, step %d, objects %d; want 3, 15, 3", w, s, o)
	}
	checkCanonical(t, out)
	for _, c := range []struct{ flags, want string }{
		{"--jit fast", `--jit "fast": want c1, delayed or stock`},
		{"--time often", `--time "often": want sampled or exact`},
		{"--interval 5", `--interval 5: want 10 microseconds or more`},
	} {
		args := append(append([]string{"profile"}, strings.Fields(c.flags)...), "--", "java", "-version")
		if _, stderr, code := weft(t, nil, args...); code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr:\n%s", c.flags, code, stderr)
		}
	}
	// A JVM that never starts writes no profile: weft, which follows the
	// file as the JVM writes it, says so once the JVM has ended, and
	// leaves no page.
	none := filepath.Join(t.TempDir(), "none")
	_, stderr, code = weft(t, []string{sharedCache(t)}, "profile", "--patches", "-o", none, "--no-time",
		"--modules", "java.base", "--", "java", "-XX:+NoSuchOption", "-version")
	if code == 0 || !strings.Contains(stderr, "the profiler wrote nothing to "+none) {
		t.Errorf("a JVM that does not start: exit %d, stderr:\n%s", code, stderr)
	}
	if fileExists(filepath.Join(none, "profile.html")) {
		t.Error("a page was left for a profile never written")
	}
}

// readMetric reads a folded file into stack → value.
func readMetric(t *testing.T, dir, metric string) map[string]int64 {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, metric+".folded"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]int64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		i := strings.LastIndexByte(sc.Text(), ' ')
		v, _ := strconv.ParseInt(sc.Text()[i+1:], 10, 64)
		m[sc.Text()[:i]] += v
	}
	return m
}

// below adds the values of the contexts at and below path (";"-joined
// frames, matched at frame boundaries anywhere in a stack).
func below(m map[string]int64, path string) (n int64) {
	for s, v := range m {
		if s == path || strings.HasPrefix(s, path+";") || strings.Contains(s, ";"+path+";") || strings.HasSuffix(s, ";"+path) {
			n += v
		}
	}
	return n
}

// at adds the values of the contexts that end in path.
func at(m map[string]int64, path string) (n int64) {
	for s, v := range m {
		if s == path || strings.HasSuffix(s, ";"+path) {
			n += v
		}
	}
	return n
}

// TestProfileCommand profiles a program with a known call tree and known
// allocations on a woven java.base: every count is exact, thread pool
// workers' trees merge to exact totals, with --time exact the profiler's
// calibrated cost is taken out of the time of an empty method called
// 100,000 times, and the flame graph is written.
func TestProfileCommand(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"Prof.java": profSrc}, "-g")
	out := filepath.Join(t.TempDir(), "prof")
	cpu := filepath.Join(t.TempDir(), "weft.pprof")
	pprofFile := filepath.Join(t.TempDir(), "prof.pb.gz")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, "profile", "--cpuprofile", cpu, "--patches", "-o", out, "--write-folded", "--time", "exact",
		"--pprof", pprofFile, "--modules", "java.base", "--", "java", "-cp", app, "Prof")
	checkCPUProfile(t, cpu)
	checkPprof(t, pprofFile, "Prof.empty", 400000) // warm()'s 3 × 100,000 and measured()'s 100,000, in every context
	if code != 0 || stdout != "fib 610\npool 1152 32\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "weft: profile in "+out+": open "+filepath.Join(out, "profile.html")) {
		t.Errorf("stderr does not say where the profile is:\n%s", stderr)
	}
	calls := readMetric(t, out, "calls")
	for _, c := range []struct {
		count func(map[string]int64, string) int64
		path  string
		want  int64
	}{
		{below, "Prof.main;Prof.fib", 1973}, // fib(15): 2*fib(16)-1 executions
		{at, "Prof.main;Prof.measured;Prof.caller;Prof.empty", 100000},
		{at, "Prof.work", 8},                   // in the pool's threads
		{below, "Prof.work;Prof.fib", 8 * 465}, // fib(12) each
		{at, "Prof.main", 1},
	} {
		if got := c.count(calls, c.path); got != c.want {
			t.Errorf("calls of %s: %d, want %d", c.path, got, c.want)
		}
	}
	arrays, elements, objects := readMetric(t, out, "arrays"), readMetric(t, out, "elements"), readMetric(t, out, "objects")
	for _, c := range []struct {
		m    map[string]int64
		what string
		path string
		want int64
	}{
		{arrays, "arrays", "Prof.main;new int[][]", 1 + 3},
		{elements, "elements", "Prof.main;new int[][]", 3 + 3*4},
		{arrays, "arrays", "Prof.main;new long[][][]", 1 + 2 + 2*3},
		{elements, "elements", "Prof.main;new long[][][]", 2 + 2*3 + 2*3*5},
		{objects, "objects", "Prof.main;new java.lang.Object", 3},
	} {
		if got := c.m[c.path]; got != c.want {
			t.Errorf("%s at %s: %d, want %d", c.what, c.path, got, c.want)
		}
	}
	// The empty method's own time is all the profiler's: compensation takes
	// the calibrated cost per execution out of it. How near zero that comes
	// depends on the machine's load (logged; on a quiet machine, 0-10 %).
	const empty = "Prof.main;Prof.measured;Prof.caller;Prof.empty"
	raw := readMetric(t, out, "wall-raw-ns")[empty]
	comp := readMetric(t, out, "wall-ns")[empty]
	summary, _ := os.ReadFile(filepath.Join(out, "summary.txt"))
	var inner, outer int64
	if i := strings.Index(string(summary), "calibration inner "); i >= 0 {
		fmt.Sscanf(string(summary[i:]), "calibration inner %d ns outer %d ns", &inner, &outer)
	}
	t.Logf("empty() x 100000: measured %d ns, compensated %d ns (%.1f%%); calibrated inner %d ns, outer %d ns",
		raw, comp, 100*float64(comp)/float64(raw), inner, outer)
	// One tree per thread: main, the 4 pool workers and a few of the JVM's
	// (a ThreadLocal for the state lost it when advice ran inside the
	// thread's own ThreadLocal map changes: dozens of trees).
	var threads int
	fmt.Sscanf(string(summary), "threads %d", &threads)
	if threads < 5 || threads > 12 {
		t.Errorf("%d threads' trees, want main's, the 4 workers' and a few of the JVM's:\n%s", threads, summary)
	}
	if inner <= 0 || raw <= 0 || comp != max(0, raw-inner*100000) {
		t.Errorf("empty(): compensated %d ns, want the measured %d less 100000 x the calibrated %d ns", comp, raw, inner)
	}
	if st, err := os.Stat(filepath.Join(out, "profile.html")); err != nil || st.Size() < 10000 {
		t.Errorf("flame graph: %v", err)
	}
	checkCanonical(t, out)
}

// checkCanonical: the profiler writes its tree in canonical order, so that
// weft profile streams the flame graph from it (flame.WriteCCTHTML), and
// that is the page weft flame makes of the tree read whole.
func checkCanonical(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "profile.cct"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var streamed, whole bytes.Buffer
	if err := flame.WriteCCTHTML(&streamed, f, "weft profile"); err != nil {
		t.Fatalf("the profiler's tree does not stream: %v", err)
	}
	p, err := readFolded([]string{filepath.Join(dir, "profile.cct")})
	if err != nil {
		t.Fatal(err)
	}
	if err := flame.WriteHTML(&whole, p, "weft profile"); err != nil {
		t.Fatal(err)
	}
	if streamed.String() != whole.String() {
		t.Errorf("the streamed page is not the page of the tree read whole")
	}
	if page, _ := os.ReadFile(filepath.Join(dir, "profile.html")); string(page) != streamed.String() {
		t.Errorf("profile.html is not the streamed page")
	}
}

// checkPprof reads weft's pprof output with go tool pprof: the calls of
// function fn (its flat count) are want, and every metric of the profile
// is a sample type.
func checkPprof(t *testing.T, path, fn string, want int64) {
	t.Helper()
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goCmd, "tool", "pprof", "-top", "-nodecount=10000", "-sample_index=calls", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof %s: %v\n%s", path, err, out)
	}
	found := false
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 6 && f[5] == fn {
			found = true
			if f[0] != strconv.FormatInt(want, 10) {
				t.Errorf("go tool pprof: %s called %s times, want %d:\n%s", fn, f[0], want, line)
			}
		}
	}
	if !found {
		t.Errorf("go tool pprof -top: no %s in\n%.3000s", fn, out)
	}
	raw, err := exec.Command(goCmd, "tool", "pprof", "-raw", path).CombinedOutput()
	if err != nil || !strings.Contains(string(raw), "calls/count") || !strings.Contains(string(raw), "objects/count") ||
		!strings.Contains(string(raw), "wall-ns/nanoseconds") {
		t.Errorf("go tool pprof -raw: the sample types:\n%.800s", raw)
	}
}
