package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// busySrc runs while two threads only wait (one in Object.wait, one in
// Thread.sleep) for longer than it runs: spin computes, sortWork has the
// JDK sort an array.
const busySrc = `public class Busy {
    static final Object LOCK = new Object();
    static long spin(long n) {
        long x = 0;
        for (long i = 0; i < n; i++) x += i * i ^ x >>> 3;
        return x;
    }
    static int sortWork() {
        int[] a = new int[1_000_000];
        for (int i = 0; i < a.length; i++) a[i] = (int) (i * 2654435761L);
        java.util.Arrays.sort(a);
        return a[a.length / 2] & 1;
    }
    static void idle() {
        synchronized (LOCK) {
            try { LOCK.wait(2500); } catch (InterruptedException e) { }
        }
    }
    static void nap() {
        try { Thread.sleep(2500); } catch (InterruptedException e) { }
    }
    public static void main(String[] a) throws Exception {
        Thread w = new Thread(Busy::idle, "waiter"), s = new Thread(Busy::nap, "sleeper");
        w.start();
        s.start();
        long x = spin(400_000_000L);
        int y = sortWork();
        w.join();
        s.join();
        System.out.println("done " + (x != 42) + " " + y);
    }
}
`

// TestProfileTopRanksRunningCode: threads that only wait (in Object.wait,
// Thread.sleep, and the JVM's reference handler) lead no top list: without
// --cpu it ranks by time in running code (wall time less the time in
// blocking calls, wait-ns, itself measured: each waiter's 2.5 s), with
// --cpu by CPU time, and says which; a JDK frame in the list (the sort)
// names the program's frame it runs under; time is sampled by default.
func TestProfileTopRanksRunningCode(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"Busy.java": busySrc})
	for _, cpu := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "prof")
		args := []string{"profile", "--patches", "-o", out, "--write-folded", "--modules", "java.base"}
		if cpu {
			args = append(args, "--cpu")
		}
		stdout, stderr, code := weft(t, []string{sharedCache(t)}, append(args, "--", "java", "-cp", app, "Busy")...)
		if code != 0 || !strings.HasPrefix(stdout, "done true ") {
			t.Fatalf("--cpu %v: exit %d\nstdout:\n%s\nstderr:\n%s", cpu, code, stdout, stderr)
		}
		by, metric := "time in running code (run-ns: wall-ns less wait-ns", "run-ns"
		if cpu {
			by, metric = "thread CPU time (cpu-ns)", "cpu-ns"
		}
		_, table, _ := strings.Cut(stderr, "weft: the top frames, ranked by "+by)
		first := regexp.MustCompile(`(?m)^\s*\S+\s+[\d.]+%  (\S+)`).FindStringSubmatch(table)
		if table == "" || !strings.Contains(table, "top 10 frames by self "+metric) || first == nil || first[1] != "Busy.spin" {
			t.Errorf("--cpu %v: the top list is not ranked by %s with Busy.spin first:\n%s", cpu, metric, stderr)
		}
		// A waiter may show with a sample's worth of what ran before it
		// (a sample charges the time since the last one to the context it
		// finds: Thread.join got 1.3 ms of CPU, 0.1 %, in one run); one
		// whose waiting counted would have seconds.
		for _, waiter := range []string{"Busy.idle", "Busy.nap", "java.lang.ref.Reference.processPendingReferences", "java.lang.Thread.join"} {
			m := regexp.MustCompile(`(?m)^\s*\S+\s+([\d.]+)%  ` + regexp.QuoteMeta(waiter) + `\b`).FindStringSubmatch(strings.Split(table, "\n\n")[0])
			if m == nil {
				continue
			}
			if share, _ := strconv.ParseFloat(m[1], 64); share >= 1 {
				t.Errorf("--cpu %v: %s, which only waits, has %.1f %% of the self %s:\n%s", cpu, waiter, share, metric, table)
			}
		}
		if !regexp.MustCompile(`(?m)  java\.util\.DualPivotQuicksort\.\S+  \(under Busy\.sortWork\)$`).MatchString(table) {
			t.Errorf("--cpu %v: no sort frame named under Busy.sortWork:\n%s", cpu, table)
		}
		wait := readMetric(t, out, "wait-ns")
		for _, waiter := range []string{"Busy.idle", "Busy.nap"} {
			if w := at(wait, waiter); w < 2_000_000_000 {
				t.Errorf("--cpu %v: %s waited %d ns, want 2.5 s", cpu, waiter, w)
			}
		}
		if w := at(wait, "Busy.main;Busy.spin"); w != 0 {
			t.Errorf("--cpu %v: Busy.spin waited %d ns, want none", cpu, w)
		}
		// Sampled time (the default): the waiter's context is charged the
		// 2.5 s it waits, give or take the samples a busy machine delays.
		if w := at(readMetric(t, out, "wall-ns"), "Busy.idle"); w < 2_000_000_000 || w > 4_000_000_000 {
			t.Errorf("--cpu %v: Busy.idle's sampled wall time %d ns, want about 2.5 s", cpu, w)
		}
		if summary, _ := os.ReadFile(filepath.Join(out, "summary.txt")); !strings.Contains(string(summary), "time sampled every 1000 us") {
			t.Errorf("--cpu %v: summary.txt does not say time was sampled:\n%s", cpu, summary)
		}
	}
	os.Remove(app)
}
