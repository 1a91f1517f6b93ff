package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

const tjpFolder = "testdata/tjp"

// TestJoinPointAgainstAspectJ weaves the same program with the same
// before and after advice passing thisJoinPoint, by ajc (Tjp.aj) and by
// weft (tjp.weft), the advice printing everything the join point tells:
// toString, toShortString, toLongString, the signature's forms, name,
// declaring type and modifiers, kind, source location, this, target, the
// arguments and the static part's short and long forms, at calls,
// executions, constructor calls and executions and array constructions.
// Both runs must print the same, but for the kind of an array
// construction (docs/language.md: weft's kind is array-construction).
func TestJoinPointAgainstAspectJ(t *testing.T) {
	t.Parallel() // see jdkOnce
	for _, f := range []string{ajcPath, aspectjrt} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(tjpFolder, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": read("Main.java")}, "--release", "8", "-g")
	print := read("Print.java.in")
	sep := string(filepath.ListSeparator)

	// ajc, weaving the class files as weft does.
	ajAdv := jvmtest.Compile(t, map[string]string{"tjpadv/Print.java": strings.ReplaceAll(print, "PKG", "org.aspectj.lang")},
		"--release", "8", "-cp", aspectjrt)
	ajOut := t.TempDir()
	cmd := ajcCommand(t, "-1.8", "-inpath", app, "-Xjoinpoints:arrayconstruction",
		"-cp", aspectjrt+sep+ajAdv, "-d", ajOut, filepath.Join(tjpFolder, "Tjp.aj"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ajc: %v\n%s", err, b)
	}
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", strings.Join([]string{ajOut, ajAdv, aspectjrt}, sep), "app.Main")

	// weft
	src := runtimeSources()
	src["tjpadv/Print.java"] = strings.ReplaceAll(print, "PKG", "weft.rt")
	adv := jvmtest.Compile(t, src)
	weftOut := t.TempDir()
	weftWeaveInfo(t, app, weftOut, "tjp.weft", []byte(read("tjp.weft")), adv, true)
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", weftOut+sep+adv, "app.Main")

	// The only difference by design: an array construction's kind.
	got = strings.ReplaceAll(got, "kind array-construction", "kind constructor-call")
	if n := strings.Count(want, "\nbefore "); n < 50 {
		t.Fatalf("ajc's run printed %d join points: the comparison is vacuous\n%s", n, want)
	}
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				lo := max(0, i-10)
				t.Fatalf("weft and ajc differ at line %d:\nweft: %s\najc:  %s\n\najc's output before:\n%s",
					i+1, g, w, strings.Join(wl[lo:i], "\n"))
			}
		}
	}
}

// weaveAspect compiles the Java sources with the runtime, weaves the
// classes under app/ with the aspect, and runs mainClass under
// -Xverify:all. It returns the output and the woven class directory.
func weaveAspect(t *testing.T, sources map[string]string, aspect, mainClass string) (string, string) {
	t.Helper()
	dir, out, _ := compileAndWeave(t, sources, "t.weft", aspect, "app")
	stdout, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+dir, mainClass)
	return stdout, out
}

const tjpRunAdvice = `package adv;
import weft.rt.JoinPoint;
public class A {
    static String show(JoinPoint jp) {
        return jp + " this=" + jp.getThis() + " target=" + jp.getTarget() + " args=" + java.util.Arrays.toString(jp.getArgs());
    }
    public static void twice(JoinPoint jp) { System.out.println("twice " + show(jp)); }
    public static void after(JoinPoint jp) { System.out.println("after " + show(jp)); }
    public static void made(JoinPoint jp) { System.out.println("new " + show(jp)); }
    public static void same(JoinPoint a, JoinPoint b) { System.out.println("same " + (a == b) + " " + show(a)); }
    public static void tgt(Object t, JoinPoint jp) { System.out.println("tgt " + t + " " + show(jp)); }
    public static void thrown(IllegalStateException e, JoinPoint jp) { System.out.println("thrown " + e.getMessage() + " " + show(jp)); }
    public static void plain(int id) { System.out.println("plain"); }
}
`

