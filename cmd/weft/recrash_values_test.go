package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// changingSrc's threads each die of an exception from a method that changes
// its argument before it throws, so that a test reproduces only if the
// argument was recorded as it was on entry: a parameter assigned (check),
// an array filled (fill), an object's field set (apply).
var changingSrc = map[string]string{
	"chg/Main.java": `package chg;

public class Main {
    static final class Box { int v; Box(int v) { this.v = v; } }

    static void check(int n, String why) {
        int was = n;
        n = 100;
        why = null;
        if (was == 3) throw new IllegalStateException("three");
    }

    static void fill(int[] a) {
        boolean bad = a[0] == 7;
        a[0] = 0;
        if (bad) throw new IllegalArgumentException("seven");
    }

    static void apply(Box b) {
        boolean bad = b.v == 7;
        b.v = 0;
        if (bad) throw new UnsupportedOperationException("box");
    }

    static void run(String name, Runnable r) throws InterruptedException {
        Thread t = new Thread(r, name);
        t.start();
        t.join();
    }

    public static void main(String[] args) throws Exception {
        run("check", () -> check(3, "why"));
        run("fill", () -> fill(new int[] {7, 1}));
        run("apply", () -> apply(new Box(7)));
        System.out.println("done");
    }
}
`,
}

// weft recrash records the arguments of a method as they were on entry:
// a parameter the method assigns before it throws, an array it fills (cloned
// on entry), and with --depth 1 an object whose field it sets; without
// --depth the object is the one the crash left, and its test is dropped.
func TestRecrashEntryValues(t *testing.T) {
	app := jvmtest.Compile(t, changingSrc, "-g")
	for _, c := range []struct {
		depth string
		apply string // what frame 0 of the apply crash says
		jdk   string // how the JDK is woven: --depth changes the aspect, so its JDK is its own
	}{
		{"0", "no test: does not reproduce", "--patches=false"},
		{"1", "Crash3_0_Main_applyTest reproduces", "--patches"}, // no image to link for this test alone
	} {
		out := filepath.Join(t.TempDir(), "crash")
		_, stderr, code := weft(t, []string{sharedCache(t)}, "recrash", "--depth", c.depth, c.jdk, "-o", out, "--",
			"java", "-cp", app, "chg.Main")
		if code != 0 {
			t.Fatalf("--depth %s: exit %d\n%s", c.depth, code, stderr)
		}
		summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
		if err != nil {
			t.Fatalf("--depth %s: %v\n%s", c.depth, err, stderr)
		}
		for _, want := range []string{
			`frame 0 chg.Main.check(int, java.lang.String) (Main.java:7): Crash1_0_Main_checkTest reproduces`,
			`frame 0 chg.Main.fill(int[]) (Main.java:14): Crash2_0_Main_fillTest reproduces`,
			`frame 0 chg.Main.apply(chg.Main$Box) (Main.java:20): ` + c.apply,
		} {
			if !strings.Contains(string(summary), want) {
				t.Errorf("--depth %s: no %q in the summary:\n%s", c.depth, want, summary)
			}
		}
		// The lambda's frame and Thread.run follow each method's.
		if n := len(regexp.MustCompile(`(?m)^crash\d+: escaped thread`).FindAll(summary, -1)); n != 3 {
			t.Errorf("--depth %s: %d crashes, want 3:\n%s", c.depth, n, summary)
		}
	}
}
