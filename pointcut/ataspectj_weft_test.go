package pointcut

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
)

// TestTranslateAtAspect translates javac's at.Simple into a .weft aspect
// that parses and resolves, and whose dispatcher takes each advice's
// parameters as weft passes them; the aop.xml weaver's patterns restrict
// every advice. What weft does not run yet is an error naming it.
func TestTranslateAtAspect(t *testing.T) {
	classes := compileAt(t, "-g")
	tr, err := TranslateAtAspect(mustReadAt(t, classes, "at/Simple"), nil, AtOptions{Include: []string{"at..*"}, Exclude: []string{"at.Gen*"}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Aspect != "at.Simple" || tr.Dispatcher != "weft/at/gen/at/Simple" {
		t.Errorf("aspect %s, dispatcher %s", tr.Aspect, tr.Dispatcher)
	}
	weft := string(tr.Weft)
	for _, want := range []string{
		"aspect at.Simple {\n",
		"    pointcut big(int i): (execution(* at.Service.size(int)) && args(i)) && if(weft.at.gen.at.Simple.i0(i, thisJoinPoint));\n",
		"    int around(int i): (big(i)) && (within(at..*)) && !within(at.Gen*) {\n        weft.at.gen.at.Simple.a0(proceed, thisJoinPoint, i);\n",
		"    after() returning(java.lang.Object r): (execution(* at.Service.*(..))) && (within(at..*)) && !within(at.Gen*) {\n" +
			"        weft.at.gen.at.Simple.a1(thisJoinPointStaticPart, r, thisEnclosingJoinPointStaticPart);\n",
		"    after() throwing: (execution(* at.Service.*(..)))",
		"    declare precedence: at.Simple, *;\n",
		`    declare warning: call(* java.sql..*.*(..)) : "no \"JDBC\" here";` + "\n",
	} {
		if !strings.Contains(weft, want) {
			t.Errorf("the .weft text lacks\n%s\nit is:\n%s", want, weft)
		}
	}
	f, err := ParseFile("Simple.weft", tr.Weft)
	if err != nil {
		t.Fatalf("the translation does not parse: %v\n%s", err, weft)
	}
	prog, err := Resolve([]*File{f}, "")
	if err != nil {
		t.Fatalf("the translation does not resolve: %v\n%s", err, weft)
	}
	// Each advice names the Java source it was written in (source.go).
	for i, want := range []string{"at/Simple.java:11", "at/Simple.java:14", "at/Simple.java:17"} {
		if a := prog.Advice()[i]; fmt.Sprintf("%s:%d", a.File, a.Line) != want {
			t.Errorf("advice %d (%s) is at %s:%d, want %s", i, a.Method.Name, a.File, a.Line, want)
		}
	}
	java := string(tr.Java)
	for _, want := range []string{
		"package weft.at.gen.at;\n",
		`weft.at.Link.link(S0, "at.Simple", "big", "(ILorg/aspectj/lang/JoinPoint;)Z", "fJ", true);`,
		`weft.at.Link.link(S1, "at.Simple", "twice", "(Lorg/aspectj/lang/ProceedingJoinPoint;I)I", "Pf", false);`,
		`weft.at.Link.link(S2, "at.Simple", "returned", "(Lorg/aspectj/lang/JoinPoint$StaticPart;Ljava/lang/Object;Lorg/aspectj/lang/JoinPoint$EnclosingStaticPart;)V", "SfE", false);`,
		"public static boolean i0(int p0, weft.rt.JoinPoint p1) throws Throwable {\n        return (boolean) H0.invokeExact(p0, p1);",
		"public static int a0(weft.rt.Proceed p0, weft.rt.JoinPoint p1, int p2) throws Throwable {",
		"private static int a0$unlinked(weft.rt.Proceed p0, weft.rt.JoinPoint p1, int p2) throws Throwable {\n        return (Integer) p0.proceed();",
		"public static void a1(weft.rt.JoinPointStaticPart p0, Object p1, weft.rt.JoinPointStaticPart p2) throws Throwable {",
	} {
		if !strings.Contains(java, want) {
			t.Errorf("the dispatcher lacks\n%s\nit is:\n%s", want, java)
		}
	}

	// A concrete aspect extending an abstract one: the inherited advice
	// on the concrete aspect's instance, its pointcuts the concrete ones.
	tr, err = TranslateAtAspect(mustReadAt(t, classes, "at/ConcreteTracer"), []*AtAspect{mustReadAt(t, classes, "at/AbstractTracer")}, AtOptions{})
	if err != nil {
		t.Fatal(err)
	}
	weft = string(tr.Weft)
	for _, want := range []string{
		"    pointcut scope(): within(at..*);\n",
		"    pointcut scoped(java.lang.Object o): this(o);\n",
		"    // source: at/AbstractTracer.java:15, method enter(JoinPoint, Object)\n    before(java.lang.Object o): scope() && scoped(o) {\n",
	} {
		if !strings.Contains(weft, want) {
			t.Errorf("ConcreteTracer's .weft text lacks\n%s\nit is:\n%s", want, weft)
		}
	}
	if !strings.Contains(string(tr.Java), `weft.at.Link.link(S0, "at.ConcreteTracer", "enter", "(Lorg/aspectj/lang/JoinPoint;Ljava/lang/Object;)V", "Jf", false);`) {
		t.Errorf("ConcreteTracer's dispatcher:\n%s", tr.Java)
	}
	if f, err := ParseFile("ConcreteTracer.weft", tr.Weft); err != nil {
		t.Errorf("ConcreteTracer's translation does not parse: %v", err)
	} else if _, err := Resolve([]*File{f}, ""); err != nil {
		t.Errorf("ConcreteTracer's translation does not resolve: %v\n%s", err, weft)
	}
	_, err = TranslateAtAspect(mustReadAt(t, classes, "at/HalfTracer"), []*AtAspect{mustReadAt(t, classes, "at/AbstractTracer")}, AtOptions{})
	if want := "at/AbstractTracer.java: aspect at.AbstractTracer, method scoped(Object): abstract pointcut scoped is not defined by the concrete aspect at.HalfTracer"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("HalfTracer: got %v, want %q", err, want)
	}

	// The per-clauses: the advice making the instances, and the advice
	// restricted to the join points that have one.
	for _, c := range []struct {
		class string
		want  []string
	}{
		{"at/PerThis", []string{
			"    before(Object weft$key): (execution(* at.Service.*(..))) && this(weft$key) {\n        weft.at.gen.at.PerThis.bind(weft$key);\n",
			"    before(Object weft$key): (execution(* at.Service.*(..))) && this(weft$key) {\n        weft.at.gen.at.PerThis.a0(weft$key);\n"}},
		{"at/PerTarget", []string{"&& target(weft$key) {\n        weft.at.gen.at.PerTarget.bind(weft$key);\n"}},
		{"at/PerCflow", []string{
			"    before(): execution(* at.Main.main(..)) {\n        weft.at.gen.at.PerCflow.push();\n",
			"    before(): (execution(* at.Service.*(..))) && cflow(execution(* at.Main.main(..))) {\n        weft.at.gen.at.PerCflow.a0();\n",
			"    after(): execution(* at.Main.main(..)) {\n        weft.at.gen.at.PerCflow.pop();\n    }\n}\n"}},
		{"at/PerCflowBelow", []string{"&& cflowbelow(execution(* at.Main.main(..))) {"}},
		{"at/PerType", []string{"    before(): (execution(* at.Service.*(..))) && within(at..*) {\n        weft.at.gen.at.PerType.a0(thisJoinPointStaticPart);\n"}},
	} {
		tr, err := TranslateAtAspect(mustReadAt(t, classes, c.class), nil, AtOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.class, err)
			continue
		}
		for _, want := range c.want {
			if !strings.Contains(string(tr.Weft), want) {
				t.Errorf("%s: the .weft text lacks\n%s\nit is:\n%s", c.class, want, tr.Weft)
			}
		}
		if f, err := ParseFile(c.class+".weft", tr.Weft); err != nil {
			t.Errorf("%s: the translation does not parse: %v", c.class, err)
		} else if _, err := Resolve([]*File{f}, ""); err != nil {
			t.Errorf("%s: the translation does not resolve: %v\n%s", c.class, err, tr.Weft)
		}
	}

	// @DeclareParents: declare parents, the delegate's class as
	// defaultImpl; the classes the pattern matches get both interfaces.
	tr, err = TranslateAtAspect(mustReadAt(t, classes, "at/Tracing"), nil, AtOptions{Include: []string{"at..*"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"    // source: at/Tracing.java, field moody\n    declare parents: (at.model..*) && (at..*) implements at.Tracing.Moody defaultImpl at.Tracing.MoodyImpl;\n",
		"    declare parents: (at.model..*) && (at..*) implements java.io.Serializable;\n",
	} {
		if !strings.Contains(string(tr.Weft), want) {
			t.Errorf("Tracing's .weft text lacks\n%s\nit is:\n%s", want, tr.Weft)
		}
	}
	// Only its declarations: at.Tracing's pointcuts are there for the
	// reader's errors.
	var parents strings.Builder
	parents.WriteString("aspect at.Tracing {\n")
	for _, l := range strings.Split(string(tr.Weft), "\n") {
		if strings.Contains(l, "declare parents") {
			parents.WriteString(l + "\n")
		}
	}
	parents.WriteString("}\n")
	if f, err := ParseFile("Tracing.weft", []byte(parents.String())); err != nil {
		t.Errorf("Tracing's declarations do not parse: %v", err)
	} else if prog, err := Resolve([]*File{f}, ""); err != nil {
		t.Errorf("Tracing's declarations do not resolve: %v\n%s", err, parents.String())
	} else {
		for class, want := range map[string]string{"at/model/Point": "at/Tracing$Moody+at/Tracing$MoodyImpl java/io/Serializable+",
			"at/Service": "", "at/model/sub/Line": "at/Tracing$Moody+at/Tracing$MoodyImpl java/io/Serializable+"} {
			var got []string
			for _, p := range prog.DeclaredParents(&classfile.ClassInfo{Name: class, Super: "java/lang/Object"}, nil) {
				got = append(got, p.Interface+"+"+p.Impl)
			}
			if strings.Join(got, " ") != want {
				t.Errorf("the parents declared for %s are %q, want %q", class, got, want)
			}
		}
	}

	for _, c := range []struct{ class, want string }{
		{"at/AbstractTracer", "aspect at.AbstractTracer: an abstract aspect applies only through an aspect extending it"},
	} {
		_, err := TranslateAtAspect(mustReadAt(t, classes, c.class), nil, AtOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.class, err, c.want)
		}
	}
}

// TestMatchAspectName matches aop.xml's aspect patterns.
func TestMatchAspectName(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"com.acme.Trace", "com.acme.Trace", true},
		{"com.acme..*", "com.acme.x.Trace", true},
		{"com.acme.*", "com.acme.x.Trace", false},
		{"!com.acme..*", "org.Trace", true},
		{"*Trace", "Trace", true},
	} {
		got, err := MatchAspectName(c.pattern, c.name)
		if err != nil || got != c.want {
			t.Errorf("MatchAspectName(%q, %q) = %v, %v; want %v", c.pattern, c.name, got, err, c.want)
		}
	}
	if _, err := MatchAspectName("com..(", "x"); err == nil {
		t.Error("a broken pattern: no error")
	}
}