const tjpRunMain = `package app;
public class Main {
    final int n;
    Main(int n) { this.n = n; }
    Main() { this(twice(4)); }
    static int twice(int x) { return 2 * x; }
    long mix(long a, double b, int c, Object o) { a = 0; return a + c; }
    static void boom(String why) { throw new IllegalStateException(why); }
    public String toString() { return "main"; }
    public int hashCode() { return 1; }
    public static void main(String[] args) {
        Main m = new Main();
        m.mix(1L, 2.5, 3, "o");
        Object o = m, s = "s";
        o.hashCode();
        s.hashCode();
        try { boom("bad"); } catch (IllegalStateException e) { }
    }
}
`

// thisJoinPoint woven into an application and run under -Xverify:all:
// this (none before this(...)), target, arguments of every width, one
// object per advice call however often it passes thisJoinPoint, residues,
// after throwing, and an execution's arguments as they were on entry.
func TestJoinPointRun(t *testing.T) {
	aspect := `aspect T {
    before(): call(* app.Main.twice(..)) { adv.A.twice(thisJoinPoint); }
    before(): call(* app.Main.twice(..)) { adv.A.plain(joinPointId); }
    before(): call(* app.Main.mix(..)) || execution(* app.Main.mix(..)) { adv.A.same(thisJoinPoint, thisJoinPoint); }
    after(): execution(* app.Main.mix(..)) { adv.A.after(thisJoinPoint); }
    before(app.Main t): call(int hashCode()) && target(t) && within(app..*) { adv.A.tgt(t, thisJoinPoint); }
    after() throwing(IllegalStateException e): call(* app.Main.boom(..)) || execution(* app.Main.boom(..)) { adv.A.thrown(e, thisJoinPoint); }
    after(): execution(app.Main.new(..)) || call(app.Main.new(..)) { adv.A.made(thisJoinPoint); }
}`
	out, dir := weaveAspect(t, map[string]string{"adv/A.java": tjpRunAdvice, "app/Main.java": tjpRunMain}, aspect, "app.Main")
	want := `twice call(int app.Main.twice(int)) this=null target=null args=[4]
plain
new execution(app.Main(int)) this=main target=main args=[8]
new execution(app.Main()) this=main target=main args=[]
new call(app.Main()) this=null target=null args=[]
same true call(long app.Main.mix(long, double, int, Object)) this=null target=main args=[1, 2.5, 3, o]
same true execution(long app.Main.mix(long, double, int, Object)) this=main target=main args=[1, 2.5, 3, o]
after execution(long app.Main.mix(long, double, int, Object)) this=main target=main args=[1, 2.5, 3, o]
tgt main call(int java.lang.Object.hashCode()) this=null target=main args=[]
thrown bad execution(void app.Main.boom(String)) this=null target=null args=[bad]
thrown bad call(void app.Main.boom(String)) this=null target=null args=[bad]
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}

	// Lazy: the woven class never names JoinPoint; the sister's helpers
	// make it only for advice passing it, after the residue's test.
	main, err := os.ReadFile(filepath.Join(dir, "app", "Main.class"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(main), "weft/rt/JoinPoint\x00") || strings.Contains(string(main), "Lweft/rt/JoinPoint;") {
		t.Errorf("the woven class refers to weft.rt.JoinPoint")
	}
	c := readClass(t, filepath.Join(dir, "app", "Main"+SisterSuffix+".class"))
	makers, plain, residue := 0, 0, 0
	for _, m := range c.Methods {
		code, err := classfile.DecodeCode(c, m)
		if err != nil || code == nil {
			t.Fatal(err)
		}
		tested, made, madeUntested := false, false, false
		calls := map[string]bool{}
		for _, in := range code.Insns {
			switch in.Op {
			case classfile.OpInstanceof:
				tested = true
			case classfile.OpInvokestatic:
				owner, name, _ := c.Pool.MemberRef(in.Index)
				if owner == "weft/rt/JoinPoint" && name == "make" {
					made, madeUntested = true, !tested
				}
				calls[name] = true
			}
		}
		if made {
			makers++
		}
		if calls["plain"] {
			plain++
			if made {
				t.Errorf("the helper of advice without thisJoinPoint makes one")
			}
		}
		if calls["tgt"] {
			residue++
			if !made || madeUntested {
				t.Errorf("the target(t) advice's helper %s makes thisJoinPoint before its residue's test (or never)", c.MemberName(m))
			}
		}
	}
	if residue == 0 {
		t.Errorf("no helper for the target(t) advice")
	}
	if makers == 0 || plain != 1 {
		t.Errorf("%d helpers make thisJoinPoint, %d call plain", makers, plain)
	}
}
