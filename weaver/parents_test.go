package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver/scope"
)

// TestDeclareParents weaves `declare parents` into an application and runs
// it under -Xverify:all: a marker interface; an interface whose methods a
// class lacks, delegated to an object per instance, made on first use; a
// class's own method kept; a subclass inheriting its superclass's
// parents, not given them again; advice matching through the declared
// parent (this(I) bound statically, execution(* I.m()) at a class's own
// method). Weaving the output again adds nothing, and the JDK's classes
// get none.
func TestDeclareParents(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := runtimeSources()
	src["app/Main.java"] = `package app;
import java.util.*;
public class Main {
    public static void main(String[] args) throws Exception {
        Object[] all = {new A(), new B(), new C(), new A()};
        for (Object o : all) {
            List<String> names = new ArrayList<>();
            for (Class<?> i : o.getClass().getInterfaces()) names.add(i.getName());
            Collections.sort(names);
            System.out.println(o.getClass().getSimpleName() + " " + names + " serializable " + (o instanceof java.io.Serializable));
        }
        for (Object o : all) {
            Object r = o.getClass().getMethod("name").invoke(o);
            Object n = o.getClass().getMethod("twice", int.class).invoke(o, 21);
            Object s = o.getClass().getMethod("sum", long.class, double.class).invoke(o, 1L, 0.5);
            System.out.println(r + " " + n + " " + s);
        }
        ((A) all[0]).work();
        ((C) all[2]).work();
        System.out.println(new ArrayList<>().getClass().getInterfaces().length);
    }
}
class A { void work() {} }
class B { public String name() { return "B's own"; } }
class C extends A {}
`
	src["adv/Named.java"] = `package adv;
public interface Named extends Base {
    String name();
    int twice(int x);
    default String greeting() { return "hello"; }
}`
	src["adv/Base.java"] = `package adv;
public interface Base { double sum(long a, double b) throws java.io.IOException; }`
	src["adv/NamedImpl.java"] = `package adv;
public class NamedImpl implements Named {
    static int made;
    final int id = ++made;
    int calls;
    public String name() { return "delegate " + id + " call " + ++calls; }
    public int twice(int x) { return 2 * x; }
    public double sum(long a, double b) { return a + b; }
}`
	src["adv/L.java"] = `package adv;
public class L {
    public static void working(Named n) { System.out.println("working: " + n.name()); }
    public static void named() { System.out.println("execution of name() in app"); }
}`
	const aspect = `aspect Parents {
    declare parents: app.A || app.B || app.C implements adv.Named defaultImpl adv.NamedImpl;
    declare parents: app.B implements java.io.Serializable;
    declare parents: java.util.ArrayList implements adv.Named;
    before(adv.Named n): execution(* app.A.work()) && this(n) { adv.L.working(n); }
    before(): execution(String adv.Named.name()) && within(app.*) { adv.L.named(); }
}`
	dir := jvmtest.Compile(t, src, "-g")
	h := mustJDKHierarchy(t, dir)
	prog := resolveText(t, "parents.weft", aspect, dir, h)
	w := New(prog, prog.Advice(), Options{Hierarchy: h})
	// The subclass gets nothing, A and B what they lack: B keeps its
	// name() and delegates twice and sum (its delegate is the second made).
	added := map[string]string{}
	for _, class := range []string{"app/A.class", "app/B.class", "app/C.class", "app/Main.class"} {
		res := weaveClassFile(t, w, dir, class)
		added[class] = strings.Join(res.Parents, " ")
		for _, warn := range res.Warnings {
			t.Errorf("%s: warning %s", class, warn)
		}
	}
	want := map[string]string{"app/A.class": "adv/Named", "app/B.class": "adv/Named java/io/Serializable", "app/C.class": "", "app/Main.class": ""}
	for class, got := range added {
		if got != want[class] {
			t.Errorf("%s was given %q, want %q", class, got, want[class])
		}
	}
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "app.Main")
	const wantOut = "A [adv.Named] serializable false\n" +
		"B [adv.Named, java.io.Serializable] serializable true\n" +
		"C [] serializable false\n" +
		"A [adv.Named] serializable false\n" +
		"delegate 1 call 1 42 1.5\n" +
		"execution of name() in app\n" +
		"B's own 42 1.5\n" +
		"delegate 3 call 1 42 1.5\n" +
		"delegate 4 call 1 42 1.5\n" +
		"working: delegate 1 call 2\n" +
		"working: delegate 3 call 2\n" +
		"4\n"
	if out != wantOut {
		t.Errorf("output:\n%s\nwant:\n%s", out, wantOut)
	}

	// Weaving the woven classes again adds nothing.
	w2 := New(prog, prog.Advice(), Options{Hierarchy: mustJDKHierarchy(t, dir)})
	for _, class := range []string{"app/A.class", "app/B.class"} {
		data, err := os.ReadFile(filepath.Join(dir, class))
		if err != nil {
			t.Fatal(err)
		}
		res, err := w2.WeaveClass(class, data)
		if err != nil || len(res.Parents) > 0 {
			t.Errorf("%s woven again: parents %v, %v", class, res.Parents, err)
		}
	}

	// A class out of the scope gets none, and matching does not see them.
	pats, err := scope.ParseFile("scope", []byte("app/**\n!app/B\n"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scope.New(pats...)
	if err != nil {
		t.Fatal(err)
	}
	fresh := jvmtest.Compile(t, src, "-g")
	hs := mustJDKHierarchy(t, fresh)
	ps := resolveText(t, "parents.weft", aspect, fresh, hs)
	scoped := New(ps, ps.Advice(), Options{Hierarchy: hs, Scope: sc})
	data, err := os.ReadFile(filepath.Join(fresh, "app", "B.class"))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := scoped.WeaveClass("app/B.class", data); err != nil || res.Class != nil || len(res.Parents) > 0 {
		t.Errorf("B out of the scope: woven %v, parents %v, %v", res.Class != nil, res.Parents, err)
	}
	if ci, err := hs.Lookup("app/B"); err != nil || len(ci.Interfaces) != 0 {
		t.Errorf("B out of the scope: the hierarchy says it implements %v (%v)", ci.Interfaces, err)
	}
	if ci, err := hs.Lookup("app/A"); err != nil || strings.Join(ci.Interfaces, " ") != "adv/Named" {
		t.Errorf("A in the scope: the hierarchy says it implements %v (%v), want adv/Named", ci.Interfaces, err)
	}

	// In JDK mode, a class the pattern matches is left without them,
	// and said so.
	jdk := New(prog, prog.Advice(), Options{Hierarchy: mustJDKHierarchy(t, dir), Mode: JDK})
	data, err = mustJDK(t).Class("java/util/ArrayList")
	if err != nil {
		t.Fatal(err)
	}
	res, err := jdk.WeaveClass("java/util/ArrayList", data)
	if err != nil || len(res.Parents) > 0 || len(res.Warnings) != 1 ||
		!strings.Contains(res.Warnings[0], "java.util.ArrayList: declare parents of adv.Named (parents.weft:4) not applied: the JDK's classes cannot see an application's interfaces") {
		t.Errorf("ArrayList in JDK mode: parents %v, warnings %q, %v", res.Parents, res.Warnings, err)
	}
}
