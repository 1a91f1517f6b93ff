package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/launch"
)

// crashySrc is a program whose three threads die of an exception each:
// one thrown deep in application code from arguments built earlier (an
// Order, not Serializable, and its Lines), one inside the JDK's
// Integer.parseInt called with "x", one in a pool worker (ArrayList.get
// out of range); and one the program catches, a crash only when asked
// (--method).
var crashySrc = map[string]string{
	"crashy/Main.java": `package crashy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

public class Main {
    public static void main(String[] a) throws Exception {
        System.out.println("start");
        Thread deep = new Thread(Main::deep, "deep");
        deep.start();
        deep.join();
        Thread parse = new Thread(Main::parse, "parse");
        parse.start();
        parse.join();
        Workers workers = new Workers();
        ExecutorService pool = Executors.newFixedThreadPool(2, workers);
        pool.execute(Main::pooled);
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        workers.join(); // the pool terminates before its worker reports its exception
        try {
            System.out.println("port " + Config.port("http:80x"));
        } catch (NumberFormatException e) {
            System.out.println("bad port"); // caught: a crash only for --method crashy.Config.port
        }
        System.out.println("done");
    }

    // An exception deep in application code, from arguments built earlier.
    static void deep() {
        Order o = new Order("o-1");
        o.add(new Line("pen", 2, 150));
        o.add(new Line("ink", -1, 300));
        System.out.println("order " + o.id);
        System.out.println("total " + new Pricing(10).total(o));
    }

    // An exception inside a JDK method called with a bad argument.
    static void parse() {
        List<String> words = new ArrayList<>(List.of("1", "2", "x"));
        System.out.println("sum " + Sums.sum(words));
    }

    // An exception in a pool worker thread: a list index out of range.
    static void pooled() {
        Inventory inv = new Inventory(new ArrayList<>(List.of("a", "b")));
        System.out.println("item " + inv.item(5));
    }

    // The pool's threads, as the default factory names them, kept to be joined.
    static class Workers implements ThreadFactory {
        private final ThreadFactory names = Executors.defaultThreadFactory();
        private final List<Thread> made = new ArrayList<>();

        public synchronized Thread newThread(Runnable r) {
            Thread t = names.newThread(r);
            made.add(t);
            return t;
        }

        synchronized void join() throws InterruptedException {
            for (Thread t : made) t.join();
        }
    }
}
`,
	"crashy/Order.java": `package crashy;

import java.util.ArrayList;
import java.util.List;

/** Not Serializable: the recorder rebuilds it from its fields. */
public class Order {
    final String id;
    final List<Line> lines = new ArrayList<>();

    public Order(String id) { this.id = id; }

    public void add(Line l) { lines.add(l); }
}
`,
	"crashy/Line.java": `package crashy;

public class Line implements java.io.Serializable {
    final String item;
    final int quantity;
    final int cents;

    public Line(String item, int quantity, int cents) {
        this.item = item;
        this.quantity = quantity;
        this.cents = cents;
    }

    void check() {
        if (quantity < 0) throw new IllegalArgumentException("negative quantity of " + item);
    }
}
`,
	"crashy/Pricing.java": `package crashy;

public class Pricing {
    private final int discount;

    public Pricing(int discount) { this.discount = discount; }

    public long total(Order o) {
        long t = 0;
        for (Line l : o.lines) t += lineTotal(l);
        return t;
    }

    private long lineTotal(Line l) {
        l.check();
        return (long) l.quantity * l.cents * (100 - discount) / 100;
    }
}
`,
	"crashy/Sums.java": `package crashy;

import java.util.List;

public class Sums {
    public static int sum(List<String> words) {
        int s = 0;
        for (String w : words) s += Integer.parseInt(w);
        return s;
    }
}
`,
	"crashy/Config.java": `package crashy;

public class Config {
    public static int port(String url) {
        return Integer.parseInt(url.substring(url.indexOf(':') + 1));
    }
}
`,
	"crashy/Inventory.java": `package crashy;

import java.util.List;

public class Inventory {
    private final List<String> items;

    public Inventory(List<String> items) { this.items = items; }

    public String item(int i) { return items.get(i); }
}
`,
}

