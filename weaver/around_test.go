package weaver

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
)

const aroundFolder = "testdata/around"

// readAround returns the files of testdata/around named, by path.
func readAround(t *testing.T, names ...string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(aroundFolder, n))
		if err != nil {
			t.Fatal(err)
		}
		m[n] = string(b)
	}
	return m
}

// TestAroundAgainstAspectJ runs the same program woven by ajc (Around.aj)
// and by weft (around.weft) with around advice at every kind of join point
// weft has — method execution and call, constructor call, array
// construction, field get and set, static and instance — proceeding zero,
// one and two times, with new arguments, a new target, results changed,
// null to a primitive, a wrong result type (ClassCastException), an
// exception caught around proceed, a run-time test (args(String) of an
// Object), two around advice at one call and at one execution, and before and after
// advice of higher and lower precedence at an around's join point: the
// output and the advice counts must be the same, under -Xverify:all.
func TestAroundAgainstAspectJ(t *testing.T) {
	t.Parallel() // see jdkOnce
	for _, f := range []string{ajcPath, aspectjrt} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ)
		}
	}
	progSrc := readAround(t, "app/Main.java", "app/Point.java", "app/Box.java", "aradv/Count.java")
	app := jvmtest.Compile(t, progSrc, "--release", "8", "-g")
	sep := string(filepath.ListSeparator)

	// ajc, while weft weaves (ajc takes most of the test's time).
	ajOut := t.TempDir()
	cmd := ajcCommand(t, "-1.8", "-inpath", app, "-Xjoinpoints:arrayconstruction",
		"-cp", aspectjrt, "-d", ajOut, filepath.Join(aroundFolder, "Around.aj"))
	ajc := make(chan error, 1)
	var ajcOut []byte
	go func() {
		var err error
		ajcOut, err = cmd.CombinedOutput()
		ajc <- err
	}()

	// weft
	src := runtimeSources()
	for k, v := range readAround(t, "aradv/Adv.java") {
		src[k] = v
	}
	for k, v := range progSrc {
		src[k] = v
	}
	adv := jvmtest.Compile(t, src)
	weftOut := t.TempDir()
	_, warnings := weftWeave(t, app, weftOut, adv, aspectFile{"around.weft", []byte(readAround(t, "around.weft")["around.weft"])})
	wantWarnings := []string{
		"app/Main.class: around.weft:28: around advice not woven at method-call(int app.Main.nullInt()) in app.Main: void around advice at a join point returning int",
		"app/Point.class: around.weft:29: around advice not woven at constructor-execution(void app.Point.<init>(int, int)) in app.Point: around constructor execution is not supported",
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("weft warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", weftOut+sep+adv, "app.Main")
	if err := <-ajc; err != nil {
		t.Fatalf("ajc: %v\n%s", err, ajcOut)
	}
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", ajOut+sep+aspectjrt, "app.Main")
	if got != want {
		t.Errorf("weft's run differs from ajc's:\najc:\n%s\nweft:\n%s", want, got)
	}
	// ajc is the oracle; these lines keep the comparison from being vacuous.
	for _, line := range []string{"twice 22", "greet hi BOB!", "skip -1", "fact 120", "log x\nlog x\nnullInt",
		"nullInt 0", "str java.lang.ClassCastException", "point (11,2)", "array 6", "f 1003", "f 1012", "sf 42",
		"box 99", "big 8", "thrower -3", "two 25", "id aa 1",
		"counts {a-in=8, a-out=4, array=1, b-in=8, b-out=4, big=1, box=1, fact=5, get=2, greet=1, id=1, log=1, log2=2, nullInt=1, point=1, set=2, sget=1, skip=1, str=1, thrower=1, twice=4, two1=1, two2=1}"} {
		if !strings.Contains(want, line) {
			t.Errorf("ajc's run lacks %q:\n%s", line, want)
		}
	}
}

// aroundLoopSrc makes a small object and calls a method on it, 100,000
// times a round, and prints the fewest bytes a round allocated.
const aroundLoopSrc = `package app;
public class Loop {
    static final class Point {
        final int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
        int sum() { return x + y; }
    }
    static long loop(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) { Point p = new Point(i, i + 1); s += p.sum(); }
        return s;
    }
    public static void main(String[] a) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE, sink = 0;
        for (int r = 0; r < 40; r++) {
            long b = mx.getCurrentThreadAllocatedBytes();
            sink += loop(100_000);
            least = Math.min(least, mx.getCurrentThreadAllocatedBytes() - b);
        }
        System.out.println("least " + least + " sink " + sink);
    }
}
`

// aroundAdviceSrc: plus proceeds with -x for x < 0, else adds 1000 to
// proceed(); once proceeds once.
const aroundAdviceSrc = `package adv;
public final class Log {
    public static int plus(weft.rt.Proceed p, int x) throws Throwable {
        return x < 0 ? (Integer) p.proceed(-x) : (Integer) p.proceed() + 1000;
    }
    public static Object once(weft.rt.Proceed p) throws Throwable { return p.proceed(); }
}
`

