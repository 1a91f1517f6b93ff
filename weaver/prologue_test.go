package weaver

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// prologueProgram has constructors with statements before super(...) and
// this(...) (JEP 513, final in JDK 25): an if that throws, a local, a
// loop, a try/catch, a field of the class set, each calling methods,
// before super(v); and a local computed before this(z).
var prologueProgram = map[string]string{
	"app/Main.java": `package app;
public class Main {
    public static void main(String[] args) {
        System.out.println("y " + new Child(3).y);
        System.out.println("y " + new Child().y);
        System.out.println("y " + new Child(60).y);
        try { new Child(-1); } catch (IllegalArgumentException e) { System.out.println("caught " + e.getMessage()); }
    }
}
class Base { Base(int v) { System.out.println("Base " + v); } }
class Child extends Base {
    final int y;
    Child(int x) {
        if (x < 0) throw new IllegalArgumentException("negative " + x);
        int v = Help.twice(x);
        for (int i = 0; i < 2; i++) v += Help.twice(i);
        try { Help.check(v); } catch (IllegalStateException e) { v = 0; }
        y = v;
        super(v);
        System.out.println("Child body " + Help.twice(y));
    }
    Child() {
        int z = Help.twice(5);
        this(z);
    }
}
class Help {
    static int twice(int a) { return 2 * a; }
    static void check(int v) { if (v > 100) throw new IllegalStateException("over"); }
}
`,
	"adv/J.java": `package adv;
public class J {
    public static void pre(int x) { System.out.println("pre " + x); }
    public static void preEnd() { System.out.println("pre end"); }
    public static void preThrew() { System.out.println("pre threw"); }
    public static void twice(int a) { System.out.println("call twice " + a); }
    public static void withThis() { System.out.println("call with this"); }
    public static void newIAE() { System.out.println("call new IAE"); }
    public static void handler() { System.out.println("handler"); }
    public static void setY(int v) { System.out.println("set y " + v); }
    public static void init() { System.out.println("init"); }
    public static void exec() { System.out.println("exec"); }
    public static void execEnd() { System.out.println("exec end"); }
}
`,
}

// prologueAspect advises every kind of join point a constructor's
// prologue holds or bounds: its preinitialization (before, after
// returning, after throwing), the calls, the constructor call, the
// handler and the field set in it, then initialization and execution.
// A call in the prologue has no this (as super(...)'s arguments have
// none): the advice binding this runs at the body's call only.
const prologueAspect = `aspect Prologue {
    before(int x): preinitialization(app.Child.new(int)) && args(x) { adv.J.pre(x); }
    after() returning: preinitialization(app.Child.new(int)) { adv.J.preEnd(); }
    after() throwing: preinitialization(app.Child.new(int)) { adv.J.preThrew(); }
    before(int a): call(int app.Help.twice(int)) && args(a) && withincode(app.Child.new(..)) { adv.J.twice(a); }
    before(Object t): call(int app.Help.twice(int)) && this(t) { adv.J.withThis(); }
    before(): call(IllegalArgumentException.new(..)) && within(app.Child) { adv.J.newIAE(); }
    before(): handler(IllegalStateException) && within(app.Child) { adv.J.handler(); }
    before(int v): set(int app.Child.y) && args(v) { adv.J.setY(v); }
    before(): initialization(app.Child.new(int)) { adv.J.init(); }
    before(): execution(app.Child.new(int)) { adv.J.exec(); }
    after() returning: execution(app.Child.new(int)) { adv.J.execEnd(); }
}
`

// prologueWant is what AspectJ's semantics give: preinitialization runs
// from the constructor's start, prologue included, to the super(...)
// call; initialization and execution start after it returns; Child(),
// calling this(z), has none of its own (docs/language.md), its prologue's
// call is advised all the same.
const prologueWant = `pre 3
call twice 3
call twice 0
call twice 1
set y 8
pre end
Base 8
init
exec
call twice 8
call with this
Child body 16
exec end
y 8
call twice 5
pre 10
call twice 10
call twice 0
call twice 1
set y 22
pre end
Base 22
init
exec
call twice 22
call with this
Child body 44
exec end
y 22
pre 60
call twice 60
call twice 0
call twice 1
handler
set y 0
pre end
Base 0
init
exec
call twice 0
call with this
Child body 0
exec end
y 0
pre -1
call new IAE
pre threw
caught negative -1
`

// TestConstructorPrologue compiles prologueProgram with JDK 25's javac and
// weaves it twice: with prologueAspect (the decoding path) and with before
// execution advice only (the path that inserts the advice after the
// super(...) call into the body's bytes, which declines a prologue with
// branches); both run under -Xverify:all on JDK 25 as AspectJ's semantics
// say, the second with its advice after Base's constructor.
func TestConstructorPrologue(t *testing.T) {
	j25 := jvmtest.JDK25(t)
	src := t.TempDir()
	var files []string
	all := runtimeSources()
	for k, v := range prologueProgram {
		all[k] = v
	}
	for name, text := range all {
		p := filepath.Join(src, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	dir := t.TempDir()
	javac := filepath.Join(j25, "bin", "javac")
	if b, err := exec.Command(javac, jvmtest.ToolArgs(append([]string{"-g", "-d", dir}, files...)...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac 25: %v\n%s", err, b)
	}
	java := filepath.Join(j25, "bin", "java")
	for _, c := range []struct{ name, aspect, want string }{
		{"all kinds", prologueAspect, prologueWant},
		{"execution only", `aspect E { before(): execution(app.Child.new(int)) { adv.J.exec(); } }`,
			"Base 8\nexec\nChild body 16\ny 8\nBase 22\nexec\nChild body 44\ny 22\nBase 0\nexec\nChild body 0\ny 0\ncaught negative -1\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "woven")
			st, err := aspectWeaver(t, "p.weft", c.aspect, dir).WeavePath(filepath.Join(dir, "app"), filepath.Join(out, "app"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range st.Warnings {
				t.Errorf("weft warning: %s", w)
			}
			var infos []string
			for i := range st.Shadows {
				infos = append(infos, st.Shadows[i].String())
			}
			sort.Strings(infos)
			t.Logf("shadows:\n%s", strings.Join(infos, "\n"))
			cmd := exec.Command(java, "-Xverify:all", "-cp", out+string(os.PathListSeparator)+dir, "app.Main")
			b, err := cmd.CombinedOutput()
			if err != nil || string(b) != c.want {
				t.Errorf("woven program on JDK 25: %v\n%s\nwant:\n%s", err, b, c.want)
			}
		})
	}
}
