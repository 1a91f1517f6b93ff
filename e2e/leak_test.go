package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// leakySrc leaks Sessions into a static list from one site (remember)
// when its argument is "leak", and churns short-lived objects at others
// (churn, and the JDK's StringBuilder and String) either way. Then it
// checks that objects it dropped are collected, the tracker on or off:
// 1000 objects it only holds weakly must all be cleared. -Dpause=0 drops
// the collections and pauses between rounds, which only a sampler needs
// (the stock runs); -Didle=N ends the work with N collections and nothing
// else, a quiet moment.
const leakySrc = `import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
public class Leaky {
    static final class Session {
        final int id;
        final long started;
        Session(int id) { this.id = id; this.started = id * 31L; }
    }
    static final List<Session> SESSIONS = new ArrayList<>();
    static void remember(int i) {
        SESSIONS.add(new Session(i));
    }
    static int churn(int i) {
        byte[] buf = new byte[2048];
        StringBuilder b = new StringBuilder();
        b.append("request ").append(i);
        buf[i & 2047] = (byte) b.length();
        return b.toString().length() + buf[i & 2047];
    }
    static long serve(int requests, boolean leak) {
        long sum = 0;
        for (int i = 0; i < requests; i++) {
            sum += churn(i);
            if (leak && i % 50 == 0) remember(i);
        }
        return sum;
    }
    public static void main(String[] args) throws Exception {
        boolean leak = args[0].equals("leak");
        List<WeakReference<Object>> probes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) probes.add(new WeakReference<>(i % 2 == 0 ? new Session(-i) : new int[i]));
        long sum = 0, pause = Long.getLong("pause", 200);
        for (int r = 0; r < 10; r++) {
            sum += serve(10000, leak);
            if (pause > 0) System.gc(); // a collection then a quiet moment, as a server's idle time:
            Thread.sleep(pause);        // the tracker samples after it, however busy the machine
        }
        for (long i = Long.getLong("idle", 0); i > 0; i--) { // a quiet moment: collections, no work
            System.gc();
            Thread.sleep(20);
        }
        int kept = probes.size();
        for (int i = 0; i < 20 && kept > 0; i++) {
            System.gc();
            Thread.sleep(10);
            kept = 0;
            for (WeakReference<Object> p : probes) if (p.get() != null) kept++;
        }
        System.out.println("sum " + sum + " sessions " + SESSIONS.size() + " probes kept " + kept);
    }
}
`

// keepSrc is a Rhino script that makes ROUNDS rounds of PER JavaScript
// objects and keeps every 10th when KEEP is true; each round ends with a
// collection and a quiet moment (as Leaky's) when COLLECT is true.
const keepSrc = `var keep = KEEP, kept = [];
for (var r = 0; r < ROUNDS; r++) {
  for (var i = 0; i < PER; i++) {
    var o = {name: "item " + i, round: r};
    if (keep && i % 10 == 0) kept.push(o);
  }
  if (COLLECT) java.lang.System.gc();
  java.lang.Thread.sleep(10);
}
print("kept " + kept.length);
`

const collectSrc = `import java.io.*;
import java.util.*;
public class Collect {
    public static void main(String[] args) throws Exception {
        Map<String, Integer> m = new HashMap<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        for (String l; (l = r.readLine()) != null; ) m.merge(l, 1, Integer::sum);
        System.out.println(new TreeMap<>(m));
        System.exit(m.size());
    }
}
`

const sleeperSrc = `public class Sleeper {
    public static void main(String[] args) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("bye")));
        System.err.println("sleeping");
        Thread.sleep(60_000);
        System.out.println("woke up");
    }
}
`

// leakReport is what the test reads of leak.json.
type leakReport struct {
	Samples   int
	Points    int
	Interval  int
	Untracked int
	Growing   []leakContext
	Live      []leakContext
}

type leakContext struct {
	Site, Location string
	Context        []string
	Live, Growth   int64
	History        []int64
}

