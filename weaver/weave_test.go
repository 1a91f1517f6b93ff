package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

const logJava = `package adv;
import weft.rt.JoinPointStaticPart;
public class Log {
    public static void before(JoinPointStaticPart jp) { System.out.println("before " + jp); }
    public static void after(JoinPointStaticPart jp) { System.out.println("after " + jp); }
    public static void returned(Object v, JoinPointStaticPart jp) { System.out.println("returned " + v + " " + jp); }
    public static void returnedInt(int v) { System.out.println("returned int " + v); }
    public static void thrown(Throwable t, JoinPointStaticPart jp) { System.out.println("thrown " + t + " " + jp); }
    public static void args(Object target, int a, JoinPointStaticPart jp) { System.out.println("args " + target + " " + a + " " + jp.getKind()); }
    public static void largs(Object target, long a) { System.out.println("largs " + target + " " + a); }
    public static void dims(int[] d, int id) { System.out.println("dims " + java.util.Arrays.toString(d) + (id >= 1000 ? " id ok" : " id bad")); }
    public static void obj(Object o) { System.out.println("obj " + o); }
    public static void loc(JoinPointStaticPart jp) { System.out.println("at " + jp.getSourceLocation() + " in " + jp.getWithinTypeName()); }
}
`

func TestExecutionAndCallBasics(t *testing.T) {
	src := map[string]string{
		"adv/Log.java": logJava,
		"app/Main.java": `package app;
public class Main {
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    long twice(long x) { return 2 * x; }
    void fail() { throw new IllegalStateException("boom"); }
    public String toString() { return "M"; }
    public static void main(String[] a) {
        System.out.println("fib=" + fib(2));
        Main m = new Main();
        System.out.println(m.twice(21));
        try { m.fail(); } catch (IllegalStateException e) { System.out.println("caught " + e.getMessage()); }
    }
}
`}
	rules := testMatcher{
		{kind: advice.MethodExecution, name: "fib", adv: adv(advice.Before, 0, "before", "(Lweft/rt/JoinPointStaticPart;)V", jpv)},
		{kind: advice.MethodExecution, name: "fib", adv: adv(advice.AfterReturning, 1, "returnedInt", "(I)V", val(advice.Returned, 0, "I"))},
		{kind: advice.MethodCall, name: "twice", adv: adv(advice.Before, 2, "largs", "(Ljava/lang/Object;J)V", val(advice.Target, 0, "Ljava/lang/Object;"), val(advice.Arg, 0, "J"))},
		{kind: advice.MethodCall, name: "twice", adv: adv(advice.AfterReturning, 3, "returned", "(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V", val(advice.Returned, 0, "Ljava/lang/Object;"), jpv)},
		{kind: advice.MethodExecution, name: "fail", adv: adv(advice.AfterThrowing, 4, "thrown", "(Ljava/lang/Throwable;Lweft/rt/JoinPointStaticPart;)V", val(advice.Thrown, 0, "Ljava/lang/Throwable;"), jpv)},
		{kind: advice.MethodExecution, name: "fail", adv: adv(advice.After, 5, "after", "(Lweft/rt/JoinPointStaticPart;)V", jpv)},
	}
	out, infos, _ := compileWeaveRun(t, src, rules, "app.Main")
	want := `before method-execution(int app.Main.fib(int))
before method-execution(int app.Main.fib(int))
returned int 1
before method-execution(int app.Main.fib(int))
returned int 0
returned int 1
fib=1
largs M 21
returned 42 method-call(long app.Main.twice(long))
42
thrown java.lang.IllegalStateException: boom method-execution(void app.Main.fail())
after method-execution(void app.Main.fail())
caught boom
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	var lines []string
	for _, wi := range infos {
		lines = append(lines, wi.String())
	}
	got := strings.Join(lines, "\n")
	if !strings.Contains(got, "Join point 'method-execution(int app.Main.fib(int))' in Type 'app.Main' (Main.java:3) advised by before advice from 'T' (t.weft:1)") {
		t.Errorf("weave info:\n%s", got)
	}
}

// TestAdviceCallingWovenCodeDoesNotRecurse: the advice on fib's execution
// calls fib itself; the DIB makes that inner call run the original body,
// so each woven execution is advised exactly once.
func TestAdviceCallingWovenCodeDoesNotRecurse(t *testing.T) {
	src := map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    public static void reenter(int n) { System.out.println("advice fib(" + n + ") sees fib(5)=" + app.Main.fib(5)); }
}`,
		"app/Main.java": `package app;
public class Main {
    public static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) { System.out.println(fib(2)); }
}`}
	rules := testMatcher{{kind: advice.MethodExecution, name: "fib",
		adv: adv(advice.Before, 0, "reenter", "(I)V", val(advice.Arg, 0, "I"))}}
	out, _, res := compileWeaveRun(t, src, rules, "app.Main")
	want := "advice fib(2) sees fib(5)=5\nadvice fib(1) sees fib(5)=5\nadvice fib(0) sees fib(5)=5\n1\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	// Woven in place: the body once (its two calls of fib), the advice
	// call skipped on a null token, no second copy for the JIT.
	b, err := os.ReadFile(filepath.Join(res.Name, "app", "Main.class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse("Main", b)
	if err != nil {
		t.Fatal(err)
	}
	code, err := classfile.DecodeCode(c, c.FindMethod("fib", "(I)I"))
	if err != nil {
		t.Fatal(err)
	}
	calls, nullTests := 0, 0
	for _, in := range code.Insns {
		switch in.Op {
		case classfile.OpInvokestatic:
			if _, name, _ := c.Pool.MemberRef(in.Index); name == "fib" {
				calls++
			}
		case classfile.OpIfnull:
			nullTests++
		}
	}
	if calls != 2 || nullTests != 1 {
		t.Errorf("woven fib: %d calls of fib (want 2: one body), %d null tests (want 1: the advice call's)", calls, nullTests)
	}
}

// TestResiduesAndPrecedence: a Maybe verdict becomes an instanceof test in
// the helper (with Or and Not), several advice at one shadow run in
// precedence order, and after returning(String) filters by type.
func TestResiduesAndPrecedence(t *testing.T) {
	src := map[string]string{
		"adv/Log.java": logJava,
		"app/Main.java": `package app;
public class Main {
    static Object id(Object o) { return o; }
    public static void main(String[] a) {
        id("s"); id(1); id(2L); id(null);
    }
}`}
	arg0 := advice.Value{Kind: advice.Arg, Index: 0}
	isString := &advice.Residue{Op: advice.InstanceOf, Value: arg0, Type: "java/lang/String"}
	isLong := &advice.Residue{Op: advice.InstanceOf, Value: arg0, Type: "java/lang/Long"}
	notString := &advice.Residue{Op: advice.Not, Children: []*advice.Residue{isString}}
	stringOrLong := &advice.Residue{Op: advice.Or, Children: []*advice.Residue{isString, isLong}}
	obj := func(k advice.Kind, order int) *advice.Advice {
		a := adv(k, order, "obj", "(Ljava/lang/Object;)V", val(advice.Arg, 0, "Ljava/lang/Object;"))
		return a
	}
	retString := adv(advice.AfterReturning, 3, "returned", "(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V",
		val(advice.Returned, 0, "Ljava/lang/String;"), jpv)
	retString.ReturnType = "Ljava/lang/String;"
	rules := testMatcher{
		{kind: advice.MethodCall, name: "id", adv: obj(advice.Before, 0), residue: isString},
		{kind: advice.MethodCall, name: "id", adv: obj(advice.Before, 1), residue: notString},
		{kind: advice.MethodCall, name: "id", adv: obj(advice.After, 2), residue: stringOrLong},
		{kind: advice.MethodCall, name: "id", adv: retString},
	}
	out, infos, _ := compileWeaveRun(t, src, rules, "app.Main")
	// after (order 2) runs before after returning (order 3): among after
	// advice of one aspect the later one has precedence, so it runs last.
	want := `obj s
obj s
returned s method-call(java.lang.Object app.Main.id(java.lang.Object))
obj 1
obj 2
obj 2
obj null
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	n := 0
	for _, wi := range infos {
		if strings.HasSuffix(wi.String(), " [with runtime test]") {
			n++
		}
	}
	if n != 12 {
		t.Errorf("%d weave infos with a runtime test, want 12", n)
	}
}

// TestAfterAdviceSeesEntryArguments: after advice of an execution binds
// the arguments the join point started with, although the body assigns
// its parameter.
func TestAfterAdviceSeesEntryArguments(t *testing.T) {
	src := map[string]string{
		"adv/Log.java": logJava,
		"app/Main.java": `package app;
public class Main {
    long down(long n) { long s = 0; while (n > 0) { s += n; n--; } return s; }
    public String toString() { return "M"; }
    public static void main(String[] a) { System.out.println(new Main().down(4)); }
}`}
	rules := testMatcher{{kind: advice.MethodExecution, name: "down",
		adv: adv(advice.After, 0, "largs", "(Ljava/lang/Object;J)V", val(advice.This, 0, "Ljava/lang/Object;"), val(advice.Arg, 0, "J"))}}
	out, _, _ := compileWeaveRun(t, src, rules, "app.Main")
	if out != "largs M 4\n10\n" {
		t.Errorf("output:\n%s", out)
	}
}
