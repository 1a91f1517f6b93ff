package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// TestFusedEntry weaves in JDK mode, where a method's first before advice
// call is its guard (fused.go), and runs the result on the application
// runtime under -Xverify:all: a constructor (its entry helper after
// super(...)), a method with before advice only and one with after
// returning advice too (the token the entry helper returns guards it)
// count exactly; code the advice runs (inner) and code run with the
// thread's flag set run no advice, before or after. The woven methods
// start with the entry helper's call, read no BIB themselves, and the
// class is recognized as woven; an application weaving keeps the guard.
func TestFusedEntry(t *testing.T) {
	src := map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    static final StringBuilder SB = new StringBuilder();
    public static void before(int id) { SB.append('b'); app.Main.inner(); }
    public static void after(int id) { SB.append('a'); }
    public static String report() { return SB.toString(); }
}`,
		"app/Main.java": `package app;
public class Main {
    final int n;
    Main(int n) { super(); this.n = n; }
    int get() { return n; }
    int twice(int k) { return 2 * k; }
    public static int inner() { return 1; }
    public static void main(String[] a) {
        Main m = new Main(3);
        int s = m.get() + m.twice(2) + inner();
        weft.rt.DIB.set(true);
        int b = m.get() + m.twice(5) + new Main(1).n + inner();
        weft.rt.DIB.set(false);
        System.out.println(s + " " + b + " " + adv.Log.report());
    }
}`}
	before := adv(advice.Before, 0, "before", "(I)V", val(advice.JoinPointID, 0, "I"))
	after := adv(advice.AfterReturning, 1, "after", "(I)V", val(advice.JoinPointID, 0, "I"))
	rules := testMatcher{
		{kind: advice.ConstructorExecution, owner: "app/Main", adv: before},
		{kind: advice.MethodExecution, owner: "app/Main", name: "get|twice|inner", adv: before},
		{kind: advice.MethodExecution, owner: "app/Main", name: "twice", adv: after},
	}
	out, _, res := compileWeaveRunIn(t, JDK, src, rules, "app.Main")
	// new Main(3), get, twice (before and after), inner; none bypassed,
	// none inside the advice (which calls inner).
	if want := "8 15 bbbab\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	main := filepath.Join(res.Name, "app", "Main.class")
	for _, m := range []string{"<init>", "get", "twice", "inner"} {
		calls, readsBIB := entryCalls(t, main, m)
		if readsBIB || len(calls) == 0 || calls[0] != "app/Main"+SisterSuffix+".a0(I)Ljava/lang/Object;" && m != "<init>" ||
			m == "<init>" && (len(calls) < 2 || !strings.HasSuffix(calls[1], "(I)Ljava/lang/Object;")) {
			t.Errorf("Main.%s: calls %v, reads BIB.ready %v: want the entry helper first (after super() in <init>), no BIB read",
				m, calls, readsBIB)
		}
		if m == "twice" && (len(calls) < 2 || !strings.HasSuffix(calls[1], "(Ljava/lang/Object;I)V")) {
			t.Errorf("Main.twice: calls %v, want the after returning helper taking the token", calls)
		}
	}
	b, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	w := New(rules, nil, Options{Mode: JDK})
	if again, err := w.WeaveClass("Main.class", b); err != nil || again.Class != nil ||
		len(again.Warnings) != 1 || !strings.Contains(again.Warnings[0], "already woven") {
		t.Errorf("weaving the woven class again: %v, woven %v, warnings %q: want it left as is, already woven",
			err, again != nil && again.Class != nil, again.Warnings)
	}

	// The same weaving for an application keeps the inline guard.
	_, _, res = compileWeaveRunIn(t, App, src, rules, "app.Main")
	if _, readsBIB := entryCalls(t, filepath.Join(res.Name, "app", "Main.class"), "get"); !readsBIB {
		t.Errorf("application weaving: Main.get does not read BIB.ready: want the inline guard")
	}
}

// entryCalls decodes method name of a class file and returns the methods
// it calls (owner.name+desc), in code order, and whether it reads
// BIB.ready.
func entryCalls(t *testing.T, path, name string) (calls []string, readsBIB bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Methods {
		if c.MemberName(m) != name {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range code.Insns {
			switch in.Op {
			case classfile.OpGetstatic:
				owner, field, _ := c.Pool.MemberRef(in.Index)
				readsBIB = readsBIB || owner == "weft/rt/BIB" && field == "ready"
			case classfile.OpInvokestatic, classfile.OpInvokespecial, classfile.OpInvokevirtual:
				owner, method, desc := c.Pool.MemberRef(in.Index)
				calls = append(calls, owner+"."+method+desc)
			}
		}
		return calls, readsBIB
	}
	t.Fatalf("%s: no method %s", path, name)
	return nil, false
}
