package weaver

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestWithAspectLanguage weaves with a real .weft aspect: args(.., x)
// whose index depends on the shadow, after returning(String s) with its
// instanceof exit check, after throwing(IllegalStateException e), this()
// and target() residues, and thisEnclosingJoinPointStaticPart.
func TestWithAspectLanguage(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := runtimeSources()
	src["adv/A.java"] = `package adv;
import weft.rt.JoinPointStaticPart;
public class A {
    public static void last(int x, JoinPointStaticPart jp) { System.out.println("last " + x + " " + jp.getSignature()); }
    public static void str(String s) { System.out.println("str " + s); }
    public static void ise(IllegalStateException e, JoinPointStaticPart enc) { System.out.println("ise " + e.getMessage() + " in " + enc); }
    public static void tgt(Object t) { System.out.println("tgt " + t); }
}`
	src["app/Main.java"] = `package app;
public class Main {
    static int one(int a) { return a; }
    static int two(String s, int b) { return b; }
    static Object id(Object o) { return o; }
    static void boom(Object o) { throw new IllegalStateException(String.valueOf(o)); }
    public String toString() { return "main"; }
    public static void main(String[] args) {
        one(1); two("x", 2);
        id("s"); id(3);
        try { boom("b"); } catch (IllegalStateException e) { }
        Object m = new Main(); Object o = new Object();
        m.hashCode(); o.hashCode();
    }
}`
	dir := jvmtest.Compile(t, src, "-g")
	weft := `aspect L {
    before(int x): execution(* app.Main.*(..)) && args(.., x) { adv.A.last(x, thisJoinPointStaticPart); }
    after() returning(String s): call(* app.Main.id(..)) { adv.A.str(s); }
    after() throwing(IllegalStateException e): call(* app.Main.boom(..)) { adv.A.ise(e, thisEnclosingJoinPointStaticPart); }
    before(app.Main t): call(int hashCode()) && target(t) { adv.A.tgt(t); }
}`
	res := weaveClassInPlace(t, aspectWeaver(t, "l.weft", weft, dir), dir, "app/Main.class")
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
	want := `last 1 int app.Main.one(int)
last 2 int app.Main.two(java.lang.String, int)
str s
ise b in method-execution(void app.Main.main(java.lang.String[]))
tgt main
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	var residues []string
	for _, wi := range res.Shadows {
		if wi.Residue {
			residues = append(residues, wi.Member.Name)
		}
		if wi.Advice.Kind == advice.AfterReturning && wi.Residue {
			t.Errorf("an exit check is not a runtime test in ajc's report: %s", wi.String())
		}
	}
	if got := strings.Join(residues, " "); got != "hashCode hashCode" {
		t.Errorf("shadows with a runtime test: %q", got)
	}
}
