package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// The program of the tests below: app.Main's pick joins a lib.Left and a
// lib.Right in a local of type lib.Base and calls Base.name on it, so the
// frame at the join needs their common superclass. The weaver sees the JDK
// only, as when a jar is woven without its dependencies on -cp, or a class
// is defined at load time before the types it uses.
var unknownSources = map[string]string{
	"lib/Base.java":  "package lib; public class Base { public String name() { return \"base\"; } }",
	"lib/Left.java":  "package lib; public class Left extends Base { public String name() { return \"left\"; } }",
	"lib/Right.java": "package lib; public class Right extends Base { public String name() { return \"right\"; } }",
	"app/Main.java": `package app;
import lib.*;
public class Main {
    public static void main(String[] a) {
        System.out.println(pick(true));
        System.out.println(pick(false));
    }
    static String pick(boolean left) {
        Base x;
        if (left) x = new Left(); else x = new Right();
        return x.name();
    }
}`,
	"adv/Log.java": `package adv;
public class Log {
    public static void before(int id) { System.out.println("before"); }
    public static void after(int id) { System.out.println("after"); }
}`,
}

var unknownRules = testMatcher{
	{kind: advice.MethodExecution, owner: "app/Main", adv: adv(advice.Before, 0, "before", "(I)V", val(advice.JoinPointID, 0, "I"))},
	{kind: advice.MethodExecution, owner: "app/Main", adv: adv(advice.After, 1, "after", "(I)V", val(advice.JoinPointID, 0, "I"))},
	{kind: advice.MethodCall, name: "name", adv: adv(advice.Before, 2, "before", "(I)V", val(advice.JoinPointID, 0, "I"))},
}

// weaveMainAlone weaves dir's app/Main.class in place over the JDK alone
// and returns the weaver's warnings.
func weaveMainAlone(t *testing.T, dir string) []string {
	t.Helper()
	var advs []*advice.Advice
	for _, r := range unknownRules {
		advs = append(advs, r.adv)
	}
	w := New(unknownRules, advs, Options{Hierarchy: classpath.NewHierarchy(mustJDK(t)), IDBase: 1000})
	return weaveClassInPlace(t, w, dir, "app/Main.class").Warnings
}

// TestWovenWithoutDependencies: the types pick's frames merge are not
// known to the weaver, and its woven frames are the compiler's all the
// same (kept where the weaver inserts code), never java/lang/Object: the
// class verifies and runs.
func TestWovenWithoutDependencies(t *testing.T) {
	dir := jvmtest.Compile(t, withRuntime(unknownSources), "-g")
	for _, w := range weaveMainAlone(t, dir) {
		t.Errorf("warning: %s", w)
	}
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
	want := strings.Repeat("before\nbefore\nafter\nleft\n", 1) + "before\nbefore\nafter\nright\nafter\n"
	want = "before\n" + want
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

// TestUnknownTypeLeftUnwoven: where the code has no frames to keep (a
// class file of version 50, which may do without, verified by inference)
// and a merge needs a type the weaver cannot find, the method is left
// unwoven with a warning naming it, the type and why; the rest of the
// class is woven, and the program runs as it would unwoven.
func TestUnknownTypeLeftUnwoven(t *testing.T) {
	dir := jvmtest.Compile(t, withRuntime(unknownSources), "-g")
	p := filepath.Join(dir, "app", "Main.class")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(p, b)
	if err != nil {
		t.Fatal(err)
	}
	c.Major = 50
	for _, m := range c.Methods {
		code, err := classfile.DecodeCode(c, m)
		if err != nil || code == nil {
			t.Fatalf("decoding %s: %v", c.MemberName(m), err)
		}
		code.Frames = nil
		if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(p, c.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	warns := weaveMainAlone(t, dir)
	if len(warns) != 1 || !strings.Contains(warns[0], "app/Main.pick(Z)Ljava/lang/String;: left unwoven: ") ||
		!strings.Contains(warns[0], "common superclass of lib/") || !strings.Contains(warns[0], "is not found") {
		t.Fatalf("warnings %q, want one: pick left unwoven, its types unknown", warns)
	}
	t.Logf("warning: %s", warns[0])
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
	if want := "before\nleft\nright\nafter\n"; out != want {
		t.Errorf("output:\n%s\nwant (main woven, pick not):\n%s", out, want)
	}
}

// withRuntime returns sources with the runtime's Java sources.
func withRuntime(sources map[string]string) map[string]string {
	all := runtimeSources()
	for k, v := range sources {
		all[k] = v
	}
	return all
}

// TestAroundWithoutDependencies: around advice at pick's execution moves
// its body to a join point method, whose frames are the compiler's too: woven
// over the JDK alone, it verifies and runs (with the frames merged again,
// the join of lib.Left and lib.Right left the method unwoven).
func TestAroundWithoutDependencies(t *testing.T) {
	src := withRuntime(unknownSources)
	src["adv/Log.java"] = `package adv;
public class Log {
    public static Object once(weft.rt.Proceed p) throws Throwable { System.out.println("around"); return p.proceed(); }
}`
	dir := jvmtest.Compile(t, src, "-g")
	once := adv(advice.Around, 0, "once", "(Lweft/rt/Proceed;)Ljava/lang/Object;", val(advice.Proceed, 0, "Lweft/rt/Proceed;"))
	once.AroundType = "Ljava/lang/Object;"
	rules := testMatcher{{kind: advice.MethodExecution, owner: "app/Main", name: "pick", adv: once}}
	w := New(rules, []*advice.Advice{once}, Options{Hierarchy: classpath.NewHierarchy(mustJDK(t)), IDBase: 1000})
	for _, warn := range weaveClassInPlace(t, w, dir, "app/Main.class").Warnings {
		t.Errorf("warning: %s", warn)
	}
	if out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main"); out != "around\nleft\naround\nright\n" {
		t.Errorf("output:\n%s", out)
	}
}
