package ltw

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/runtime-java/rtnames"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
)

// manySrc defines Item in 40 class loaders of its own, from 4 threads at
// once (the first thread interrupted), and calls Item.value once in each;
// then once more in a loader of
// its own through jdk.internal.misc.Unsafe.defineClass (the package
// exported to it by the command line); then it defines a class named as
// sister classes are, a class that looks woven ahead of time (Pre), and
// calls Text.value once.
const manySrc = `import java.net.*;
import java.util.concurrent.atomic.AtomicInteger;
public class Many {
    public static void main(String[] a) throws Exception {
        URL u = Many.class.getProtectionDomain().getCodeSource().getLocation();
        AtomicInteger sum = new AtomicInteger();
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            int base = t * 10;
            ts[t] = new Thread(() -> {
                try {
                    // The first thread defines its classes interrupted: they
                    // are woven all the same, and its status is kept.
                    if (base == 0) Thread.currentThread().interrupt();
                    for (int i = base; i < base + 10; i++) {
                        ClassLoader l = new URLClassLoader(new URL[]{u}, null);
                        Class<?> c = l.loadClass("Item");
                        sum.addAndGet((Integer) c.getMethod("value", int.class).invoke(null, i));
                    }
                    if (base == 0 && !Thread.interrupted()) throw new IllegalStateException("interrupt status lost");
                } catch (Exception e) { throw new RuntimeException(e); }
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        Class<?> uc = Class.forName("jdk.internal.misc.Unsafe");
        byte[] b;
        try (java.io.InputStream in = Many.class.getResourceAsStream("/Item.class")) { b = in.readAllBytes(); }
        Class<?> c = (Class<?>) uc.getMethod("defineClass", String.class, byte[].class, int.class, int.class, ClassLoader.class,
            java.security.ProtectionDomain.class).invoke(uc.getMethod("getUnsafe").invoke(null), "Item", b, 0, b.length,
            new URLClassLoader(new URL[0], null), null);
        sum.addAndGet((Integer) c.getMethod("value", int.class).invoke(null, 40));
        new URLClassLoader(new URL[]{u}, null).loadClass("Item$weft$jp");
        new URLClassLoader(new URL[]{u}, null).loadClass("Pre");
        c = new URLClassLoader(new URL[]{u}, null).loadClass("Text");
        sum.addAndGet((Integer) c.getMethod("value", int.class).invoke(null, 1));
        System.out.println("sum " + sum);
    }
}
`

const itemSrc = `public class Item { public static int value(int i) { return 3 * i; } }
`

// sisterSrc is a class named as weft names sister classes: weft never
// weaves one, so the JVM does not ask.
const sisterSrc = `public class Item$weft$jp { }
`

// preSrc names weft's guard class (a CONSTANT_Class weft/rt/Weft) as a
// class woven ahead of time does: the JVM does not ask about it (it is
// defined, never linked: the stub weftSrc stands in for the guard at
// compile time only).
const preSrc = `public class Pre { static Object guard() { return weft.rt.Weft.class; } }
`

const weftSrc = `package weft.rt; public class Weft { }
`

// textSrc has weft's guard class's name as a string, not as a class: the
// JVM asks about it and it is woven.
const textSrc = `public class Text { public static int value(int i) { return "weft/rt/Weft".length() + i; } }
`

// logSrc counts advice calls and prints the count at exit.
const logSrc = `package adv;
import java.util.concurrent.atomic.AtomicLong;
public final class Log {
    static final AtomicLong HITS = new AtomicLong();
    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("hits " + HITS.get()))); }
    public static void hit(int id) { HITS.incrementAndGet(); }
}
`

// itemOnly advises Item's method executions.
type itemOnly struct{ adv *advice.Advice }

func (m itemOnly) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Kind != advice.MethodExecution || s.Within != "Item" && s.Within != "Text" {
		return nil
	}
	return []advice.Applied{{Advice: m.adv, Verdict: advice.Always}}
}

