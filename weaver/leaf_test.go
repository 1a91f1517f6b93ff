package weaver

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestLeafAdviceDirect: leaf advice (a counter) is called without the
// bypass, and still never runs inside other advice or inside its own
// class's static initializer: the counter's <clinit> and the non-leaf
// advice both call fib, and neither call is counted; the woven fib(3) is
// counted 5 times, its executions outside advice. The leaf helper tests
// DIB.leafDirect before the bracketed call, and the sister initializes the
// counter's class in its own <clinit>.
func TestLeafAdviceDirect(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    static final long[] HITS = new long[4];
    static { System.out.println("init sees fib(4)=" + app.Main.fib(4)); }
    public static void hit(int id) { HITS[id & 3]++; }
    public static long hits() { long n = 0; for (long h : HITS) n += h; return n; }
    public static void reenter(int n) { if (n == 3) System.out.println("advice sees fib(5)=" + app.Main.fib(5)); }
}`,
		"app/Main.java": `package app;
public class Main {
    public static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) {
        System.out.println(fib(3));
        System.out.println("hits " + adv.Log.hits());
    }
}`}
	hit := adv(advice.Before, 0, "hit", "(I)V", val(advice.JoinPointID, 0, "I"))
	hit.Leaf = true
	rules := testMatcher{
		{kind: advice.MethodExecution, name: "fib", adv: hit},
		{kind: advice.MethodExecution, name: "fib", adv: adv(advice.Before, 1, "reenter", "(I)V", val(advice.Arg, 0, "I"))},
	}
	out, _, res := compileWeaveRun(t, src, rules, "app.Main")
	want := "init sees fib(4)=3\nadvice sees fib(5)=5\n2\nhits 5\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	c := readClass(t, filepath.Join(res.Name, "app", "Main"+SisterSuffix+".class"))
	var direct, bracketed int
	for _, m := range c.Methods {
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		leafTest, begins := false, 0
		for _, in := range code.Insns {
			switch in.Op {
			case classfile.OpGetstatic:
				_, name, _ := c.Pool.MemberRef(in.Index)
				leafTest = leafTest || name == "leafDirect"
			case classfile.OpInvokestatic:
				if _, name, _ := c.Pool.MemberRef(in.Index); name == "begin" {
					begins++
				}
			}
		}
		switch name := c.MemberName(m); {
		case name == "<clinit>":
		case leafTest:
			direct++
		case begins > 0:
			bracketed++
		}
	}
	if c.FindMethod("<clinit>", "()V") == nil || direct != 1 || bracketed != 1 {
		t.Errorf("sister: <clinit> %v, %d helpers testing leafDirect (want 1: hit's), %d others setting the flag (want 1: reenter's)",
			c.FindMethod("<clinit>", "()V") != nil, direct, bracketed)
	}
	// Not all the advice is leaf: entries take the token, as before.
	if _, ok := directTest(t, filepath.Join(res.Name, "app", "Main.class"), "fib"); ok {
		t.Errorf("Main.fib reads the sister's constant direct in a weaving with advice that is not leaf")
	}
}

// TestLeafWeavingDirect: in a weaving whose advice is all leaf, woven
// entries whose helpers all call their advice directly read the sister's
// constant direct before taking the token, with no call on that path but
// the advice helper's (the
// entry woven from the header, in a method and a constructor, and the body
// woven in place, with after returning advice). Counts are exact, code
// the advice class's static initializer runs is not advised (Main's
// sister reads its own constant while initializing it; Other's sister,
// initialized inside that bypass, keeps direct false and its methods take
// the token), and a thread whose flag is set (another weaving's advice)
// runs the advice at a direct entry only.
func TestLeafWeavingDirect(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    static final long[] HITS = new long[8];
    static { System.out.println("init sees fib(4)=" + app.Main.fib(4) + " twice(3)=" + app.Other.twice(3)); }
    public static void hit(int id) { HITS[id & 7]++; }
    public static long hits() { long n = 0; for (long h : HITS) n += h; return n; }
}`,
		"app/Other.java": `package app;
public class Other {
    public static int twice(int n) { return 2 * n; }
}`,
		"app/Main.java": `package app;
public class Main {
    static final class Point {
        final int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
        int sum() { return x + y; }
    }
    public static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) {
        System.out.println(fib(3) + " " + Other.twice(2) + " hits " + adv.Log.hits());
        weft.rt.DIB.set(true);
        int f = fib(3), t = Other.twice(2);
        weft.rt.DIB.set(false);
        System.out.println("bypassed " + f + " " + t + " hits " + adv.Log.hits());
        System.out.println(new Point(1, 2).sum() + " hits " + adv.Log.hits());
    }
}`}
	hit := adv(advice.Before, 0, "hit", "(I)V", val(advice.JoinPointID, 0, "I"))
	after := adv(advice.AfterReturning, 1, "hit", "(I)V", val(advice.JoinPointID, 0, "I"))
	hit.Leaf, after.Leaf = true, true
	rules := testMatcher{
		{kind: advice.MethodExecution, owner: "app/.*", name: "fib|twice|sum", adv: hit},
		{kind: advice.ConstructorExecution, owner: "app/.*", adv: hit},
		{kind: advice.MethodExecution, owner: "app/.*", name: "sum", adv: after},
	}
	out, _, res := compileWeaveRun(t, src, rules, "app.Main")
	want := "init sees fib(4)=3 twice(3)=6\n2 4 hits 6\nbypassed 2 4 hits 11\n3 hits 14\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	for _, m := range []struct{ class, method string }{
		{"Main", "fib"}, {"Other", "twice"}, {"Main$Point", "<init>"}, {"Main$Point", "sum"}} {
		class := filepath.Join(res.Name, "app", m.class+".class")
		first, ok := directTest(t, class, m.method)
		if helper := "app/" + m.class + SisterSuffix + ".a"; !ok || !strings.HasPrefix(first, helper) {
			t.Errorf("%s.%s: reads direct %v, its path's first call %q (want true, %s...)", m.class, m.method, ok, first, helper)
		}
		c := readClass(t, filepath.Join(res.Name, "app", m.class+SisterSuffix+".class"))
		field := false
		for _, f := range c.Fields {
			field = field || c.MemberName(f) == "direct" && c.MemberDesc(f) == "Ljava/lang/Object;"
		}
		if !field {
			t.Errorf("%s's sister has no field direct", m.class)
		}
	}
}

