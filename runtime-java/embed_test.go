package rtjava

import (
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

func TestBuildIsCachedAndParses(t *testing.T) {
	home := jvmtest.JavaHome(t)
	cache := t.TempDir()
	classes, err := Build(home, cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"weft/rt/Weft", "weft/rt/BIB", "weft/rt/DIB", "weft/rt/JoinPointStaticPart"} {
		b, ok := classes[want]
		if !ok {
			t.Fatalf("runtime lacks %s (have %d classes)", want, len(classes))
		}
		if _, err := classfile.Parse(want, b); err != nil {
			t.Fatal(err)
		}
	}
	// The second build must come from the cache: same bytes, no javac.
	again, err := Build("/nonexistent-jdk", cache)
	if err != nil {
		t.Fatalf("cached build ran javac: %v", err)
	}
	if len(again) != len(classes) {
		t.Fatalf("cache gave %d classes, build gave %d", len(again), len(classes))
	}
}

// TestDIBPerThreadAndInherited runs the application-mode DIB on the JVM:
// each thread sees only its own flag (also when thread ids collide in the
// cell cache), and a new thread inherits its creator's flag.
func TestDIBPerThreadAndInherited(t *testing.T) {
	src := map[string]string{}
	for k, v := range Sources() {
		src[k] = string(v)
	}
	src["T.java"] = `import weft.rt.*;
import java.util.concurrent.atomic.AtomicInteger;
public class T {
    static boolean childSees(boolean parent) throws Exception {
        DIB.set(parent);
        boolean[] seen = new boolean[1];
        Thread c = new Thread(() -> seen[0] = DIB.get());
        c.start(); c.join();
        DIB.set(false);
        return seen[0];
    }
    public static void main(String[] a) throws Exception {
        // The first thread to find its flag clear holds the shared slot
        // (its token is the thread itself) until it sets its flag.
        Object first = DIB.token(), again = DIB.token();
        DIB.begin(again);
        boolean bypassed = DIB.token() == null && DIB.get();
        DIB.end(again);
        System.out.println("slot " + (again == Thread.currentThread()) + " " + (first != again) + " bypassed " + bypassed +
            " after " + (DIB.token() != null && DIB.token() != Thread.currentThread()));
        System.out.println("bypass " + Weft.bypass() + " inherit " + childSees(true) + " " + childSees(false));
        AtomicInteger bad = new AtomicInteger();
        Thread[] ts = new Thread[600];
        for (int i = 0; i < ts.length; i++) {
            final boolean mine = i % 2 == 0;
            ts[i] = new Thread(() -> {
                for (int k = 0; k < 2000; k++) {
                    boolean old = DIB.getAndSetTrue();
                    if (old) bad.incrementAndGet();
                    DIB.set(mine);
                    if (DIB.get() != mine) bad.incrementAndGet();
                    if ((DIB.token() == null) != mine) bad.incrementAndGet();
                    DIB.set(false);
                    Object t = DIB.token(); // some thread may hold the shared clear slot
                    if (t == null || DIB.token() == null) bad.incrementAndGet();
                    Object init = DIB.enterInit();
                    if (init == null || DIB.token() != null || DIB.enterInit() != null) bad.incrementAndGet();
                    DIB.exitInit(init);
                    if (DIB.token() == null || !DIB.owns(DIB.token())) bad.incrementAndGet();
                }
            });
        }
        for (Thread x : ts) x.start();
        for (Thread x : ts) x.join();
        System.out.println("bad " + bad.get());
    }
}`
	dir := jvmtest.Compile(t, src)
	out, _ := jvmtest.Run(t, "-cp", dir, "T")
	if out != "slot true true bypassed true after true\nbypass false inherit true false\nbad 0\n" {
		t.Errorf("output:\n%s", out)
	}
}
