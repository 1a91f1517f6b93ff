package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// kindsProgram exercises handler, static initialization, preinitialization
// and initialization join points: a multi-catch, a try block javac splits
// around an inlined finally, constructors calling super(...) and this(...),
// a constructor whose super(...) arguments throw, one whose body throws,
// a class without a static initializer, and an interface whose
// initialization join point lies in its implementor's constructor.
var kindsProgram = map[string]string{
	"app/Main.java": `package app;
public class Main {
    public static void main(String[] args) {
        new P(3);
        new P();
        try { new Q(null); } catch (NullPointerException e) { System.out.println("main caught NPE"); }
        try { new Q("ab"); } catch (IllegalStateException e) { System.out.println("main caught ISE"); }
        new Main().run();
        System.out.println(NoInit.class.getSimpleName());
        System.out.println(NoInit.touch());
    }
    void run() {
        for (int i = 0; i < 3; i++) {
            try { Integer.parseInt(i == 1 ? "1" : "x"); } catch (NumberFormatException | IllegalStateException e) { System.out.println("multi " + i); }
        }
        try { if (Thread.currentThread() == null) return; throw new RuntimeException("r"); } catch (RuntimeException e) { System.out.println("split"); } finally { System.out.println("finally"); }
    }
    public String toString() { return "main"; }
}
class Base { Base(int n) { System.out.println("Base " + n); } }
interface Marked { }
class P extends Base implements Marked {
    static int S = 5;
    int f = 7;
    P(int a) { super(a * 2); System.out.println("P body " + f); }
    P() { this(1); }
    public String toString() { return "P" + f; }
}
class Q extends Base {
    Q(String s) { super(s.length()); throw new IllegalStateException("q"); }
}
class NoInit { static int touch() { return 42; } }
`,
	"adv/K.java": `package adv;
import weft.rt.JoinPointStaticPart;
public class K {
    public static void caught(Throwable e, JoinPointStaticPart jp) { System.out.println("handler " + e.getClass().getSimpleName() + " " + jp + " line " + jp.getLine()); }
    public static void caughtBy(Object self) { System.out.println("handler this " + self); }
    public static void clinit(JoinPointStaticPart jp) { System.out.println("clinit " + jp); }
    public static void clinitDone() { System.out.println("clinit done"); }
    public static void pre(int a, JoinPointStaticPart jp) { System.out.println("pre " + a + " " + jp); }
    public static void preEnd(JoinPointStaticPart jp) { System.out.println("pre end " + jp.getSignature()); }
    public static void preThrew(Throwable e) { System.out.println("pre threw " + e.getClass().getSimpleName()); }
    public static void init(Object p, JoinPointStaticPart jp) { System.out.println("init " + p + " " + jp); }
    public static void initDone(Object p) { System.out.println("init done " + p); }
    public static void initThrew(Throwable e, Object self) { System.out.println("init threw " + e.getMessage() + " " + (self != null)); }
    public static void exec() { System.out.println("exec"); }
    public static void execDone() { System.out.println("exec done"); }
    public static void ifaceInit() { System.out.println("iface init"); }
    public static void tjp(weft.rt.JoinPoint jp) { System.out.println(jp + " | " + jp.toShortString() + " | " + jp.toLongString() + " | " + jp.getKind() + " | " + jp.getArgs().length); }
}
`,
}

const kindsAspect = `aspect K {
    before(Throwable e): handler(*) && args(e) && within(app..*) { adv.K.caught(e, thisJoinPointStaticPart); }
    before(app.Main m): handler(RuntimeException+) && this(m) { adv.K.caughtBy(m); }
    before(): staticinitialization(app..*) { adv.K.clinit(thisJoinPointStaticPart); }
    after() returning: staticinitialization(app.P) { adv.K.clinitDone(); }
    before(int a): preinitialization(app.P.new(int)) && args(a) { adv.K.pre(a, thisJoinPointStaticPart); }
    after(): preinitialization(app.*.new(..)) && within(app.P || app.Q) { adv.K.preEnd(thisJoinPointStaticPart); }
    after() throwing (Throwable e): preinitialization(app.Q.new(..)) { adv.K.preThrew(e); }
    before(app.P p): initialization(app.P.new(..)) && this(p) { adv.K.init(p, thisJoinPointStaticPart); }
    after(Object p) returning: initialization(app.P.new(..)) && target(p) { adv.K.initDone(p); }
    after(Object q) throwing (Throwable e): initialization(app.Q.new(..)) && this(q) { adv.K.initThrew(e, q); }
    before(): execution(app.P.new(int)) { adv.K.exec(); }
    after() returning: execution(app.P.new(int)) { adv.K.execDone(); }
    after() returning: initialization(app.Marked.new()) { adv.K.ifaceInit(); }
    before(): (handler(IllegalStateException) || staticinitialization(app.NoInit) || initialization(app.Base.new(..)) ||
            preinitialization(app.Base.new(..))) && within(app.*) { adv.K.tjp(thisJoinPoint); }
}
`

