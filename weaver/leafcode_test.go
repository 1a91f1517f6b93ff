package weaver

import (
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// leaf() selects the executions of methods that run no code but their own,
// run under -Xverify:all: a getter, a setter, a loop over an array, a
// switch, a static field of the class itself and a synchronized block are
// leaf; a call, an allocation, a cast, a class constant, another class's
// field, an inherited interface constant (whose read may initialize the
// interface) and a catch are not.
func TestLeafExecutions(t *testing.T) {
	aspect := `aspect T {
    before(): execution(* app.Main.*(..)) && leaf() { adv.A.leaf(thisJoinPointStaticPart); }
    before(): execution(* app.Main.*(..)) && !leaf() { adv.A.other(thisJoinPointStaticPart); }
}`
	advice := `package adv;
public class A {
    public static void leaf(weft.rt.JoinPointStaticPart jp) { System.out.println("leaf " + jp.getName()); }
    public static void other(weft.rt.JoinPointStaticPart jp) { System.out.println("other " + jp.getName()); }
}
`
	main := `package app;
interface K { Object KEY = new Object(); }
class Other { static int n = 3; int f; }
public class Main implements K {
    static int count;
    int x;
    int get() { return x; }
    void set(int v) { x = v; }
    static long sum(int[] a) { long s = 0; for (int v : a) s += v; return s; }
    static String name(int k) { switch (k) { case 1: return "one"; default: return "many"; } }
    static int bump() { return ++count; }
    int locked() { synchronized (this) { return x + 1; } }
    static int div(int a, int b) { return a / b; }
    static int call() { return bump(); }
    static int[] alloc() { return new int[2]; }
    static String cast(Object o) { return (String) o; }
    static Class<?> cls() { return Main.class; }
    static int otherField() { return Other.n; }
    static int otherInstance(Other o) { return o.f; }
    static Object inherited() { return KEY; }
    static int caught(int a) { try { return 10 / a; } catch (ArithmeticException e) { return 0; } }
    public static void main(String[] args) {
        Main m = new Main();
        m.set(4); m.get(); sum(new int[] {1, 2}); name(1); bump(); m.locked(); div(6, 3);
        call(); alloc(); cast("s"); cls(); otherField(); otherInstance(new Other()); inherited(); caught(0);
    }
}
`
	dir, woven, _ := compileAndWeave(t, map[string]string{"adv/A.java": advice, "app/Main.java": main}, "t.weft", aspect, "app")
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", woven+string(filepath.ListSeparator)+dir, "app.Main")
	want := `other main
leaf set
leaf get
leaf sum
leaf name
leaf bump
leaf locked
leaf div
other call
leaf bump
other alloc
other cast
other cls
other otherField
other otherInstance
other inherited
other caught
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}
