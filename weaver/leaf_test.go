package weaver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// TestLeafAdviceDirect: leaf advice (a counter) is called without the
// bypass, and still never runs inside other advice or inside its own
// class's static initializer: the counter's <clinit> and the non-leaf
// advice both call fib, and neither call is counted; the woven fib(3) is
// counted 5 times, its executions outside advice. The leaf helper tests
// DIB.leafDirect before the bracketed call, and the sister initializes the
// counter's class in its own <clinit>.
func TestLeafAdviceDirect(t *testing.T) {
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
	b, err := os.ReadFile(filepath.Join(res.Name, "app", "Main"+SisterSuffix+".class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse("sister", b)
	if err != nil {
		t.Fatal(err)
	}
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
}