// TestJVMConcurrentAndClosed runs a JVM whose java.base has the hook (and
// nothing else woven) against a server, under -Xverify:all: 4 threads
// defining Item in 40 loaders at once, then Unsafe.defineClass once more,
// get every definition woven (41 advice calls, exactly), and Text too (the
// JVM's test for classes woven ahead of time, which it does not send,
// keeps back no other class; Pre is not sent); then, with the
// server closed after its fifth woven class, the program still completes
// with the same output and the JVM says once where load-time weaving
// stopped.
func TestJVMConcurrentAndClosed(t *testing.T) {
	home := jvmtest.JavaHome(t)
	rt, err := jdk.BuildRuntime(home, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	adv := jvmtest.Compile(t, map[string]string{"adv/Log.java": logSrc})
	out := t.TempDir()
	if _, err := jdk.WeaveModules(jdk.Options{JavaHome: home, Modules: []string{"java.base"}, Out: out,
		Weaver: noWeaving{}, Runtime: rt, BootAppend: []string{adv}, Jars: true}); err != nil {
		t.Fatal(err)
	}
	app := jvmtest.Compile(t, map[string]string{"Many.java": manySrc, "Item.java": itemSrc, "Item$weft$jp.java": sisterSrc,
		"Pre.java": preSrc, "weft/rt/Weft.java": weftSrc, "Text.java": textSrc})
	unsafe := []string{"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"}
	want, _ := jvmtest.Run(t, append(unsafe, "-cp", app, "Many")...)

	run := func(closeAfter int) (string, string, Summary) {
		t.Helper()
		img, err := classpath.OpenJDK(home, "java.base")
		if err != nil {
			t.Fatal(err)
		}
		defer img.Close()
		h := NewHierarchy(img)
		a := &advice.Advice{Kind: advice.Before, Aspect: "T", File: "t.weft", Line: 1,
			Method: advice.Method{Owner: "adv/Log", Name: "hit", Desc: "(I)V"},
			Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
		s := NewServer(weaver.New(itemOnly{a}, []*advice.Advice{a}, weaver.Options{Hierarchy: h}), h)
		s.Skip = func(name string) bool { // sees every class asked about
			if strings.HasSuffix(name, weaver.SisterSuffix) || name == "Pre" {
				t.Errorf("the JVM asked about %s", name)
			}
			return false
		}
		ln, path, err := Listen(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		var mu sync.Mutex
		woven := 0
		if closeAfter > 0 {
			s.OnResult = func(*weaver.Result) {
				mu.Lock()
				woven++
				n := woven
				mu.Unlock()
				if n == closeAfter {
					once.Do(func() { go func() { ln.Close(); s.Close() }() })
				}
			}
		}
		go s.Serve(ln)
		stdout, stderr := jvmtest.Run(t, append(unsafe, "-Xverify:all", "@"+filepath.Join(out, "weft.args"),
			"-D"+rtnames.LTWProperty+"="+path, "-cp", app, "Many")...)
		ln.Close()
		s.Close()
		return stdout, stderr, s.Summary()
	}

	stdout, stderr, sum := run(0)
	if stdout != want || want != "sum 2473\n" || !strings.Contains(stderr, "hits 42\n") || sum.Woven != 42 || sum.UnwovenCount != 0 {
		t.Errorf("concurrent: stdout %q (want %q), %s, stderr:\n%s", stdout, want, sum, stderr)
	}
	t.Logf("concurrent: %s", sum)

	stdout, stderr, sum = run(5)
	stopped := strings.Count(stderr, "weft: load-time weaving stopped at ")
	hits := 0
	for _, l := range strings.Split(stderr, "\n") {
		if n, ok := strings.CutPrefix(l, "hits "); ok {
			hits, _ = strconv.Atoi(n)
		}
	}
	// The server closes as the fifth class's result is seen, before its
	// answer (and maybe others being woven at once) is written: some of
	// the five may reach the JVM unwoven, but not all of them can.
	if stdout != want || stopped != 1 || hits < 1 || hits >= 42 {
		t.Errorf("closed after 5: stdout %q (want %q), %d stop lines, %d hits, stderr:\n%s", stdout, want, stopped, hits, stderr)
	}
}

// noWeaving weaves nothing: the image keeps only the patches and the
// runtime.
type noWeaving struct{}

func (noWeaving) WeaveClass(string, []byte) (*jdk.Woven, error) { return &jdk.Woven{}, nil }