// TestLeakTracker runs examples/leak through weft leak on java.base under
// -Xverify:all. A program leaking into a static list from one site while
// churning at others, then idle through 8 collections (one point of its
// history: counted as 8, the leak would seem to have stopped): that site
// is ranked first, with its calling context; the same program not leaking: no growing context, and none of its
// Sessions live. Both print what they print on the stock JDK, so the
// objects they dropped were all collected with the tracker on. The
// tracker tracks nothing of its own. stdin, stdout, the exit code, -jar
// and signals pass through; the second run weaves nothing.
func TestLeakTracker(t *testing.T) {
	weft := buildWeft(t)
	app := jvmtest.Compile(t, map[string]string{"Leaky.java": leakySrc}, "-g")
	cache := newCache(t)
	run := func(stdin string, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		start := time.Now()
		cmd := exec.Command(weft, append([]string{"leak", "--modules", "java.base", "--patches"}, args...)...)
		cmd.Env = append(os.Environ(), "WEFT_CACHE="+cache)
		cmd.Stdin = strings.NewReader(stdin)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		t.Logf("weft leak %s: %.1fs", strings.Join(args[len(args)-2:], " "), time.Since(start).Seconds())
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}
	report := func(dir string) leakReport {
		t.Helper()
		var r leakReport
		b, err := os.ReadFile(filepath.Join(dir, "leak.json"))
		if err == nil {
			err = json.Unmarshal(b, &r)
		}
		if err != nil {
			t.Fatalf("leak.json: %v", err)
		}
		return r
	}
	// In a scope of the program's own classes (the JDK out of it), the
	// leaking site and its context are found the same.
	t.Run("scope", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "leak")
		_, stderr, code := run("", "-o", out, "--include", "Leaky*", "--", jvmtest.Java(t), "-Xmx16m", "-Didle=8", "-cp", app, "Leaky", "leak")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		r := report(out)
		if len(r.Growing) == 0 || r.Growing[0].Site != "Leaky$Session" ||
			strings.Join(r.Growing[0].Context, " ") != "Leaky.remember Leaky.serve Leaky.main" {
			t.Errorf("in the scope Leaky*: growing %+v, want new Leaky$Session in Leaky.remember, serve, main\n%s", r.Growing, stderr)
		}
		for _, c := range append(r.Growing, r.Live...) {
			if !strings.HasPrefix(c.Location, "Leaky.java:") { // a site in code out of the scope
				t.Errorf("in the scope Leaky*: a site outside it %+v", c)
				break
			}
		}
	})
	for _, mode := range []string{"leak", "none"} {
		want, _ := jvmtest.Run(t, "-Xmx16m", "-Dpause=0", "-cp", app, "Leaky", mode)
		if !strings.HasSuffix(want, " probes kept 0\n") {
			t.Fatalf("stock run of Leaky %s: %q", mode, want)
		}
		out := filepath.Join(t.TempDir(), "leak")
		pprofFile := filepath.Join(t.TempDir(), "live.pb.gz")
		stdout, stderr, code := run("", "-o", out, "--pprof", pprofFile, "--", jvmtest.Java(t), "-Xverify:all", "-Xmx16m", "-Didle=8", "-cp", app, "Leaky", mode)
		if code != 0 || stdout != want {
			t.Fatalf("Leaky %s: exit %d, stdout %q, want %q\nstderr:\n%s", mode, code, stdout, want, stderr)
		}
		wove := strings.Contains(stderr, "weft: weaving the JDK") && strings.Contains(stderr, "weft: weaving the class path")
		if wove != (mode == "leak") || (mode == "none" && strings.Contains(stderr, "weft: weaving")) {
			t.Errorf("Leaky %s: the first run weaves the JDK and the class path, the second nothing:\n%s", mode, stderr)
		}
		r := report(out)
		t.Logf("Leaky %s: %d samples, %d points, 1 in %d tracked", mode, r.Samples, r.Points, r.Interval)
		if r.Points < 8 {
			t.Errorf("Leaky %s: %d points of history (%d samples), want at least the window's 8\n%s", mode, r.Points, r.Samples, stderr)
		}
		for _, c := range append(r.Growing, r.Live...) {
			if strings.HasPrefix(c.Site, "weft.") || (len(c.Context) > 0 && strings.HasPrefix(c.Context[0], "weft.")) {
				t.Errorf("Leaky %s: the tracker tracked itself: %+v", mode, c)
			}
		}
		switch mode {
		case "leak":
			if len(r.Growing) == 0 {
				t.Fatalf("Leaky leak: no growing context:\n%s", stderr)
			}
			g := r.Growing[0]
			if g.Site != "Leaky$Session" || !strings.HasPrefix(g.Location, "Leaky.java:") ||
				strings.Join(g.Context, " ") != "Leaky.remember Leaky.serve Leaky.main" {
				t.Errorf("Leaky leak: first growing context %+v, want new Leaky$Session in Leaky.remember, serve, main", g)
			}
			// 2000 Sessions leaked: the estimate, each tracked one weighted by
			// the sampling interval then in force (4 to 16 here, more on a
			// busy machine), is within 30 %, or 4 standard deviations of
			// sampling 2000 at the last interval, whichever is wider.
			if d, tol := math.Abs(float64(g.Live-2000)), math.Max(600, 4*math.Sqrt(2000*float64(r.Interval))); d > tol {
				t.Errorf("Leaky leak: %d Sessions live, want 2000 ± %.0f (1 in %d tracked)", g.Live, tol, r.Interval)
			}
			if !strings.Contains(stderr, " 1. new Leaky$Session  Leaky.java:") || !strings.Contains(stderr, "in Leaky.remember") {
				t.Errorf("Leaky leak: the printed report does not rank the Session site first:\n%s", stderr)
			}
			folded, _ := os.ReadFile(filepath.Join(out, "live.folded"))
			if !strings.Contains(string(folded), "Leaky.main;Leaky.serve;Leaky.remember;new Leaky$Session ") {
				t.Errorf("live.folded has no line for the Sessions:\n%.2000s", folded)
			}
			if _, err := os.Stat(filepath.Join(out, "leak.html")); err != nil {
				t.Error(err)
			}
			// The same live objects in pprof's format, as go tool pprof reads it.
			goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
			top, err := exec.Command(goCmd, "tool", "pprof", "-top", "-sample_index=live", pprofFile).CombinedOutput()
			raw, err2 := exec.Command(goCmd, "tool", "pprof", "-raw", pprofFile).CombinedOutput()
			if err != nil || err2 != nil || !strings.Contains(string(top), "new Leaky$Session") ||
				!strings.Contains(string(raw), "live/count") || !strings.Contains(string(raw), "live-bytes/bytes") {
				t.Errorf("weft leak --pprof: go tool pprof: %v %v\n%.1500s\n%.500s", err, err2, top, raw)
			}
		case "none":
			if len(r.Growing) != 0 || !strings.Contains(stderr, "no growing context") {
				t.Errorf("Leaky none: growing contexts %+v\n%s", r.Growing, stderr)
			}
			for _, c := range r.Live {
				if c.Site == "Leaky$Session" || (len(c.Context) > 0 && c.Context[0] == "Leaky.churn") {
					t.Errorf("Leaky none: live at the last sample: %+v", c)
				}
			}
		}
	}

	// A real program nobody here wrote: Rhino runs a script that keeps
	// every 10th of its objects (each a NativeObject), collecting at the
	// end of each round; then the same script keeping none; then both
	// with young collections only, where the table of references must
	// hold a collection's worth of garbage (a rule that let it stay full
	// left 140,000 allocations untracked and counted 5,000 of 20,000), and
	// garbage promoted before it died counts live until the collection at
	// exit. Young collections come every few hundred thousand allocations
	// there, more often as the kept objects fill the old generation (runs
	// here took 98 to 358 samples: the faster the woven code, the more
	// collections in the same run). All four run with the default window,
	// whose points are spaced by allocations, not collections (a window of
	// the last 48 collections saw the NativeObjects rise by about 35
	// tracked objects, give or take 10 at each, and missed them).
	rhino := "/usr/share/java/js.jar"
	if _, err := os.Stat(rhino); err != nil {
		t.Fatalf("%v: install Debian's rhino (bash .ci/run does)", err)
	}
	script := filepath.Join(t.TempDir(), "keep.js")
	for _, c := range []struct {
		keep, collect bool
		rounds, per   int
	}{{true, true, 24, 2500}, {false, true, 24, 2500}, {true, false, 20, 10000}, {false, false, 20, 10000}} {
		js := strings.NewReplacer("KEEP", fmt.Sprint(c.keep), "COLLECT", fmt.Sprint(c.collect),
			"ROUNDS", fmt.Sprint(c.rounds), "PER", fmt.Sprint(c.per)).Replace(keepSrc)
		if err := os.WriteFile(script, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		kept := 0
		if c.keep {
			kept = c.rounds * c.per / 10
		}
		what := fmt.Sprintf("Rhino keeping %d of %d objects (collecting each round: %v)", kept, c.rounds*c.per, c.collect)
		out := filepath.Join(t.TempDir(), "leak")
		stdout, stderr, code := run("", "-o", out, "--", jvmtest.Java(t), "-Xmx32m", "-cp", rhino,
			"org.mozilla.javascript.tools.shell.Main", script)
		if want := fmt.Sprintf("kept %d\n", kept); code != 0 || stdout != want {
			t.Fatalf("%s: exit %d, stdout %q, want %q\n%s", what, code, stdout, want, stderr)
		}
		r := report(out)
		t.Logf("%s: %d samples, %d points, 1 in %d tracked, %d untracked, %d growing", what, r.Samples, r.Points, r.Interval, r.Untracked, len(r.Growing))
		if r.Untracked != 0 {
			t.Errorf("%s: %d sampled allocations untracked (the table of references was full)", what, r.Untracked)
		}
		var objects *leakContext
		for i, g := range r.Growing {
			if g.Site == "org.mozilla.javascript.NativeObject" {
				objects = &r.Growing[i]
			}
		}
		switch {
		case c.keep && objects == nil:
			t.Errorf("%s: no growing NativeObject context:\n%s", what, stderr)
		case c.keep:
			k := float64(kept)
			if d, tol := math.Abs(float64(objects.Live)-k), math.Max(0.3*k, 4*math.Sqrt(k*float64(r.Interval))); d > tol {
				t.Errorf("%s: %d NativeObjects live, want %d ± %.0f (1 in %d tracked)", what, objects.Live, kept, tol, r.Interval)
			}
		case len(r.Growing) != 0:
			t.Errorf("%s: growing contexts %+v\n%s", what, r.Growing, stderr)
		}
	}

	// stdin, stdout and the exit code pass through.
	collect := jvmtest.Compile(t, map[string]string{"Collect.java": collectSrc})
	out, stderr, code := run("b\na\nb\nc\n", "-o", t.TempDir(), "--", jvmtest.Java(t), "-cp", collect, "Collect")
	if out != "{a=1, b=2, c=1}\n" || code != 3 || strings.Contains(stderr, "weft: weaving the JDK") {
		t.Errorf("Collect: stdout %q, exit %d; stderr:\n%s", out, code, stderr)
	}

	// -jar: the jar is woven into the cache and run from there.
	jar := filepath.Join(t.TempDir(), "collect.jar")
	jvmtest.Jar(t, collect, jar, "Collect")
	out, stderr, code = run("x\ny\n", "-o", t.TempDir(), "--", jvmtest.Java(t), "-jar", jar)
	if out != "{x=1, y=1}\n" || code != 2 || !strings.Contains(stderr, "weft: weaving the class path") ||
		!strings.Contains(stderr, "allocations at") {
		t.Errorf("-jar run: stdout %q, exit %d, stderr:\n%s", out, code, stderr)
	}

	// Signals pass through: SIGTERM to weft reaches java, whose shutdown
	// hooks run (the program's and the tracker's), and weft exits as java
	// did (128+15).
	sleeper := jvmtest.Compile(t, map[string]string{"Sleeper.java": sleeperSrc})
	sleepOut := t.TempDir()
	cpu := filepath.Join(t.TempDir(), "weft.pprof") // written though java's exit code is 143
	cmd := exec.Command(weft, "leak", "--cpuprofile", cpu, "--modules", "java.base", "--patches", "-o", sleepOut, "--", jvmtest.Java(t), "-cp", sleeper, "Sleeper")
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+cache)
	var o bytes.Buffer
	cmd.Stdout = &o
	pr, pw, _ := os.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	// Wait until the program is up (it says so on stderr), then signal weft.
	buf := make([]byte, 4096)
	var errOut strings.Builder
	for !strings.Contains(errOut.String(), "sleeping") {
		n, err := pr.Read(buf)
		if err != nil {
			t.Fatalf("sleeper ended early: %v\n%s", err, errOut.String())
		}
		errOut.Write(buf[:n])
	}
	cmd.Process.Signal(syscall.SIGTERM)
	go io.Copy(io.Discard, pr)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(o.String(), "bye") {
		t.Errorf("after SIGTERM: exit %d, stdout %q; want 143 and the shutdown hook's bye", code, o.String())
	}
	if _, err := os.Stat(filepath.Join(sleepOut, "leak.json")); err != nil {
		t.Errorf("after SIGTERM, no report: %v", err)
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goCmd, "tool", "pprof", "-raw", cpu).CombinedOutput(); err != nil || !strings.Contains(string(out), "PeriodType: cpu nanoseconds") {
		t.Errorf("weft leak --cpuprofile: go tool pprof: %v\n%.500s", err, out)
	}
}