// directTest decodes method name of a woven class file and reports whether
// its guard reads the sister's constant direct and, if so, the first
// method called where that path goes (owner.name; super(...) aside).
func directTest(t *testing.T, path, name string) (first string, ok bool) {
	t.Helper()
	c := readClass(t, path)
	for _, m := range c.Methods {
		if c.MemberName(m) != name {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range code.Insns {
			if in.Op != classfile.OpGetstatic {
				continue
			}
			if owner, field, _ := c.Pool.MemberRef(in.Index); field != "direct" || !strings.HasSuffix(owner, SisterSuffix) {
				continue
			}
			if i+2 >= len(code.Insns) || code.Insns[i+1].Op != classfile.OpDup || code.Insns[i+2].Op != classfile.OpIfnonnull {
				return "", true
			}
			at := -1
			for k, in := range code.Insns {
				if in.Op == classfile.OpLabel && in.Label == code.Insns[i+2].Label {
					at = k
				}
			}
			for _, in := range code.Insns[at+1:] {
				if in.Op >= classfile.OpInvokevirtual && in.Op <= classfile.OpInvokedynamic {
					if owner, name, _ := c.Pool.MemberRef(in.Index); name != "<init>" { // a constructor's super(...)
						return owner + "." + name, true
					}
				}
			}
			return "", true
		}
	}
	return "", false
}

// TestLeafAroundDirect: leaf around advice (it counts through another
// class and proceeds) is called without the bypass, and the counts are
// those of advice called with it: the counter's <clinit>, run by the
// sister in a bypass with the advice class's loader, and the non-leaf
// before advice at the around's join point both call fib, uncounted; fib(3) counts
// 5. A closure the advice kept and proceeds with later runs its join point
// with the flag clear and leaves it as it was: on the advice's thread
// outside the advice (the next fib(2) counts 3) and on another thread. The
// helper tests DIB.leafDirect before the bracketed call; a loop of two
// such join points allocates nothing once compiled.
func TestLeafAroundDirect(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Hits.java": `package adv;
public class Hits {
    static final long[] HITS = new long[4];
    static { System.out.println("init sees fib(4)=" + app.Main.fib(4)); }
    public static void hit(int id) { HITS[id & 3]++; }
    public static long hits() { long n = 0; for (long h : HITS) n += h; return n; }
}`,
		"adv/Log.java": `package adv;
public class Log {
    static weft.rt.Proceed kept;
    public static Object count(weft.rt.Proceed p, int id) throws Throwable {
        Hits.hit(id);
        if (kept == null) kept = p;
        return p.proceed();
    }
    public static Object once(weft.rt.Proceed p) throws Throwable { return p.proceed(); }
    public static weft.rt.Proceed kept() { return kept; }
    public static void reenter(int n) { if (n == 3) System.out.println("advice sees fib(5)=" + app.Main.fib(5)); }
}`,
		"app/Main.java": `package app;
public class Main {
    public static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) throws Throwable {
        System.out.println(fib(3) + " hits " + adv.Hits.hits());
        weft.rt.Proceed p = adv.Log.kept();
        System.out.println("again " + p.proceed() + " hits " + adv.Hits.hits());
        System.out.println(fib(2) + " hits " + adv.Hits.hits());
        Thread t = new Thread(() -> {
            try {
                System.out.println("thread " + p.proceed() + " hits " + adv.Hits.hits());
            } catch (Throwable e) {
                throw new RuntimeException(e);
            }
        });
        t.start();
        t.join();
    }
}`,
		"app/Loop.java": aroundLoopSrc,
	}
	count := adv(advice.Around, 0, "count", "(Lweft/rt/Proceed;I)Ljava/lang/Object;",
		val(advice.Proceed, 0, "Lweft/rt/Proceed;"), val(advice.JoinPointID, 0, "I"))
	once := adv(advice.Around, 0, "once", "(Lweft/rt/Proceed;)Ljava/lang/Object;", val(advice.Proceed, 0, "Lweft/rt/Proceed;"))
	for _, a := range []*advice.Advice{count, once} {
		a.AroundType, a.Leaf, a.LeafReach = "Ljava/lang/Object;", true, []string{"adv/Hits", "weft/rt/Proceed"}
	}
	once.LeafReach = once.LeafReach[1:]
	rules := testMatcher{
		{kind: advice.MethodExecution, owner: "app/Main", name: "fib", adv: count},
		{kind: advice.MethodExecution, owner: "app/Main", name: "fib", adv: adv(advice.Before, 1, "reenter", "(I)V", val(advice.Arg, 0, "I"))},
		{kind: advice.ConstructorCall, owner: `app/Loop\$Point`, adv: once},
		{kind: advice.MethodExecution, owner: `app/Loop\$Point`, name: "sum", adv: once},
	}
	out, _, res := compileWeaveRun(t, src, rules, "app.Main")
	want := "init sees fib(4)=3\nadvice sees fib(5)=5\n2 hits 5\nagain 2 hits 9\n1 hits 12\nthread 2 hits 16\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	c := readClass(t, filepath.Join(res.Name, "app", "Main"+SisterSuffix+".class"))
	var direct int
	var loaded []string
	for _, m := range c.Methods {
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range code.Insns {
			switch in.Op {
			case classfile.OpGetstatic:
				if _, name, _ := c.Pool.MemberRef(in.Index); name == "leafDirect" && strings.HasPrefix(c.MemberName(m), "r") {
					direct++
				}
			case classfile.OpLdc:
				if c.MemberName(m) == "<clinit>" && c.Pool.Tag(in.Index) == classfile.TagString {
					loaded = append(loaded, c.Pool.Utf8(c.Pool.Get(in.Index).A))
				}
			}
		}
	}
	if got := strings.Join(loaded, " "); direct != 1 || got != "adv.Log adv.Hits weft.rt.Proceed" {
		t.Errorf("sister: %d around helpers testing leafDirect (want 1), <clinit> initializes %q (want adv.Log adv.Hits weft.rt.Proceed)", direct, got)
	}

	out, _ = jvmtest.Run(t, "-Xbatch", "-cp", res.Name, "app.Loop")
	var least, sink int64
	if _, err := fmt.Sscanf(out, "least %d sink %d", &least, &sink); err != nil || sink != 40*100_000*100_000 {
		t.Fatalf("app.Loop's output %q (%v), want the loop's sum %d", out, err, 40*100_000*100_000)
	}
	if least > 1000 {
		t.Errorf("app.Loop's compiled loop allocated %d bytes in 100,000 iterations, want none", least)
	}
}
