package pointcut

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestLeafAdvice: advice whose code reaches only its own class (its
// fields, primitive arrays, its own static methods, strings) is leaf;
// calling or allocating anything else, casting or loading a class
// constant is not. The class's static initializer does not count.
func TestLeafAdvice(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{
		"lf/A.java": `package lf;
public class A {
    static final long[] HITS = new long[16];
    static String last;
    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println(HITS[0]))); }
    public static void hit(int id) { HITS[id < 16 ? id : 15]++; }
    public static void viaOwn(int id) { bump(id); last = "x"; }
    static void bump(int id) { synchronized (HITS) { HITS[id & 15] += id / 3; } }
    public static void recursive(int id) { if (id > 0) recursive(id - 1); }
    public static void prints(int id) { System.out.println(id); }
    public static void allocates(int id) { last = String.valueOf(id); }
    public static void newObject(int id) { Object o = new Object(); }
    public static void objectArray(int id) { Object[] o = new Object[id]; }
    public static void classConstant(int id) { Class<?> c = A.class; }
    public static void casts(Object o) { String s = (String) o; }
    public static void virtual(Object o) { o.hashCode(); }
    public static void catches(int id) { try { hit(id); } catch (RuntimeException e) { } }
    public static boolean on() { return true; }
}
`,
	})
	for _, tt := range []struct {
		call string
		leaf bool
	}{
		{"lf.A.hit(joinPointId)", true},
		{"lf.A.viaOwn(joinPointId)", true},
		{"lf.A.recursive(joinPointId)", true},
		{"lf.A.prints(joinPointId)", false},
		{"lf.A.allocates(joinPointId)", false},
		{"lf.A.newObject(joinPointId)", false},
		{"lf.A.objectArray(joinPointId)", false},
		{"lf.A.classConstant(joinPointId)", false},
		{"lf.A.casts(thisJoinPointStaticPart)", false},
		{"lf.A.virtual(thisJoinPointStaticPart)", false},
		{"lf.A.catches(joinPointId)", false},
	} {
		src := `before(): execution(* *(..)) { ` + tt.call + `; }`
		p, err := resolveCP(t, dir, src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := p.Advice()[0].Leaf; got != tt.leaf {
			t.Errorf("%s: leaf %v, want %v", tt.call, got, tt.leaf)
		}
	}
	// A program is all leaf (advice.LeafLimiter) when each advice is, with
	// no if() test or cflow around it; if(true) is a constant.
	for _, tt := range []struct {
		body string
		all  bool
	}{
		{`before(): execution(* *(..)) { lf.A.hit(joinPointId); }`, true},
		{`before(): execution(* *(..)) && if(true) { lf.A.hit(joinPointId); }`, true},
		{`before(): execution(* *(..)) && !if(lf.A.on()) { lf.A.hit(joinPointId); }`, false},
		{`before(): execution(* *(..)) && cflow(execution(* main(..))) { lf.A.hit(joinPointId); }`, false},
		{`before(): execution(* *(..)) { lf.A.hit(joinPointId); }
    before(): execution(* *(..)) { lf.A.prints(joinPointId); }`, false},
	} {
		p, err := resolveCP(t, dir, tt.body)
		if err != nil {
			t.Errorf("%s: %v", tt.body, err)
			continue
		}
		if got := p.AllLeaf(); got != tt.all {
			t.Errorf("%s: AllLeaf %v, want %v", tt.body, got, tt.all)
		}
	}
}

// TestLeafReach: advice may call the static methods of other classes of
// the advice class path whose code is leaf, which it then reaches (the
// sister initializes them first), and around advice may call
// Proceed.proceed() besides; proceed with new arguments (an object array,
// boxes), a method of another class that is not leaf or not found, or
// proceed() in before advice, are not leaf.
func TestLeafReach(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{
		"weft/rt/Proceed.java": `package weft.rt;
public abstract class Proceed {
    public final Object proceed() throws Throwable { return null; }
    public final Object proceed(Object... args) throws Throwable { return null; }
}`,
		"lf/A.java": `package lf;
public class A {
    static final long[] HITS = new long[16];
    public static void hit(int id) { HITS[id & 15]++; }
    public static void prints(int id) { System.out.println(id); }
}`,
		"lf/B.java": `package lf;
import weft.rt.Proceed;
public class B {
    public static void count(int id) { A.hit(id); A.hit(id + 1); }
    public static Object counts(Proceed p, int id) throws Throwable { A.hit(id); return p.proceed(); }
    public static Object twice(Proceed p) throws Throwable { p.proceed(); return p.proceed(); }
    public static Object skips(Proceed p) { return null; }
    public static Object newArgs(Proceed p, int x) throws Throwable { return p.proceed(x + 1); }
    public static Object printsThen(Proceed p, int id) throws Throwable { A.prints(id); return p.proceed(); }
    public static void before(Proceed p) throws Throwable { p.proceed(); }
}`,
	})
	for _, tt := range []struct {
		body  string
		leaf  bool
		reach string
	}{
		{`before(): execution(* *(..)) { lf.B.count(joinPointId); }`, true, "lf/A"},
		{`Object around(): execution(* *(..)) { lf.B.counts(proceed, joinPointId); }`, true, "lf/A weft/rt/Proceed"},
		{`Object around(): execution(* *(..)) { lf.B.twice(proceed); }`, true, "weft/rt/Proceed"},
		{`Object around(): execution(* *(..)) { lf.B.skips(proceed); }`, true, ""},
		{`Object around(int x): execution(* *(int)) && args(x) { lf.B.newArgs(proceed, x); }`, false, ""},
		{`Object around(): execution(* *(..)) { lf.B.printsThen(proceed, joinPointId); }`, false, ""},
	} {
		p, err := resolveCP(t, dir, tt.body)
		if err != nil {
			t.Errorf("%s: %v", tt.body, err)
			continue
		}
		a := p.Advice()[0]
		if got := strings.Join(a.LeafReach, " "); a.Leaf != tt.leaf || got != tt.reach {
			t.Errorf("%s: leaf %v reaching %q, want %v reaching %q", tt.body, a.Leaf, got, tt.leaf, tt.reach)
		}
	}
	// proceed() is leaf in around advice only (before advice cannot take
	// proceed: the analysis is asked directly).
	cs := newClasses(dir, nil, "")
	defer cs.close()
	b, err := cs.class("lf/B")
	if err != nil {
		t.Fatal(err)
	}
	m := b.FindMethod("before", "(Lweft/rt/Proceed;)V")
	if ok, _ := cs.leaf(b, m, true); !ok {
		t.Errorf("lf.B.before: not leaf as around advice")
	}
	if ok, _ := cs.leaf(b, m, false); ok {
		t.Errorf("lf.B.before: leaf outside around advice")
	}
}

// TestTestsLeaf: a program tests the code holding a shadow (leaf()) when
// a pointcut of its advice, of a cflow or of a declaration uses it, under
// !, && or || and through a named pointcut; otherwise the weaver need not
// read methods' code for it.
func TestTestsLeaf(t *testing.T) {
	for _, tt := range []struct {
		body  string
		tests bool
	}{
		{`before(): execution(* *(..)) { a.B.c(); }`, false},
		{`before(): execution(* *(..)) && !leaf() { a.B.c(); }`, true},
		{`pointcut p(): execution(* *(..)) || leaf(); before(): p() { a.B.c(); }`, true},
		{`before(): execution(* *(..)) && cflow(execution(* m(..)) && leaf()) { a.B.c(); }`, true},
		{`declare warning: execution(* *(..)) && leaf(): "leaf";`, true},
	} {
		p := mustResolve(t, "aspect A {\n    "+tt.body+"\n}")
		if got := p.TestsLeaf(); got != tt.tests {
			t.Errorf("%s: TestsLeaf %v, want %v", tt.body, got, tt.tests)
		}
	}
}
