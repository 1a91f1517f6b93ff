package weaver

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
)

// declareApp is a small program for declare warning and error: a
// constructor whose execution starts after super(), calls of n() and
// println, an array.
var declareApp = map[string]string{
	"p/A.java": `package p;
public class A {
    int x;
    public A() {
        super();
        x = 1;
    }
    public void m() {
        System.out.println("m");
        n();
        int[] a = new int[2];
    }
    void n() { }
    public static void main(String[] args) {
        new A().m();
    }
}`,
}

// declareWeft and DeclareDiff.aj say the same in weft and AspectJ.
const (
	declareWeft = `aspect D {
    pointcut inP(): within(p..*);
    declare warning: call(* p.A.n(..)) : "do not call n";
    declare warning: execution(p.A.new(..)) : "constructor";
    declare error: call(* java.io.PrintStream.println(..)) && inP() : "no println";
    declare warning: execution(* p.A.*(..)) && !execution(* main(..)) : "method";
    declare warning: call(* nowhere.*(..)) : "never";
}`
	declareAJ = `public aspect DeclareDiff {
    pointcut inP(): within(p..*);
    declare warning: call(* p.A.n(..)) : "do not call n";
    declare warning: execution(p.A.new(..)) : "constructor";
    declare error: call(* java.io.PrintStream.println(..)) && inP() : "no println";
    declare warning: execution(* p.A.*(..)) && !execution(* main(..)) : "method";
    declare warning: call(* nowhere.*(..)) : "never";
}`
)

