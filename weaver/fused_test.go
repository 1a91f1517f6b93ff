package weaver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// TestFusedEntry weaves in JDK mode, where a method's first before advice
// call is its guard (fused.go): the woven methods (a constructor, after
// its super(...), a method with before advice only and one with after
// returning advice too, guarded by the token the entry helper returns)
// but one whose advice tests a cflow (its helper reads the token passed)
// start with the entry helper's call and read no BIB themselves; the entry
// helper reads BIB and the thread's flag; the class is recognized as
// woven; an application weaving keeps the guard. weaver/jdk's
// TestFusedEntryRuns runs such code on a patched java.base.
func TestFusedEntry(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    public static void before(int id) {}
    public static void after(int id) {}
}`,
		"app/Main.java": `package app;
public class Main {
    final int n;
    Main(int n) { super(); this.n = n; }
    int get() { return n; }
    int twice(int k) { return 2 * k; }
    static int inner() { return 1; }
    int flowed(int k) { return k; }
}`}
	before := adv(advice.Before, 0, "before", "(I)V", val(advice.JoinPointID, 0, "I"))
	after := adv(advice.AfterReturning, 1, "after", "(I)V", val(advice.JoinPointID, 0, "I"))
	rules := testMatcher{
		{kind: advice.ConstructorExecution, owner: "app/Main", adv: before},
		{kind: advice.MethodExecution, owner: "app/Main", name: "get|twice|inner", adv: before},
		{kind: advice.MethodExecution, owner: "app/Main", name: "twice", adv: after},
		// A cflow test reads the token its helper is passed: no entry helper.
		{kind: advice.MethodExecution, owner: "app/Main", name: "flowed", adv: before, residue: &advice.Residue{Op: advice.InCflow, Cflow: 1}},
	}
	_, res := compileWeave(t, JDK, src, rules)
	main := filepath.Join(res.Name, "app", "Main.class")
	entry := "app/Main" + SisterSuffix + ".a0(I)Ljava/lang/Object;"
	for _, m := range []string{"<init>", "get", "twice", "inner"} {
		calls, readsBIB := entryCalls(t, main, m)
		if m == "<init>" && len(calls) > 0 {
			calls = calls[1:] // super()
		}
		if readsBIB || len(calls) == 0 || calls[0] != entry {
			t.Errorf("Main.%s: calls %v, reads BIB.ready %v: want %s first (after super() in <init>), no BIB read",
				m, calls, readsBIB, entry)
		}
		if m == "twice" && (len(calls) < 2 || !strings.HasSuffix(calls[1], "(Ljava/lang/Object;I)V")) {
			t.Errorf("Main.twice: calls %v, want the after returning helper taking the token", calls)
		}
	}
	if calls, readsBIB := entryCalls(t, main, "flowed"); !readsBIB || slices.Contains(calls, entry) {
		t.Errorf("Main.flowed, its advice testing a cflow: calls %v, reads BIB.ready %v: want the inline guard, no entry helper", calls, readsBIB)
	}
	sister := filepath.Join(res.Name, "app", "Main"+SisterSuffix+".class")
	calls, readsBIB := entryCalls(t, sister, "a0")
	if !readsBIB || !slices.Contains(calls, "java/lang/Thread.currentThread()Ljava/lang/Thread;") ||
		!slices.Contains(calls, "adv/Log.before(I)V") {
		t.Errorf("entry helper a0: calls %v, reads BIB.ready %v: want BIB read, the thread and the advice", calls, readsBIB)
	}
	b, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	w := New(rules, nil, Options{Mode: JDK})
	if again, err := w.WeaveClass("Main.class", b); err != nil || again.Class != nil ||
		len(again.Warnings) != 0 || !again.AlreadyWoven {
		t.Errorf("weaving the woven class again: %v, woven %v, warnings %q: want it left as is, already woven",
			err, again != nil && again.Class != nil, again.Warnings)
	}

	// The same weaving for an application keeps the inline guard.
	_, res = compileWeave(t, App, src, rules)
	if _, readsBIB := entryCalls(t, filepath.Join(res.Name, "app", "Main.class"), "get"); !readsBIB {
		t.Errorf("application weaving: Main.get does not read BIB.ready: want the inline guard")
	}
}

// entryCalls decodes method name of a class file and returns the methods
// it calls (owner.name+desc), in code order, and whether it reads
// BIB.ready.
func entryCalls(t *testing.T, path, name string) (calls []string, readsBIB bool) {
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
