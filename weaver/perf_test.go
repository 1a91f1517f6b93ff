package weaver

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
)

// TestSharedHelpers: the shadows of a class whose advice calls have the
// same shape share one sister helper, each passing its own join point id
// and static part; advice calling woven code (c) bypasses it; advice that
// throws leaves the bypass flag clear, so later advice still runs.
func TestSharedHelpers(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Log.java": `package adv;
import weft.rt.JoinPointStaticPart;
public class Log {
    static java.util.Set<Integer> ids = new java.util.HashSet<>();
    public static void hit(int id, JoinPointStaticPart jp) {
        if (!ids.add(id)) throw new IllegalStateException("id " + id + " twice");
        if (id != jp.getId()) throw new IllegalStateException("id " + id + " != " + jp.getId());
        System.out.println("hit " + jp.getName() + " inner " + app.Main.c());
        if (jp.getName().equals("b")) throw new IllegalStateException("from advice");
    }
}`,
		"app/Main.java": `package app;
public class Main {
    public static int c() { return 7; }
    static void a() {}
    static void b() {}
    static int d(int x) { return x + 1; }
    public static void main(String[] args) {
        a();
        try { b(); } catch (IllegalStateException e) { System.out.println("caught " + e.getMessage()); }
        System.out.println("d " + d(1));
    }
}`}
	rules := testMatcher{{kind: advice.MethodExecution, name: "[abcd]",
		adv: adv(advice.Before, 0, "hit", "(ILweft/rt/JoinPointStaticPart;)V", val(advice.JoinPointID, 0, "I"), jpv)}}
	out, _, res := compileWeaveRun(t, src, rules, "app.Main")
	want := "hit a inner 7\nhit b inner 7\ncaught from advice\nhit d inner 7\nd 2\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	// compileWeaveRun wrote the sister class next to the woven classes.
	c := readClass(t, filepath.Join(res.Name, "app", "Main"+SisterSuffix+".class"))
	var names []string
	for _, m := range c.Methods {
		names = append(names, c.MemberName(m)+c.MemberDesc(m))
	}
	sort.Strings(names)
	want = "<clinit>()V <init>()V a0(Ljava/lang/Object;I)V apply(I)Ljava/lang/Object; jp(I)Lweft/rt/JoinPointStaticPart; jpMiss(I)Lweft/rt/JoinPointStaticPart; " +
		"jpSwitch(I)Lweft/rt/JoinPointStaticPart; p0()Lweft/rt/JoinPointStaticPart; " +
		"p1()Lweft/rt/JoinPointStaticPart; p2()Lweft/rt/JoinPointStaticPart; p3()Lweft/rt/JoinPointStaticPart;"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("sister methods: %s; want one shared helper, jp (jpMiss, jpSwitch), a loader of each static part, "+
			"and the registration with weft.rt.Parts (<clinit>, <init>, apply)", got)
	}
}