// TestRecrashCommand records the four crashes with JDK frames on a woven
// java.base (--patches: the runtime image is TestRunLaunchers' concern)
// under -Xverify:all: the program's output is unchanged, each
// crash is saved once (no recursion, no other: the caught exception's
// escape from the method asked for is saved once, not at each frame), and for each a test
// reproduces it from the frame that threw it, compiled and run by weft;
// frames that cannot reproduce (Thread.run, whose Thread is never
// captured) are dropped. One kept test is run again as JUnit 4 runs it,
// another as a plain program.
func TestRecrashCommand(t *testing.T) {
	app := jvmtest.Compile(t, crashySrc, "-g")
	java := []string{"java", "-Xverify:all", "-cp", app, "crashy.Main"}
	wantOut, wantErr, _ := jvmtest.RunErr(t, java[1:]...)
	out := filepath.Join(t.TempDir(), "crash")
	start := time.Now()
	cpu := filepath.Join(t.TempDir(), "weft.pprof")
	stdout, stderr, code := weft(t, []string{sharedCache(t)}, append([]string{"recrash", "--cpuprofile", cpu, "-v", "--patches", "--jdk-frames", "--method", "crashy.Config.port", "-o", out, "--"}, java...)...)
	checkCPUProfile(t, cpu)
	t.Logf("weft recrash: %v", time.Since(start))
	if code != 0 || stdout != wantOut {
		t.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, wantOut, stderr)
	}
	// java.base only, weft recrash's default (weft run's "all" once
	// overrode it).
	if m := regexp.MustCompile(`weft: woven JDK: (\S+)`).FindStringSubmatch(stderr); m == nil {
		t.Errorf("no woven JDK in:\n%s", stderr)
	} else if jars, _ := filepath.Glob(filepath.Join(m[1], "patch", "*.jar")); len(jars) != 1 || filepath.Base(jars[0]) != "java.base.jar" {
		t.Errorf("woven modules %v, want java.base only", jars)
	}
	// The program's own lines on stderr (its threads' stack traces) are
	// the stock run's: the others are weft's ("weft: ..." and the summary).
	var programErr []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(l, "weft:") && !strings.HasPrefix(l, "  ") && l != "\n" {
			programErr = append(programErr, l)
		}
	}
	if got := strings.Join(programErr, ""); got != wantErr {
		t.Errorf("the program's stderr changed:\n%s\nwant:\n%s", got, wantErr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	crashes := regexp.MustCompile(`(?m)^crash\d+: escaped (.*?): ([\w.]+):`).FindAllStringSubmatch(string(summary), -1)
	var got []string
	for _, c := range crashes {
		got = append(got, c[1]+" "+c[2])
	}
	want := []string{`thread "deep" java.lang.IllegalArgumentException`, `thread "parse" java.lang.NumberFormatException`,
		`thread "pool-1-thread-1" java.lang.IndexOutOfBoundsException`, `crashy.Config.port java.lang.NumberFormatException`}
	if strings.Join(got, ", ") != strings.Join(want, ", ") || strings.Contains(string(summary), " weft.tools.recrash.") {
		t.Fatalf("crashes %q, want %q (and no frame of the recorder):\n%s", got, want, summary)
	}
	for _, test := range []string{
		"Crash1_0_Line_checkTest",        // where it was thrown
		"Crash1_1_Pricing_lineTotalTest", // a private method: by reflection
		"Crash1_2_Pricing_totalTest",     // the Order rebuilt from its fields
		"Crash2_0_Integer_parseIntTest",  // a JDK frame
		"Crash2_2_Sums_sumTest",          // the application's frame calling it
		"Crash3_2_ArrayList_getTest",     // in the pool's worker: the JDK's frame
		"Crash3_3_Inventory_itemTest",    // and the application's
		"Crash4_2_Config_portTest",       // the method asked for
	} {
		if _, err := os.Stat(filepath.Join(out, "tests", test+".java")); err != nil ||
			!strings.Contains(string(summary), test+" reproduces") {
			t.Errorf("%s does not reproduce its crash:\n%s", test, summary)
		}
	}
	if !strings.Contains(string(summary), "rebuilt from its fields: crashy.Order") {
		t.Errorf("the Order was not rebuilt from its fields:\n%s", summary)
	}
	// The thread's Runnable, a lambda proxy (a hidden class) woven at load
	// time with thisJoinPoint, is a frame: no test names its class.
	if !regexp.MustCompile(`frame 4 crashy.Main\$\$Lambda\$\d+.run\(\) \(.*\): no test: a lambda's class`).Match(summary) {
		t.Errorf("the lambda proxy's frame is missing:\n%s", summary)
	}
	// Thread.run's receiver is never captured: its tests fail and are dropped.
	dropped := regexp.MustCompile(`frame 5 java.lang.Thread.run\(\) \(.*\): no test: does not reproduce`)
	if !dropped.Match(summary) || fileExists(filepath.Join(out, "tests", "Crash1_5_Thread_runTest.java")) {
		t.Errorf("Thread.run's test was not dropped:\n%s", summary)
	}

	// The tests as users run them: with JUnit 4, and as a program.
	cp := launch.JoinClassPath(filepath.Join(out, "classes"), app, defaultJUnit())
	if b, err := exec.Command(jvmtest.Java(t), "-cp", cp, "org.junit.runner.JUnitCore", "Crash2_0_Integer_parseIntTest").CombinedOutput(); err != nil ||
		!strings.Contains(string(b), "OK (1 test)") {
		t.Errorf("JUnit on Crash2_0_Integer_parseIntTest: %v\n%s", err, b)
	}
	if b, err := exec.Command(jvmtest.Java(t), "-cp", cp, "Crash1_1_Pricing_lineTotalTest").CombinedOutput(); err != nil || string(b) != "reproduced\n" {
		t.Errorf("Crash1_1_Pricing_lineTotalTest as a program: %v\n%s", err, b)
	}

	// A directory of the user's is never cleared.
	mine := t.TempDir()
	keep := filepath.Join(mine, "classes", "Keep.class")
	if err := writeFileAll(keep, []byte("mine")); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := weft(t, []string{sharedCache(t)}, "recrash", "-o", mine, "--", "java", "-version"); code == 0 ||
		!strings.Contains(stderr, "not weft recrash's output") || !fileExists(keep) {
		t.Errorf("recrash -o a directory of the user's: exit %d\n%s", code, stderr)
	}
}
