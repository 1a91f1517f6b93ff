package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// vthreadSrc runs virtual threads that each call step a known number of
// times, parking, yielding and taking a monitor and a lock in between
// (since JDK 24 a virtual thread blocked on a monitor unmounts too).
// defineSrc has many virtual threads define classes at once, round after
// round.
var vthreadSrc = map[string]string{
	"vt/Main.java": `package vt;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.*;
public class Main {
    static final Object MONITOR = new Object();
    static final ReentrantLock LOCK = new ReentrantLock();
    static long monitored, locked;
    static int step(int k) { return k * k; }
    static void work(int id, int calls, AtomicLong sum) {
        long s = 0;
        for (int k = 0; k < calls; k++) {
            s += step(k);
            if ((k & 1) == 0) LockSupport.parkNanos(1000);
            else Thread.yield();
            synchronized (MONITOR) { monitored++; }
            LOCK.lock(); try { locked++; } finally { LOCK.unlock(); }
        }
        sum.addAndGet(s);
    }
    public static void main(String[] a) throws Exception {
        int threads = Integer.parseInt(a[0]), calls = Integer.parseInt(a[1]);
        AtomicLong sum = new AtomicLong();
        List<Thread> ts = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            int id = i;
            ts.add(Thread.ofVirtual().start(() -> work(id, calls, sum)));
        }
        for (Thread t : ts) t.join();
        System.out.println(threads + " virtual threads, step " + (long) threads * calls + " times, sum " + sum.get() + ", monitored " + monitored + ", locked " + locked);
    }
}
`,
	"vt/Define.java": `package vt;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.*;
import java.lang.reflect.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.function.IntSupplier;

// Many virtual threads define classes at once, round after round: each
// builds a hidden class of its own with the ClassFile API, whose static
// initializer (run while the virtual thread is pinned, in the JVM's class
// initialization) spins a lambda proxy; each round's class loader gets
// proxy classes. Each round must finish within its bound.
public class Define {
    public interface Probe { int probe(); }
    static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    static final ClassDesc DEFINE = ClassDesc.of("vt.Define");

    static int forty() { return 40; }

    // A lambda proxy spun now (a new hidden class at each call).
    public static int spin() throws Throwable {
        CallSite cs = LambdaMetafactory.metafactory(LOOKUP, "getAsInt", MethodType.methodType(IntSupplier.class),
            MethodType.methodType(int.class), LOOKUP.findStatic(Define.class, "forty", MethodType.methodType(int.class)),
            MethodType.methodType(int.class));
        return ((IntSupplier) cs.getTarget().invokeExact()).getAsInt();
    }

    // A hidden class, its own bytes: static int value() { return k; },
    // with a static initializer calling spin().
    static int hidden(int k) throws Throwable {
        byte[] b = ClassFile.of().build(ClassDesc.of("vt.Gen" + k), cb -> cb
            .withMethodBody("<clinit>", MethodTypeDesc.of(ConstantDescs.CD_void), ClassFile.ACC_STATIC, code -> code
                .invokestatic(DEFINE, "spin", MethodTypeDesc.of(ConstantDescs.CD_int)).pop().return_())
            .withMethodBody("value", MethodTypeDesc.of(ConstantDescs.CD_int), ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC,
                code -> code.ldc(k).ireturn()));
        MethodHandles.Lookup h = LOOKUP.defineHiddenClass(b, false);
        return (int) h.findStatic(h.lookupClass(), "value", MethodType.methodType(int.class)).invokeExact();
    }

    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]), threads = Integer.parseInt(a[1]);
        long boundMs = Long.parseLong(a[2]);
        int last = a.length > 3 ? Integer.parseInt(a[3]) : threads; // the last round's threads
        long worst = 0;
        for (int r = 0; r < rounds; r++) {
            if (r == rounds - 1) threads = last;
            long t0 = System.nanoTime();
            ClassLoader loader = new ClassLoader(Define.class.getClassLoader()) {};
            CountDownLatch go = new CountDownLatch(1);
            int round = r;
            List<Future<Integer>> fs = new ArrayList<>();
            ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor();
            for (int i = 0; i < threads; i++) {
                int k = round * threads + i;
                fs.add(ex.submit(() -> {
                    go.await();
                    Probe p = (Probe) Proxy.newProxyInstance(loader, new Class<?>[] {Probe.class}, (o, m, args) -> k);
                    try {
                        return hidden(k) - p.probe() + spin();
                    } catch (Throwable e) {
                        throw new Exception(e);
                    }
                }));
            }
            go.countDown();
            long deadline = t0 + boundMs * 1_000_000;
            for (Future<Integer> f : fs) {
                try {
                    if (f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS) != 40) throw new AssertionError();
                } catch (Exception | AssertionError e) {
                    // Not closed: closing waits for the threads.
                    System.out.println("round " + r + " failed: " + (e instanceof TimeoutException ? "not done within " + boundMs + " ms" : e));
                    System.exit(3);
                }
            }
            ex.close();
            worst = Math.max(worst, (System.nanoTime() - t0) / 1_000_000);
        }
        System.out.println(rounds + " rounds of virtual threads defining classes, the last of " + threads + ": done");
        System.err.println("worst round " + worst + " ms");
    }
}
`,
}

