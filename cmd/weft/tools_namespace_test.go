package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// Programs whose packages are named as weft's tools were (leak, profile,
// recrash, count): the tools' own classes are in weft's namespace now, and
// no aspect leaves a user's package out.
var (
	profilePkgSrc = map[string]string{"profile/Main.java": `package profile;
public class Main {
    static void step() {}
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) {
        for (int i = 0; i < 1000; i++) step();
        for (int i = 0; i < 3; i++) new Main();
        System.out.println("fib " + fib(15));
    }
}
`}
	// leakPkgSrc leaks Sessions into a static list from one site, churns
	// byte arrays at another, and gives the tracker its samples: a
	// collection and a quiet moment after each round, then 8 more.
	leakPkgSrc = map[string]string{"leak/Cache.java": `package leak;
import java.util.ArrayList;
import java.util.List;
public class Cache {
    static final class Session {
        final int id;
        Session(int id) { this.id = id; }
    }
    static final List<Session> SESSIONS = new ArrayList<>();
    static void remember(int i) { SESSIONS.add(new Session(i)); }
    static int churn(int i) { byte[] b = new byte[512]; b[i & 511] = 1; return b.length; }
    public static void main(String[] a) throws Exception {
        long sum = 0;
        for (int r = 0; r < 10; r++) {
            for (int i = 0; i < 10000; i++) {
                sum += churn(i);
                if (i % 50 == 0) remember(r * 10000 + i);
            }
            System.gc();
            Thread.sleep(100);
        }
        for (int i = 0; i < 8; i++) {
            System.gc();
            Thread.sleep(20);
        }
        System.out.println("sessions " + SESSIONS.size() + " sum " + sum);
    }
}
`}
	recrashPkgSrc = map[string]string{"recrash/Main.java": `package recrash;
public class Main {
    static int check(int qty) {
        if (qty < 0) throw new IllegalArgumentException("quantity " + qty);
        return qty;
    }
    static int order(int qty) { return 2 * check(qty); }
    public static void main(String[] a) throws Exception {
        System.out.println("start");
        Thread t = new Thread(() -> System.out.println(order(-1)), "orders");
        t.start();
        t.join();
        System.out.println("done");
    }
}
`}
	countPkgSrc = map[string]string{"count/Main.java": `package count;
public class Main {
    static void step() {}
    public static void main(String[] a) {
        for (int i = 0; i < 1000; i++) step();
        new Item();
    }
}
class Item {}
`}
)

// TestToolsOnToolNamedPackages: each tool sees a program whose package is
// named as the tool's was: weft profile counts its frames exactly, weft
// leak ranks its leaking site first, weft recrash writes a test that
// reproduces its crash, and count.weft counts its executions exactly.
func TestToolsOnToolNamedPackages(t *testing.T) {
	t.Run("profile", func(t *testing.T) {
		app := jvmtest.Compile(t, profilePkgSrc, "-g")
		out := filepath.Join(t.TempDir(), "prof")
		stdout, stderr, code := weft(t, []string{sharedCache(t)}, "profile", "--patches", "-o", out, "--write-folded",
			"--modules", "java.base", "--", "java", "-cp", app, "profile.Main")
		if code != 0 || stdout != "fib 610\n" {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		calls, objects := readMetric(t, out, "calls"), readMetric(t, out, "objects")
		if got := at(calls, "profile.Main.main;profile.Main.step"); got != 1000 {
			t.Errorf("calls of profile.Main.step: %d, want 1000", got)
		}
		if got := below(calls, "profile.Main.main;profile.Main.fib"); got != 1973 {
			t.Errorf("calls of fib(15): %d, want 1973", got)
		}
		if got := at(objects, "profile.Main.main;new profile.Main"); got != 3 {
			t.Errorf("objects profile.Main: %d, want 3", got)
		}
		for stack := range calls {
			if strings.Contains(stack, "weft.") {
				t.Errorf("the profiler profiled itself: %s", stack)
				break
			}
		}
	})
	t.Run("leak", func(t *testing.T) {
		app := jvmtest.Compile(t, leakPkgSrc, "-g")
		out := filepath.Join(t.TempDir(), "leak")
		stdout, stderr, code := weft(t, []string{sharedCache(t)}, "leak", "--patches", "-o", out,
			"--modules", "java.base", "--", "java", "-Xmx16m", "-cp", app, "leak.Cache")
		if code != 0 || stdout != "sessions 2000 sum 51200000\n" {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		r := readLeakReport(t, out)
		if len(r.Growing) == 0 || r.Growing[0].Site != "leak.Cache$Session" ||
			len(r.Growing[0].Context) == 0 || r.Growing[0].Context[0] != "leak.Cache.remember" {
			t.Errorf("first growing context %+v, want new leak.Cache$Session in leak.Cache.remember\n%s", r.Growing, stderr)
		}
	})
	t.Run("recrash", func(t *testing.T) {
		app := jvmtest.Compile(t, recrashPkgSrc, "-g")
		out := filepath.Join(t.TempDir(), "crash")
		stdout, stderr, code := weft(t, []string{sharedCache(t)}, "recrash", "--patches", "-o", out,
			"--", "java", "-cp", app, "recrash.Main")
		if code != 0 || stdout != "start\ndone\n" {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, test := range []string{`Crash1_0_Main_checkTest reproduces`, `Crash1_1_Main_orderTest reproduces`} {
			if !regexp.MustCompile(test).Match(summary) {
				t.Errorf("no %s:\n%s", test, summary)
			}
		}
	})
	t.Run("count", func(t *testing.T) {
		adv := countAdviceWithRuntime(t)
		app := jvmtest.Compile(t, countPkgSrc)
		out := filepath.Join(t.TempDir(), "out")
		if _, stderr, err := weftInProcess("weave", "-q", "-a", countWeft, "--advice-cp", adv, "-o", out, app); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		// main, 1000 steps, one Item: at 3 join points.
		if _, e := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+adv, "count.Main"); !strings.Contains(e, "count: 1002 hits at 3 join points") {
			t.Errorf("woven run's count:\n%s", e)
		}
	})
}