// TestKindsRun weaves kindsProgram with handler, staticinitialization,
// preinitialization and initialization advice and runs it under
// -Xverify:all: each advice runs exactly where and as often as AspectJ
// runs it, with the values AspectJ binds (the field initializer has not run
// at initialization's start; `this` of a handler; the constructor's
// arguments) and thisJoinPoint's strings as AspectJ prints them, except that P() calling this(1) has no join points of its
// own (docs/language.md).
func TestKindsRun(t *testing.T) {
	t.Parallel() // see jdkOnce
	dir, infos := weaveDirWithAspect(t, kindsProgram, kindsAspect)
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
	want := `clinit staticinitialization(void app.Main.<clinit>())
clinit staticinitialization(void app.Base.<clinit>())
clinit staticinitialization(void app.P.<clinit>())
clinit done
pre 3 preinitialization(void app.P.<init>(int))
pre end void app.P.<init>(int)
preinitialization(app.Base(int)) | preinitialization(Base(..)) | preinitialization(app.Base(int)) | preinitialization | 1
initialization(app.Base(int)) | initialization(Base(..)) | initialization(app.Base(int)) | initialization | 1
Base 6
init P0 initialization(void app.P.<init>(int))
iface init
exec
P body 7
exec done
init done P7
pre 1 preinitialization(void app.P.<init>(int))
pre end void app.P.<init>(int)
preinitialization(app.Base(int)) | preinitialization(Base(..)) | preinitialization(app.Base(int)) | preinitialization | 1
initialization(app.Base(int)) | initialization(Base(..)) | initialization(app.Base(int)) | initialization | 1
Base 2
init P0 initialization(void app.P.<init>(int))
iface init
exec
P body 7
exec done
init done P7
clinit staticinitialization(void app.Q.<clinit>())
pre end void app.Q.<init>(java.lang.String)
pre threw NullPointerException
handler NullPointerException exception-handler(void app.Main.<catch>(java.lang.NullPointerException)) line 6
main caught NPE
pre end void app.Q.<init>(java.lang.String)
preinitialization(app.Base(int)) | preinitialization(Base(..)) | preinitialization(app.Base(int)) | preinitialization | 1
initialization(app.Base(int)) | initialization(Base(..)) | initialization(app.Base(int)) | initialization | 1
Base 2
init threw q true
handler IllegalStateException exception-handler(void app.Main.<catch>(java.lang.IllegalStateException)) line 7
handler(catch(IllegalStateException)) | handler(catch(IllegalStateException)) | handler(catch(java.lang.IllegalStateException)) | exception-handler | 1
main caught ISE
handler NumberFormatException exception-handler(void app.Main.<catch>(java.lang.NumberFormatException)) line 14
handler this main
multi 0
handler NumberFormatException exception-handler(void app.Main.<catch>(java.lang.NumberFormatException)) line 14
handler this main
multi 2
handler RuntimeException exception-handler(void app.Main.<catch>(java.lang.RuntimeException)) line 16
handler this main
split
finally
NoInit
clinit staticinitialization(void app.NoInit.<clinit>())
staticinitialization(app.NoInit.<clinit>) | staticinitialization(NoInit.<clinit>) | staticinitialization(static app.NoInit.<clinit>) | staticinitialization | 0
42
`
	if got != want {
		t.Errorf("woven run printed\n%s\nwant\n%s", got, want)
	}
	text := strings.Join(infos, "\n")
	for _, w := range []string{
		"Join point 'staticinitialization(void app.NoInit.<clinit>())' in Type 'app.NoInit' (Main.java) advised by before advice",
		"Join point 'exception-handler(void app.Main.<catch>(java.lang.IllegalStateException))' in Type 'app.Main' (Main.java:14) advised by before advice from 'K' (f.weft:2)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("weave info lacks %q:\n%s", w, text)
		}
	}
	// The split try block: one join point per exception table entry, as ajc.
	if n := strings.Count(text, "<catch>(java.lang.RuntimeException))' in Type 'app.Main' (Main.java:16) advised by before advice from 'K' (f.weft:2)"); n != 2 {
		t.Errorf("%d handler join points for the split try block, want 2:\n%s", n, text)
	}
	if strings.Contains(text, "app.P.<init>()") {
		t.Errorf("P() calls this(1): it has no (pre)initialization join points:\n%s", text)
	}
}

// TestKindsDeclared: declare warnings at the new kinds are reported by
// weaving and by Check alike, a class without a static initializer
// included (the weaver adds one for the check, and leaves the class
// unchanged when nothing is woven). Initialization starts at the field
// initializer that follows super(...).
func TestKindsDeclared(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := runtimeSources()
	for k, v := range kindsProgram {
		src[k] = v
	}
	dir := jvmtest.Compile(t, src, "-g")
	h := mustJDKHierarchy(t, dir)
	prog := resolveText(t, "d.weft", `aspect D {
    declare warning: staticinitialization(app.NoInit) : "static init";
    declare warning: handler(NumberFormatException) : "caught";
    declare warning: initialization(app.P.new(..)) || preinitialization(app.P.new(..)) : "init";
}`, dir, h)
	w := New(prog, prog.Advice(), Options{Hierarchy: h})
	var got, checked []string
	for _, class := range []string{"NoInit", "Main", "P"} {
		p := filepath.Join(dir, "app", class+".class")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := w.WeaveClass(p, data)
		if err != nil {
			t.Fatal(err)
		}
		if res.Class != nil {
			t.Errorf("%s: declarations alone changed the class", class)
		}
		for _, d := range res.Declared {
			got = append(got, d.String())
		}
		ds, err := w.Check(p, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			checked = append(checked, d.String())
		}
	}
	want := []string{
		"app/Main.java: warning: static init\n\tstaticinitialization(void app.NoInit.<clinit>())\n\tsee also: d.weft:2:5",
		"app/Main.java:14: warning: caught\n\texception-handler(void app.Main.<catch>(java.lang.NumberFormatException))\n\tsee also: d.weft:3:5",
		"app/Main.java:25: warning: init\n\tpreinitialization(void app.P.<init>(int))\n\tsee also: d.weft:4:5",
		"app/Main.java:24: warning: init\n\tinitialization(void app.P.<init>(int))\n\tsee also: d.weft:4:5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("declared:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(checked, "\n") != strings.Join(got, "\n") {
		t.Errorf("Check found:\n%s\nweaving:\n%s", strings.Join(checked, "\n"), strings.Join(got, "\n"))
	}
}