// vcountSrc counts every execution exactly (an atomic counter per join
// point: 10,000 virtual threads on two carriers lose plain increments).
// Its advice at step takes a monitor and parks in it, so the virtual
// thread unmounts inside advice, its bypass flag set, and may resume on
// another carrier; the first one starts a virtual thread from inside the
// advice, which inherits the flag and reports it.
const vcountSrc = `package vcount;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import weft.rt.JoinPointStaticPart;
public final class Counter {
    static final AtomicLongArray HITS = new AtomicLongArray(1 << 20);
    static final Object LOCK = new Object();
    static int stepId = -1;
    static volatile String child = "none";
    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
            System.err.println("vcount: step " + (stepId < 0 ? 0 : HITS.get(stepId)) + ", child " + child)));
    }
    public static void hit(int id) { HITS.getAndIncrement(id < HITS.length() ? id : HITS.length() - 1); }
    public static void step(JoinPointStaticPart jp) {
        if (stepId < 0) {
            stepId = jp.getId();
            // A virtual thread started inside advice inherits the bypass
            // flag: it runs unadvised.
            boolean mine = weft.rt.DIB.get();
            Thread t = Thread.ofVirtual().start(() -> child = "bypassed=" + weft.rt.DIB.get() + " parent=" + mine);
            try { t.join(); } catch (InterruptedException e) { throw new Error(e); }
        }
        // The advice itself takes a monitor and parks: the virtual thread
        // unmounts inside advice, its flag set, and may resume elsewhere.
        synchronized (LOCK) { LockSupport.parkNanos(1000); }
    }
}
`

const vcountAspect = `aspect VCount {
    before(): (execution(* *(..)) || execution(new(..))) && !within(vcount..*) {
        vcount.Counter.hit(joinPointId);
    }
    before(): execution(static int vt.Main.step(int)) {
        vcount.Counter.step(thisJoinPointStaticPart);
    }
}
`

