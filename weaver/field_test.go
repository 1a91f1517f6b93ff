package weaver

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// weaveDirWithAspect compiles sources with the runtime, weaves the class
// directory with the aspect source (a .weft), and returns the woven
// directory and the weave-info lines, sorted.
func weaveDirWithAspect(t *testing.T, sources map[string]string, aspect string) (string, []string) {
	t.Helper()
	_, out, infos := compileAndWeave(t, sources, "f.weft", aspect, "")
	return out, infos
}

const fieldAdvice = `package adv;
import weft.rt.JoinPointStaticPart;
public class F {
    public static void setInt(Object t, int v, JoinPointStaticPart jp) { System.out.println("set " + jp.getName() + "=" + v + " on " + t + " at " + jp.getLine()); }
    public static void setStatic(long v, JoinPointStaticPart jp) { System.out.println("set " + jp + " = " + v); }
    public static void setAny(Object v, JoinPointStaticPart jp) { System.out.println("set " + jp.getName() + " := " + v); }
    public static void gotLong(long v) { System.out.println("got long " + v); }
    public static void gotDouble(double v, Object t) { System.out.println("got double " + v + " of " + t); }
    public static void gotObject(Object v, JoinPointStaticPart jp) { System.out.println("got " + v + " from " + jp.getDeclaringTypeName() + "." + jp.getName()); }
    public static void threw(NullPointerException e, JoinPointStaticPart jp) { System.out.println("threw at " + jp + " in " + jp.getWithinTypeName()); }
    public static void get(Object self, JoinPointStaticPart enc) { System.out.println("get x by " + self + " in " + enc.getName()); }
    public static void self(Object self, JoinPointStaticPart enc) { System.out.println("this " + self + " in " + enc.getName()); }
    public static void after(JoinPointStaticPart jp) { System.out.println("after " + jp.getKind() + " " + jp.getSignature()); }
}
`

const fieldProgram = `package app;
public class Main extends Base implements Base.K {
    int y;
    final int fc;
    final int fv;
    long big = 1L << 33;
    static final String S;
    static { S = "s" + 1; }
    Main(int v) {
        fc = 7;
        fv = v;
    }
    public String toString() { return "main"; }
    public static void main(String[] args) {
        Main m = new Main(5);
        m.x = 10;
        int a = m.x + m.y + m.fv;
        sl = 1L << 40;
        long b = sl + m.big;
        m.d = 2.5;
        double c = m.d * 2;
        Object o = KO;
        Main n = args.length > 7 ? m : null;
        try {
            int z = n.y;
        } catch (NullPointerException e) {
            System.out.println("npe caught");
        }
        System.out.println(a + " " + b + " " + c + " " + o + " " + S);
    }
}
`

const fieldBase = `package app;
public class Base {
    public int x = 1;
    public static long sl;
    protected double d;
    interface K { Object KO = new StringBuilder("ko"); }
    public String toString() { return "base"; }
}
`

const fieldAspect = `aspect F {
    before(Object t, int v): set(int app..*.*) && target(t) && args(v) { adv.F.setInt(t, v, thisJoinPointStaticPart); }
    before(long v): set(static long app.Base.sl) && args(v) { adv.F.setStatic(v, thisJoinPointStaticPart); }
    before(Object v): (set(double *) || set(String *) || set(long app.Main.big) || set(Object app..*.*)) && args(v) { adv.F.setAny(v, thisJoinPointStaticPart); }
    after(Object t) returning(double v): get(double app..*.*) && target(t) { adv.F.gotDouble(v, t); }
    after() returning(long v): get(long *) && within(app..*) { adv.F.gotLong(v); }
    after() returning(Object v): get(static Object+ app..*.*) { adv.F.gotObject(v, thisJoinPointStaticPart); }
    after() throwing(NullPointerException e): get(* app.Main.y) { adv.F.threw(e, thisJoinPointStaticPart); }
    before(app.Main m): get(int app.Base.x) && target(m) { adv.F.get(m, thisEnclosingJoinPointStaticPart); }
    after(): set(* app.Base.K.*) || get(* app.Main.fv) { adv.F.after(thisJoinPointStaticPart); }
    before(Object self): set(long app.Main.big) && this(self) { adv.F.self(self, thisEnclosingJoinPointStaticPart); }
}
`

// TestFieldAccessRuns weaves get and set advice into a program and runs it
// under -Xverify:all: static and instance fields, long and double values
// (two slots), an inherited field reached through a subclass, an interface
// constant that is not a compile-time one, a field read through null
// (after throwing), and the final-constant rule (fc = 7 is no join point,
// fv = v is).
func TestFieldAccessRuns(t *testing.T) {
	t.Parallel() // see jdkOnce
	out, infos := weaveDirWithAspect(t, map[string]string{"app/Main.java": fieldProgram, "app/Base.java": fieldBase,
		"adv/F.java": fieldAdvice}, fieldAspect)
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out, "app.Main")
	// S is set in Main's <clinit> (before main), big by Main's field
	// initializer, KO in K's <clinit> when first read.
	want := `set S := s1
set x=1 on main at 3
set big := 8589934592
this main in <init>
set fv=5 on main at 11
set x=10 on main at 16
get x by main in main
after field-get int app.Main.fv
set field-set(long app.Base.sl) = 1099511627776
got long 1099511627776
got long 8589934592
set d := 2.5
got double 2.5 of main
set KO := ko
after field-set java.lang.Object app.Base$K.KO
got ko from app.Base$K.KO
threw at field-get(int app.Main.y) in app.Main
npe caught
got s1 from app.Main.S
15 1108101562368 5.0 ko s1
`
	if got != want {
		t.Errorf("woven program printed:\n%s\nwant:\n%s", got, want)
	}
	for _, l := range infos {
		if strings.Contains(l, "app.Main.fc)") {
			t.Errorf("a set of a final field to a constant is no join point (ajc): %s", l)
		}
	}
	if !hasLine(infos, "Join point 'field-get(int app.Base.x)' in Type 'app.Main' (Main.java:17) advised by before advice from 'F' (f.weft:9) [with runtime test]") {
		// ajc too tests target(app.Main) at run time: the target's
		// static type is the declaring class, Base.
		t.Errorf("weave info misses the inherited get of x:\n%s", strings.Join(infos, "\n"))
	}
}

func hasLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}