// TestQualifyNames names the aspect's package's types as AspectJ resolves
// a simple name in an @AspectJ pointcut; formals, java.lang's types and
// qualified or wildcard names stay as written.
func TestQualifyNames(t *testing.T) {
	w := AtOptions{Exists: func(n string) bool { return n == "at/Service" || n == "at/Mark" || n == "at/Tracing" }}
	for _, c := range []struct {
		src, want string
		formals   []string
		types     bool
	}{
		{"execution(* Service.size(int)) && args(i) && @annotation(Mark) && within(Service+) && this(s)",
			"execution(* at.Service.size(int)) && args(i) && @annotation(at.Mark) && within(at.Service+) && this(s)", []string{"i", "s"}, false},
		{"call(String Service.*(String, ..)) && target(Service) && !within(java.util..*) && within(S*)",
			"call(String at.Service.*(String, ..)) && target(at.Service) && !within(java.util..*) && within(S*)", nil, false},
		{"Tracing, *", "at.Tracing, *", nil, true},
		{"execution(Service.new(..)) || execution(* Service(..)) || get(int Service)", "execution(at.Service.new(..)) || execution(* Service(..)) || get(int Service)", nil, false},
		{"execution(* Service.*(..)) &&", "execution(* Service.*(..)) &&", nil, false}, // no parse: as written
	} {
		if got := w.qualifyNames(c.src, "at", c.formals, c.types); got != c.want {
			t.Errorf("qualifyNames(%q) = %q, want %q", c.src, got, c.want)
		}
	}
	// A formal named as a type of the package stays a formal.
	if got := w.qualifyNames("args(Service)", "at", []string{"Service"}, false); got != "args(Service)" {
		t.Errorf("a formal named Service: %q", got)
	}
}

// TestSourceNote: an error in a declaration of a translation's .weft file
// names the source the declaration translates, from its source comment.
func TestSourceNote(t *testing.T) {
	const text = `aspect a.A {
    // source: a/A.java:12, method m()
    before(): execution(* *(..)) && missing() {
        a.B.c();
    }
    before(): missing() { a.B.c(); }
}
`
	f, err := ParseFile("A.weft", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Resolve([]*File{f}, "")
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("got %v, want two errors", err)
	}
	if !strings.HasSuffix(list[0].Hint, "this declaration is the translation of a/A.java:12, method m()") {
		t.Errorf("the first error's hint is %q", list[0].Hint)
	}
	if strings.Contains(list[1].Hint, "translation") {
		t.Errorf("the second declaration has no source comment, and its error's hint is %q", list[1].Hint)
	}
}