// javac25 compiles sources with JDK 25's javac (class path cp, if any,
// and options opts) into a new directory.
func javac25(t *testing.T, j25 string, sources map[string]string, cp string, opts ...string) string {
	t.Helper()
	src := t.TempDir()
	var files []string
	for name, text := range sources {
		p := filepath.Join(src, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	out := t.TempDir()
	args := append([]string{"-d", out}, opts...)
	if cp != "" {
		args = append(args, "-cp", cp)
	}
	if b, err := exec.Command(filepath.Join(j25, "bin", "javac"), jvmtest.ToolArgs(append(args, files...)...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac 25: %v\n%s", err, b)
	}
	return out
}

// TestJDK25VirtualThreads profiles programs of virtual threads on JDK 25,
// java.base and the program woven with the profiler and an exact counting
// aspect (one woven JDK for both programs, in one cache):
//
//   - 10,000 virtual threads each call step 10 times: the counting aspect
//     counts 100,000 executions of it, over the JDK's and the program's
//     (so no advice ran under another thread's flag: a mount's after
//     advice cleared the flag of the thread it mounted, and that thread's
//     own executions were counted inside its advice); the virtual thread
//     the advice starts inherits the set flag; the profile holds step's
//     100,000 calls in its one context, under work and the thread's task,
//     never under a carrier's frames (its tree followed the thread across
//     carriers and yields);
//   - 100 rounds of virtual threads (20, the last 2,000) defining hidden classes (the ClassFile
//     API's, their static initializers spinning lambda proxies: the
//     thread pinned to its carrier meanwhile) and Proxy classes at once,
//     every one through the load-time hook: each round ends within its
//     bound (the program fails a round that does not; the hook's socket
//     reads parked every carrier and the JVM hung before the hook read
//     its sockets as files).
func TestJDK25VirtualThreads(t *testing.T) {
	j25 := jvmtest.JDK25(t)
	weft := buildWeft(t)
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if b, err := exec.Command(weft, "runtime", "-o", rtJar).CombinedOutput(); err != nil {
		t.Fatalf("weft runtime: %v\n%s", err, b)
	}
	adv := javac25(t, j25, map[string]string{"vcount/Counter.java": vcountSrc}, rtJar)
	app := javac25(t, j25, vthreadSrc, "")
	aspect := filepath.Join(t.TempDir(), "vcount.weft")
	if err := os.WriteFile(aspect, []byte(vcountAspect), 0o644); err != nil {
		t.Fatal(err)
	}
	java := filepath.Join(j25, "bin", "java")
	cache := newCache(t)
	profile := func(t *testing.T, args ...string) (out, stdout, stderr string) {
		t.Helper()
		out = filepath.Join(t.TempDir(), "prof")
		// A hung JVM fails the test instead of stalling the suite.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, weft, append([]string{"profile", "--patches", "--no-time", "--modules", "java.base",
			"-o", out, "-a", aspect, "--advice-cp", adv, "--", java, "-cp", app}, args...)...)
		cmd.Env = append(os.Environ(), "WEFT_CACHE="+cache)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		start := time.Now()
		err := cmd.Run()
		t.Logf("weft profile ... %s: %.1fs", strings.Join(args, " "), time.Since(start).Seconds())
		if err != nil {
			t.Fatalf("weft profile ... %s: %v\nstdout:\n%s\nstderr:\n%.3000s", strings.Join(args, " "), err, o.String(), e.String())
		}
		return out, o.String(), e.String()
	}

	t.Run("exact", func(t *testing.T) {
		out, stdout, stderr := profile(t, "vt.Main", "10000", "10")
		if want := "10000 virtual threads, step 100000 times, sum 2850000, monitored 100000, locked 100000\n"; stdout != want {
			t.Errorf("stdout %q, want %q", stdout, want)
		}
		if !strings.Contains(stderr, "vcount: step 100000, child bypassed=true parent=true\n") {
			t.Errorf("the counting aspect did not count step's 100,000 executions, or the virtual thread started in advice ran advised:\n%.3000s", stderr)
		}
		p := readCCT(t, out)
		var steps, works float64
		var where []string
		p.Walk(func(stack []string, n *flame.Node) {
			switch n.Name {
			case "vt.Main.work":
				works += n.Self[0]
			case "vt.Main.step":
				steps += n.Self[0]
				s := strings.Join(stack, ";")
				where = append(where, s)
				if len(stack) < 3 || stack[len(stack)-2] != "vt.Main.work" || stack[len(stack)-3] != "vt.Main.lambda$main$0" ||
					strings.Contains(s, "ForkJoinWorkerThread") || strings.Contains(s, "runContinuation") || strings.Contains(s, "Continuation.") {
					t.Errorf("step in a context not its own (%.0f calls): %s", n.Self[0], s)
				}
			}
		})
		t.Logf("step: %.0f calls in %d context(s): %.300s", steps, len(where), where)
		if steps != 100000 || works != 10000 || len(where) != 1 {
			t.Errorf("the profile: step %.0f calls in %d contexts, work %.0f; want 100,000 in one, 10,000", steps, len(where), works)
		}
	})

	t.Run("define", func(t *testing.T) {
		// One JVM, 100 independent rounds (a class loader, threads and
		// classes of their own each), each bounded to 60 s: 99 of 20
		// threads, the last of 2,000.
		_, stdout, stderr := profile(t, "vt.Define", "100", "20", "60000", "2000")
		if stdout != "100 rounds of virtual threads defining classes, the last of 2000: done\n" {
			t.Errorf("stdout %q\n%.3000s", stdout, stderr)
		}
		// Each thread's hidden class and two lambda proxies (spun by the
		// JDK with its ClassFile API) are defined through the hook and
		// woven: at least (99 x 20 + 2,000) x 3 classes, none left unwoven.
		m := regexp.MustCompile(`weft: load-time weaving: (\d+) classes woven, (\d+) from cache, \d+ unchanged, (\d+) left unwoven`).FindStringSubmatch(stderr)
		if m == nil || strings.Contains(stderr, "load-time weaving stopped") {
			t.Fatalf("load-time weaving:\n%.3000s", stderr)
		}
		woven, _ := strconv.Atoi(m[1])
		cached, _ := strconv.Atoi(m[2])
		t.Logf("%s; %s", m[0], regexp.MustCompile(`worst round \d+ ms`).FindString(stderr))
		if woven+cached < (99*20+2000)*3 || m[3] != "0" {
			t.Errorf("load-time weaving: %s; want at least 11,940 classes woven, none left unwoven", m[0])
		}
	})
}