// resolveText parses and resolves one aspect file against a class
// directory.
func resolveText(t *testing.T, name, text, dir string, h *MethodHierarchy) *pointcut.Program {
	t.Helper()
	f, err := pointcut.ParseFile(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: dir, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestDeclaredAtShadows: weaving reports each declaration at the shadows
// it matches, with the class's source file and line (a constructor's
// execution at the first line after super()), advised or not; Check finds
// the same without weaving.
func TestDeclaredAtShadows(t *testing.T) {
	dir := jvmtest.Compile(t, declareApp, "-g")
	h := mustJDKHierarchy(t, dir)
	prog := resolveText(t, "d.weft", declareWeft, dir, h)
	w := New(prog, prog.Advice(), Options{Hierarchy: h})
	p := filepath.Join(dir, "p", "A.class")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.WeaveClass(p, data)
	if err != nil {
		t.Fatal(err)
	}
	if res.Class != nil || res.MethodsWoven != 0 {
		t.Error("declarations alone weave nothing")
	}
	var got []string
	for _, d := range res.Declared {
		got = append(got, d.String())
	}
	want := []string{
		"p/A.java:6: warning: constructor\n\tconstructor-execution(void p.A.<init>())\n\tsee also: d.weft:4:5",
		"p/A.java:9: warning: method\n\tmethod-execution(void p.A.m())\n\tsee also: d.weft:6:5",
		"p/A.java:9: error: no println\n\tmethod-call(void java.io.PrintStream.println(java.lang.String))\n\tsee also: d.weft:5:5",
		"p/A.java:10: warning: do not call n\n\tmethod-call(void p.A.n())\n\tsee also: d.weft:3:5",
		"p/A.java:13: warning: method\n\tmethod-execution(void p.A.n())\n\tsee also: d.weft:6:5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("declared:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checked, err := w.Check(p, data)
	if err != nil {
		t.Fatal(err)
	}
	var again []string
	for _, d := range checked {
		again = append(again, d.String())
	}
	if strings.Join(again, "\n") != strings.Join(got, "\n") {
		t.Errorf("Check found:\n%s\nweaving:\n%s", strings.Join(again, "\n"), strings.Join(got, "\n"))
	}
	st, err := w.CheckPath(dir)
	if err != nil || len(st) != len(got) {
		t.Errorf("CheckPath: %d messages, %v", len(st), err)
	}
}

// ajcMessage is a message of ajc's: "p/A.java:10 [warning] do not call n"
// and the join point on the next line.
var ajcMessage = regexp.MustCompile(`(?m)^(\S+:\d+) \[(warning|error)\] (.*)\n\t(.*)$`)

// TestDeclareAgainstAspectJ compares the declare warnings and errors ajc
// reports on a small program with weft's: the same source lines, levels,
// messages and join points.
func TestDeclareAgainstAspectJ(t *testing.T) {
	t.Parallel() // see jdkOnce
	if _, err := os.Stat(ajcPath); err != nil {
		t.Fatalf("%s missing: %s", ajcPath, installAJ)
	}
	dir := jvmtest.Compile(t, declareApp, "-g")
	aj := filepath.Join(t.TempDir(), "DeclareDiff.aj")
	if err := os.WriteFile(aj, []byte(declareAJ), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := ajcCommand(t, "-1.8", "-inpath", dir, "-cp", aspectjrt, "-d", t.TempDir(), aj).CombinedOutput()
	if err == nil {
		t.Errorf("ajc succeeded despite a declare error:\n%s", out)
	}
	var want []string
	for _, m := range ajcMessage.FindAllStringSubmatch(string(out), -1) {
		want = append(want, m[1]+" "+m[2]+" "+m[3]+" | "+m[4])
	}
	sort.Strings(want)

	h := mustJDKHierarchy(t, dir)
	prog := resolveText(t, "d.weft", declareWeft, dir, h)
	ds, err := New(prog, prog.Advice(), Options{Hierarchy: h}).CheckPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		level := "warning"
		if d.Declare.Error {
			level = "error"
		}
		jp := strings.Split(d.String(), "\n\t")[1]
		got = append(got, d.Source+":"+itoa(d.Line)+" "+level+" "+d.Declare.Message+" | "+jp)
	}
	sort.Strings(got)
	if len(want) < 5 {
		t.Fatalf("ajc reported %d messages:\n%s", len(want), out)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("weft:\n%s\najc:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDeclarePrecedenceOnTheJVM runs woven code: at a join point advised
// by two aspects, before advice of the aspect declare precedence puts
// first runs first and its after advice last, whatever the order of the
// aspects on the command line. Woven by ajc and by weft, aspects with
// orders AspectJ defines fully (one set of three per order, each at a join
// point of its own) run in the same orders.
func TestDeclarePrecedenceOnTheJVM(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := runtimeSources()
	src["app/Main.java"] = `package app;
public class Main {
    static void work() { System.out.println("work"); }
    public static void main(String[] a) { work(); }
}`
	// aspects are Log, Security and Timing, named with the suffix sfx, at
	// the execution of work+sfx; prec is Security's declaration, %[1]s
	// standing for sfx.
	aspects := func(prec, sfx string) string {
		return fmt.Sprintf(`aspect Log%[1]s {
    before(): execution(* app.Main.work%[1]s()) { adv.L.sayLogBefore(); }
    after(): execution(* app.Main.work%[1]s()) { adv.L.sayLogAfter(); }
}
aspect Security%[1]s {
    `+prec+`
    before(): execution(* app.Main.work%[1]s()) { adv.L.saySecBefore(); }
    after(): execution(* app.Main.work%[1]s()) { adv.L.saySecAfter(); }
}
aspect Timing%[1]s {
    before(): execution(* app.Main.work%[1]s()) { adv.L.sayTimeBefore(); }
}
`, sfx)
	}
	src["adv/L.java"] = `package adv;
public class L {
    public static void sayLogBefore() { System.out.println("log before"); }
    public static void sayLogAfter() { System.out.println("log after"); }
    public static void saySecBefore() { System.out.println("security before"); }
    public static void saySecAfter() { System.out.println("security after"); }
    public static void sayTimeBefore() { System.out.println("timing before"); }
}`
	cases := []struct{ prec, want string }{
		{"", "log before\nsecurity before\ntiming before\nwork\nsecurity after\nlog after\n"},
		{"declare precedence: Security%[1]s, *;", "security before\nlog before\ntiming before\nwork\nlog after\nsecurity after\n"},
		{"declare precedence: Timing%[1]s, Log%[1]s;", "security before\ntiming before\nlog before\nwork\nlog after\nsecurity after\n"},
		{"declare precedence: *, Log%[1]s;", "security before\ntiming before\nlog before\nwork\nlog after\nsecurity after\n"},
	}
	for _, tt := range cases {
		dir := jvmtest.Compile(t, src, "-g")
		h := mustJDKHierarchy(t, dir)
		prog := resolveText(t, "p.weft", aspects(tt.prec, ""), dir, h)
		weaveClassInPlace(t, New(prog, prog.Advice(), Options{Hierarchy: h}), dir, "app/Main.class")
		out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
		if out != tt.want {
			t.Errorf("%q: output\n%s\nwant\n%s", tt.prec, out, tt.want)
		}
	}

	// ajc and weft, weaving the same aspects with orders AspectJ defines
	// fully (one set of aspects per order, at a join point of its own;
	// where an order is partial, as in the cases above, ajc may choose
	// another), run the advice in the same orders.
	orders := []string{
		"declare precedence: Timing%[1]s, Security%[1]s, Log%[1]s;",
		"declare precedence: Log%[1]s, Timing%[1]s, Security%[1]s;",
		"declare precedence: Security%[1]s, *; declare precedence: Timing%[1]s, Log%[1]s;",
		"declare precedence: *, Security%[1]s; declare precedence: Log%[1]s, Timing%[1]s;",
	}
	ajSrc := runtimeSources()
	ajSrc["adv/L.java"] = src["adv/L.java"]
	var text, main, calls strings.Builder
	for i, prec := range orders {
		sfx := itoa(i + 1)
		text.WriteString(aspects(prec, sfx))
		fmt.Fprintf(&main, "    static void work%s() { System.out.println(\"work\"); }\n", sfx)
		fmt.Fprintf(&calls, " System.out.println(\"-- %s\"); work%s();", sfx, sfx)
	}
	ajSrc["app/Main.java"] = "package app;\npublic class Main {\n" + main.String() +
		"    public static void main(String[] a) {" + calls.String() + " }\n}"
	dir := jvmtest.Compile(t, ajSrc, "-g")
	ajFile := filepath.Join(t.TempDir(), "Prec.aj")
	if err := os.WriteFile(ajFile, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ajWoven := t.TempDir()
	ajcWeave(t, filepath.Join(dir, "app"), ajWoven, dir, []string{ajFile})
	want, ajErr := jvmtest.Run(t, "-cp", ajWoven+string(filepath.ListSeparator)+dir+string(filepath.ListSeparator)+aspectjrt, "app.Main")

	h := mustJDKHierarchy(t, dir)
	prog := resolveText(t, "p.weft", text.String(), dir, h)
	weaveClassInPlace(t, New(prog, prog.Advice(), Options{Hierarchy: h}), dir, "app/Main.class")
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
	if got != want || strings.Count(want, "work\n") != len(orders) || !strings.Contains(want, "-- 2\nlog before\ntiming before\nsecurity before\n") {
		t.Errorf("woven by weft:\n%s\nby ajc:\n%s\n%s", got, want, ajErr)
	}
}