// TestAroundClosure: what the closure costs.
//
// app.Many, a class with 40 around shadows (methods mK(x) = x + K), gets a
// run dispatch of small methods, none past C2's limit for inlining a hot
// method (FreqInlineSize, 325 bytes: a run() with a case per shadow was
// 538 bytes here, never inlined, so every closure of the class was
// allocated), and proceed reaches the right join point in every group of
// 16, with the original and with new arguments, under -Xverify:all.
//
// app.Loop: around advice that proceeds once, at a constructor call and at
// the execution of a method of the new object in a loop, allocates nothing
// once C2 has compiled the loop (-Xbatch: the compiled code runs from the
// round after): the closures, the join point's boxed value and the object
// itself are removed by escape analysis. Proceed's final token field (C2
// then kept what was stored into the closure) and valueOf boxing (a merge
// of the cache and a new box) made 24 to 40 bytes an iteration here.
func TestAroundClosure(t *testing.T) {
	t.Parallel() // see jdkOnce
	const n = 40
	var methods, calls, want strings.Builder
	for k := 0; k < n; k++ {
		fmt.Fprintf(&methods, "    int m%d(int x) { return x + %d; }\n", k, k)
	}
	for _, c := range []struct{ k, x int }{{0, 1}, {15, 1}, {16, -1}, {31, 2}, {32, -3}, {39, 4}} {
		fmt.Fprintf(&calls, "        System.out.println(o.m%d(%d));\n", c.k, c.x)
		if c.x < 0 {
			fmt.Fprintf(&want, "%d\n", -c.x+c.k)
		} else {
			fmt.Fprintf(&want, "%d\n", c.x+c.k+1000)
		}
	}
	src := map[string]string{
		"app/Many.java": "package app;\npublic class Many {\n" + methods.String() +
			"    public static void main(String[] a) {\n        Many o = new Many();\n" + calls.String() + "    }\n}\n",
		"app/Loop.java": aroundLoopSrc,
		"adv/Log.java":  aroundAdviceSrc,
	}
	plus := adv(advice.Around, 0, "plus", "(Lweft/rt/Proceed;I)I", val(advice.Proceed, 0, "Lweft/rt/Proceed;"), val(advice.Arg, 0, "I"))
	plus.AroundType = "I"
	once := adv(advice.Around, 1, "once", "(Lweft/rt/Proceed;)Ljava/lang/Object;", val(advice.Proceed, 0, "Lweft/rt/Proceed;"))
	once.AroundType = "Ljava/lang/Object;"
	rules := testMatcher{
		{kind: advice.MethodExecution, owner: "app/Many", name: "m[0-9]+", adv: plus},
		{kind: advice.ConstructorCall, owner: `app/Loop\$Point`, adv: once},
		{kind: advice.MethodExecution, owner: `app/Loop\$Point`, name: "sum", adv: once},
	}
	out, infos, res := compileWeaveRun(t, src, rules, "app.Many")
	if out != want.String() {
		t.Errorf("app.Many's output:\n%s\nwant:\n%s", out, want.String())
	}
	if len(infos) != n+2 {
		t.Errorf("%d join points advised, want %d", len(infos), n+2)
	}
	runDispatchSizes(t, filepath.Join(res.Name, "app", "Many"+SisterSuffix+".class"))

	out, _ = jvmtest.Run(t, "-Xbatch", "-cp", res.Name, "app.Loop")
	var least, sink int64
	if _, err := fmt.Sscanf(out, "least %d sink %d", &least, &sink); err != nil || sink != 40*100_000*100_000 {
		t.Fatalf("app.Loop's output %q (%v), want the loop's sum %d", out, err, 40*100_000*100_000)
	}
	if least > 1000 {
		t.Errorf("app.Loop's compiled loop allocated %d bytes in 100,000 iterations, want none", least)
	}
}

// runDispatchSizes checks the run dispatch of the sister class in file:
// run and three groups for each of the two run methods, none past C2's
// FreqInlineSize.
func runDispatchSizes(t *testing.T, file string) {
	t.Helper()
	c := readClass(t, file)
	const freqInlineSize = 325
	nodes := 0
	for _, m := range c.Methods {
		name := c.MemberName(m)
		if name != "run" && !strings.HasPrefix(name, "qg") && !strings.HasPrefix(name, "sg") {
			continue
		}
		nodes++
		code := c.Attr(m.Attributes, "Code")
		if size := binary.BigEndian.Uint32(code.Info[4:8]); size > freqInlineSize {
			t.Errorf("%s%s: %d bytes of code, past C2's %d for a hot method", name, c.Pool.Utf8(m.Desc), size, freqInlineSize)
		}
	}
	if nodes != 2*(1+3) {
		t.Errorf("%d run dispatch methods, want 8", nodes)
	}
}
