package pointcut

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// The @AspectJ aspects of the tests, compiled by javac against aspectjrt.
// Each member the tests check is on one line, whose number is that of the
// method's first instruction.
var atTracingSrc = `package at;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.*;

@Aspect
@DeclarePrecedence("at.Tracing, at.*")
public class Tracing {
    @Pointcut("call(* at.Service.*(..)) && args(n, ..) && target(s)")
    void serviceCall(int n, Object s) {}

    @Pointcut("execution(* at..*(..))")
    void anyExec() {}

    @Pointcut("call(* at.Service.size(int)) && args(i) && if()")
    public static boolean bigSize(int i, JoinPoint jp) { return i > 10; }

    @Pointcut("if()")
    public static boolean enabled() { return true; }

    @Before("serviceCall(n, s)")
    public void before(JoinPoint jp, int n, Object s) {}

    @Before("serviceCall(n, s)")
    public void middle(int n, JoinPoint.StaticPart sp, Object s) {}

    @After("anyExec() && enabled()")
    public void after(JoinPoint.StaticPart sp) {}

    @AfterReturning(pointcut = "anyExec()", returning = "r")
    public void returned(Object r, JoinPoint.EnclosingStaticPart esp) {}

    @AfterReturning(value = "serviceCall(n, s)", pointcut = "anyExec()")
    public void bothSet() {}

    @AfterThrowing(value = "anyExec()", throwing = "t")
    public void threw(JoinPoint jp, Throwable t) {}

    @Around("serviceCall(n, s)")
    public Object around(ProceedingJoinPoint pjp, int n, Object s) throws Throwable { return pjp.proceed(); }

    @Before(value = "serviceCall(count, svc)", argNames = "count,svc")
    public void named(JoinPoint jp, int n, Object s) {}

    @AfterReturning(pointcut = "anyExec()", returning = "res", argNames = "jp, res")
    public void namedAll(JoinPoint jp, Object r) {}

    @DeclareWarning("call(* java.sql..*(..)) && !within(at.dao..*)")
    static final String noJdbc = "Only DAOs should call JDBC";

    @DeclareError("execution(* at.Service+.*(..)) && within(at.bad..*)")
    static final String badService = "bad service";

    @DeclareParents(value = "at.model..*", defaultImpl = MoodyImpl.class)
    private Moody moody;

    @DeclareParents("at.model..*")
    java.io.Serializable marker;

    public interface Moody { String mood(); }

    public static class MoodyImpl implements Moody { public String mood() { return "happy"; } }
}
`

var atAbstractSrc = `package at;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.*;

@Aspect
public abstract class AbstractTracer {
    @Pointcut("")
    protected abstract void scope();

    @Pointcut
    protected abstract void scoped(Object o);

    @Before("scope() && scoped(o)")
    public void enter(JoinPoint jp, Object o) {}
}
`

var atSources = map[string]string{
	"at/Tracing.java":        atTracingSrc,
	"at/AbstractTracer.java": atAbstractSrc,
	"at/ConcreteTracer.java": `package at;
import org.aspectj.lang.annotation.*;
@Aspect
public class ConcreteTracer extends AbstractTracer {
    @Pointcut("within(at..*)") protected void scope() {}
    @Pointcut("this(o)") protected void scoped(Object o) {}
}
`,
	"at/Simple.java": `package at;
import org.aspectj.lang.*;
import org.aspectj.lang.annotation.*;
@Aspect
@DeclarePrecedence("at.Simple, *")
public class Simple {
    @Pointcut("execution(* at.Service.size(int)) && args(i) && if()")
    public static boolean big(int i, JoinPoint jp) { return i > 10; }

    @Around("big(i)")
    public int twice(ProceedingJoinPoint pjp, int i) throws Throwable { return (Integer) pjp.proceed() * 2; }

    @AfterReturning(pointcut = "execution(* at.Service.*(..))", returning = "r")
    public void returned(JoinPoint.StaticPart sp, Object r, JoinPoint.EnclosingStaticPart esp) {}

    @AfterThrowing("execution(* at.Service.*(..))")
    public void threw() {}

    @DeclareWarning("call(* java.sql..*.*(..))")
    static final String noJdbc = "no \"JDBC\" here";
}
`,
	"at/HalfTracer.java": `package at;
import org.aspectj.lang.annotation.*;
@Aspect
public class HalfTracer extends AbstractTracer {
    @Pointcut("within(at..*)") protected void scope() {}
    protected void scoped(Object o) {} // not a @Pointcut: scoped stays undefined
}
`,
	"at/Service.java": `package at;
public class Service { public int size(int i) { return i; } }
`,
	"at/PerThis.java":       perAspect("PerThis", "perthis(execution(* at.Service.*(..)))"),
	"at/PerTarget.java":     perAspect("PerTarget", "pertarget(call(* at.Service.*(..)))"),
	"at/PerCflow.java":      perAspect("PerCflow", "percflow(execution(* at.Main.main(..)))"),
	"at/PerCflowBelow.java": perAspect("PerCflowBelow", "percflowbelow(execution(* at.Main.main(..)))"),
	"at/PerType.java":       perAspect("PerType", "pertypewithin(at..*)"),
	"at/Single.java":        perAspect("Single", "singleton()"),

	// Aspects ReadAtAspect rejects (TestAtAspectErrors).
	"bad/ArgCount.java": badAspect("ArgCount", `
    @Before(value = "execution(* *(..)) && args(a, b)", argNames = "a")
    public void b(int a, int b) {}`),
	"bad/Mixin.java": badAspect("Mixin", `
    @DeclareMixin("at.model..*")
    public static Runnable create() { return null; }`),
	"bad/Syntax.java": badAspect("Syntax", `
    @Before("execution(* at..*(..)) && && within(at..*)")
    public void b() {}`),
	"bad/DeclAnno.java": `package bad;
import org.aspectj.lang.annotation.*;
@Aspect @DeclareAnnotation("at..* : @Deprecated") public class DeclAnno {}
`,
	"bad/IfAdvice.java": badAspect("IfAdvice", `
    @Before("execution(* *(..)) && if()")
    public void b() {}`),
	"bad/Returning.java": badAspect("Returning", `
    @AfterReturning(pointcut = "execution(* *(..))", returning = "x")
    public void r(Object y) {}`),
	"bad/Static.java": badAspect("Static", `
    @Before("execution(* *(..))")
    public static void b() {}`),
	"bad/Pjp.java": badAspect("Pjp", `
    @Before("execution(* *(..))")
    public void b(org.aspectj.lang.ProceedingJoinPoint p) {}`),
	"bad/PerBad.java": `package bad;
import org.aspectj.lang.annotation.*;
@Aspect("perfoo(execution(* *(..)))") public class PerBad {}
`,
	"bad/Several.java": badAspect("Several", `
    @Before("call(* *(..)")
    public void one() {}
    @After("execution(* *(..)) && adviceexecution()")
    public void two() {}`),
}

func perAspect(name, per string) string {
	return fmt.Sprintf(`package at;
import org.aspectj.lang.annotation.*;
@Aspect(%q)
public class %s {
    @Before("execution(* at.Service.*(..))")
    public void b() {}
}
`, per, name)
}

func badAspect(name, body string) string {
	return fmt.Sprintf(`package bad;
import org.aspectj.lang.annotation.*;
@Aspect
public class %s {%s
}
`, name, body)
}

// atCompiled caches the classes of atSources by javac's options: the
// tests share three compilations.
var atCompiled = struct {
	sync.Mutex
	m map[string]map[string][]byte
}{m: map[string]map[string][]byte{}}

// aspectjrt is AspectJ's runtime, which holds the annotations.
const aspectjrt = "/usr/share/java/aspectjrt.jar"

// compileAt compiles atSources with javac options opts and returns the
// class files by internal name.
func compileAt(t testing.TB, opts ...string) map[string][]byte {
	t.Helper()
	key := strings.Join(opts, " ")
	atCompiled.Lock()
	defer atCompiled.Unlock()
	if classes, ok := atCompiled.m[key]; ok {
		return classes
	}
	if _, err := os.Stat(aspectjrt); err != nil {
		t.Fatalf("the @AspectJ tests compile against %s: %v (bash .ci/run installs AspectJ)", aspectjrt, err)
	}
	args := append([]string{"-cp", aspectjrt}, opts...)
	dir := jvmtest.Compile(t, atSources, args...)
	classes := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".class") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		classes[strings.TrimSuffix(filepath.ToSlash(rel), ".class")] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	atCompiled.m[key] = classes
	return classes
}

// readAt reads class name of classes with ReadAtAspect.
func readAt(t *testing.T, classes map[string][]byte, name string) (*AtAspect, error) {
	t.Helper()
	b, ok := classes[name]
	if !ok {
		t.Fatalf("javac wrote no %s", name)
	}
	c, err := classfile.Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return ReadAtAspect(c)
}

func mustReadAt(t *testing.T, classes map[string][]byte, name string) *AtAspect {
	t.Helper()
	a, err := readAt(t, classes, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if a == nil {
		t.Fatalf("%s: not read as an aspect", name)
	}
	return a
}

// lineOf returns the 1-based line of src holding s.
func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	i := strings.Index(src, s)
	if i < 0 {
		t.Fatalf("%q not in the source", s)
	}
	return strings.Count(src[:i], "\n") + 1
}

const (
	jpDesc  = "Lorg/aspectj/lang/JoinPoint;"
	objDesc = "Ljava/lang/Object;"
)

// wantTracing is the model of at.Tracing, whatever gave the names.
func wantTracing(t *testing.T) *AtAspect {
	line := func(s string) int { return lineOf(t, atTracingSrc, s) }
	formal := func(name, desc string) AtParam { return AtParam{Name: name, Desc: desc, Role: ParamFormal} }
	return &AtAspect{
		Class:      "at/Tracing",
		SourceFile: "Tracing.java",
		Super:      "java/lang/Object",
		Per:        AtPerClause{Kind: PerSingleton},
		Precedence: "at.Tracing, at.*",
		Pointcuts: []*AtPointcut{
			{Name: "serviceCall", Desc: "(ILjava/lang/Object;)V", Expr: "call(* at.Service.*(..)) && args(n, ..) && target(s)",
				Params: []AtParam{formal("n", "I"), formal("s", objDesc)}, Line: line("void serviceCall(")},
			{Name: "anyExec", Desc: "()V", Expr: "execution(* at..*(..))", Params: []AtParam{}, Line: line("void anyExec(")},
			{Name: "bigSize", Desc: "(ILorg/aspectj/lang/JoinPoint;)Z", Expr: "call(* at.Service.size(int)) && args(i) && if()", If: true,
				Params: []AtParam{formal("i", "I"), {Name: "jp", Desc: jpDesc, Role: ParamJoinPoint}}, Line: line("boolean bigSize(")},
			{Name: "enabled", Desc: "()Z", Expr: "if()", If: true, Params: []AtParam{}, Line: line("boolean enabled(")},
		},
		Advice: []*AtAdvice{
			{Kind: AdviceBefore, Method: "before", Desc: "(Lorg/aspectj/lang/JoinPoint;ILjava/lang/Object;)V", Expr: "serviceCall(n, s)",
				Params: []AtParam{{Name: "jp", Desc: jpDesc, Role: ParamJoinPoint}, formal("n", "I"), formal("s", objDesc)},
				Line:   line("void before(")},
			{Kind: AdviceBefore, Method: "middle", Desc: "(ILorg/aspectj/lang/JoinPoint$StaticPart;Ljava/lang/Object;)V", Expr: "serviceCall(n, s)",
				Params: []AtParam{formal("n", "I"), {Name: "sp", Desc: "Lorg/aspectj/lang/JoinPoint$StaticPart;", Role: ParamStaticPart}, formal("s", objDesc)},
				Line:   line("void middle(")},
			{Kind: AdviceAfter, Method: "after", Desc: "(Lorg/aspectj/lang/JoinPoint$StaticPart;)V", Expr: "anyExec() && enabled()",
				Params: []AtParam{{Name: "sp", Desc: "Lorg/aspectj/lang/JoinPoint$StaticPart;", Role: ParamStaticPart}},
				Line:   line("void after(")},
			{Kind: AdviceAfterReturning, Method: "returned", Desc: "(Ljava/lang/Object;Lorg/aspectj/lang/JoinPoint$EnclosingStaticPart;)V",
				Expr: "anyExec()", Returning: "r",
				Params: []AtParam{{Name: "r", Desc: objDesc, Role: ParamReturning},
					{Name: "esp", Desc: "Lorg/aspectj/lang/JoinPoint$EnclosingStaticPart;", Role: ParamEnclosingStaticPart}},
				Line: line("void returned(")},
			{Kind: AdviceAfterReturning, Method: "bothSet", Desc: "()V", Expr: "anyExec()", Params: []AtParam{}, Line: line("void bothSet(")},
			{Kind: AdviceAfterThrowing, Method: "threw", Desc: "(Lorg/aspectj/lang/JoinPoint;Ljava/lang/Throwable;)V", Expr: "anyExec()", Throwing: "t",
				Params: []AtParam{{Name: "jp", Desc: jpDesc, Role: ParamJoinPoint}, {Name: "t", Desc: "Ljava/lang/Throwable;", Role: ParamThrowing}},
				Line:   line("void threw(")},
			{Kind: AdviceAround, Method: "around", Desc: "(Lorg/aspectj/lang/ProceedingJoinPoint;ILjava/lang/Object;)Ljava/lang/Object;",
				Expr: "serviceCall(n, s)",
				Params: []AtParam{{Name: "pjp", Desc: "Lorg/aspectj/lang/ProceedingJoinPoint;", Role: ParamProceedingJoinPoint},
					formal("n", "I"), formal("s", objDesc)},
				Line: line("Object around(")},
			// argNames overrides the class file's names; the first
			// JoinPoint may go unnamed.
			{Kind: AdviceBefore, Method: "named", Desc: "(Lorg/aspectj/lang/JoinPoint;ILjava/lang/Object;)V", Expr: "serviceCall(count, svc)",
				Params: []AtParam{{Desc: jpDesc, Role: ParamJoinPoint}, formal("count", "I"), formal("svc", objDesc)},
				Line:   line("void named(")},
			{Kind: AdviceAfterReturning, Method: "namedAll", Desc: "(Lorg/aspectj/lang/JoinPoint;Ljava/lang/Object;)V", Expr: "anyExec()", Returning: "res",
				Params: []AtParam{{Name: "jp", Desc: jpDesc, Role: ParamJoinPoint}, {Name: "res", Desc: objDesc, Role: ParamReturning}},
				Line:   line("void namedAll(")},
		},
		Messages: []*AtDeclareMessage{
			{Field: "noJdbc", Expr: "call(* java.sql..*(..)) && !within(at.dao..*)", Message: "Only DAOs should call JDBC"},
			{Error: true, Field: "badService", Expr: "execution(* at.Service+.*(..)) && within(at.bad..*)", Message: "bad service"},
		},
		Parents: []*AtDeclareParents{
			{Field: "moody", Types: "at.model..*", Interface: "at/Tracing$Moody", DefaultImpl: "at/Tracing$MoodyImpl"},
			{Field: "marker", Types: "at.model..*", Interface: "java/io/Serializable"},
		},
	}
}

// diffAspect reports each difference between got and want, part by part.
func diffAspect(t *testing.T, got, want *AtAspect) {
	t.Helper()
	g, w := *got, *want
	g.Pointcuts, g.Advice, g.Messages, g.Parents = nil, nil, nil, nil
	w.Pointcuts, w.Advice, w.Messages, w.Parents = nil, nil, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\ngot  %+v\nwant %+v", want.Class, g, w)
	}
	diffList(t, want.Class+" pointcut", got.Pointcuts, want.Pointcuts)
	diffList(t, want.Class+" advice", got.Advice, want.Advice)
	diffList(t, want.Class+" declare message", got.Messages, want.Messages)
	diffList(t, want.Class+" declare parents", got.Parents, want.Parents)
}

func diffList[T any](t *testing.T, what string, got, want []*T) {
	t.Helper()
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			t.Errorf("%s %d: missing, want %+v", what, i, *want[i])
		case i >= len(want):
			t.Errorf("%s %d: extra %+v", what, i, *got[i])
		case !reflect.DeepEqual(got[i], want[i]):
			t.Errorf("%s %d:\ngot  %+v\nwant %+v", what, i, *got[i], *want[i])
		}
	}
}

// TestAtAspectDebugInfo reads aspects compiled with javac -g: names from
// the LocalVariableTable.
func TestAtAspectDebugInfo(t *testing.T) {
	classes := compileAt(t, "-g")
	diffAspect(t, mustReadAt(t, classes, "at/Tracing"), wantTracing(t))

	// Without -parameters an abstract pointcut's formal has no name, and
	// needs none.
	abs := mustReadAt(t, classes, "at/AbstractTracer")
	diffAspect(t, abs, wantAbstract(t, ""))
}

// TestAtAspectParameters reads aspects compiled with javac -parameters:
// names from MethodParameters, the abstract method's included.
func TestAtAspectParameters(t *testing.T) {
	classes := compileAt(t, "-parameters")
	diffAspect(t, mustReadAt(t, classes, "at/Tracing"), wantTracing(t))
	diffAspect(t, mustReadAt(t, classes, "at/AbstractTracer"), wantAbstract(t, "o"))
}

func wantAbstract(t *testing.T, formal string) *AtAspect {
	return &AtAspect{
		Class: "at/AbstractTracer", SourceFile: "AbstractTracer.java", Super: "java/lang/Object", Abstract: true,
		Pointcuts: []*AtPointcut{
			{Name: "scope", Desc: "()V", Abstract: true, Params: []AtParam{}},
			{Name: "scoped", Desc: "(Ljava/lang/Object;)V", Abstract: true, Params: []AtParam{{Name: formal, Desc: objDesc}}},
		},
		Advice: []*AtAdvice{{Kind: AdviceBefore, Method: "enter", Desc: "(Lorg/aspectj/lang/JoinPoint;Ljava/lang/Object;)V",
			Expr:   "scope() && scoped(o)",
			Params: []AtParam{{Name: "jp", Desc: jpDesc, Role: ParamJoinPoint}, {Name: "o", Desc: objDesc}},
			Line:   lineOf(t, atAbstractSrc, "void enter(")}},
	}
}

// TestAtAspectConcrete: an aspect extending an abstract one defines its
// pointcuts; its per-clause is not declared (it may be inherited).
func TestAtAspectConcrete(t *testing.T) {
	a := mustReadAt(t, compileAt(t, "-g"), "at/ConcreteTracer")
	if a.Super != "at/AbstractTracer" || a.Abstract || a.Per != (AtPerClause{}) {
		t.Errorf("super %q, abstract %v, per %+v", a.Super, a.Abstract, a.Per)
	}
	if len(a.Pointcuts) != 2 || a.Pointcuts[0].Expr != "within(at..*)" || a.Pointcuts[0].Abstract ||
		a.Pointcuts[1].Expr != "this(o)" || a.Pointcuts[1].Params[0].Name != "o" {
		t.Errorf("pointcuts %+v", a.Pointcuts)
	}
}

// TestAtAspectPerClauses reads each per-clause.
func TestAtAspectPerClauses(t *testing.T) {
	classes := compileAt(t, "-g")
	for name, want := range map[string]AtPerClause{
		"at/PerThis":       {Kind: PerThis, Text: "execution(* at.Service.*(..))", Declared: true},
		"at/PerTarget":     {Kind: PerTarget, Text: "call(* at.Service.*(..))", Declared: true},
		"at/PerCflow":      {Kind: PerCflow, Text: "execution(* at.Main.main(..))", Declared: true},
		"at/PerCflowBelow": {Kind: PerCflowBelow, Text: "execution(* at.Main.main(..))", Declared: true},
		"at/PerType":       {Kind: PerTypeWithin, Text: "at..*", Declared: true},
		"at/Single":        {Kind: PerSingleton, Declared: true},
	} {
		a := mustReadAt(t, classes, name)
		if a.Per != want {
			t.Errorf("%s: per-clause %+v, want %+v", name, a.Per, want)
		}
		if len(a.Advice) != 1 || a.Advice[0].Expr != "execution(* at.Service.*(..))" {
			t.Errorf("%s: advice %+v", name, a.Advice)
		}
	}
}

// TestParsePerClause reads aop.xml's <concrete-aspect perclause>.
func TestParsePerClause(t *testing.T) {
	for text, want := range map[string]AtPerClause{
		"":                                    {},
		"singleton()":                         {Kind: PerSingleton, Declared: true},
		"perthis(execution(* a.B.*(..)))":     {Kind: PerThis, Text: "execution(* a.B.*(..))", Declared: true},
		" pertypewithin( a..* ) ":             {Kind: PerTypeWithin, Text: " a..* ", Declared: true},
		"percflowbelow(execution(* a.M.m()))": {Kind: PerCflowBelow, Text: "execution(* a.M.m())", Declared: true},
	} {
		got, err := ParsePerClause("a/X", text)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", text, got, err, want)
		}
	}
	for text, want := range map[string]string{
		"perobject(x)": "@Aspect per clause cannot be read 'perobject(x)'",
		"perthis()":    "@Aspect's perthis(...) is empty",
		"perthis(+)":   "aspect a.X: syntax error in @Aspect's perthis(...) at column 9",
	} {
		if _, err := ParsePerClause("a/X", text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", text, err, want)
		}
	}
}

// TestAtAspectNoNames: compiled without -g or -parameters, every method
// whose formals need names is an error in AspectJ's words, with a hint;
// the others are not.
func TestAtAspectNoNames(t *testing.T) {
	classes := compileAt(t)
	_, err := readAt(t, classes, "at/Tracing")
	var list AtAspectErrors
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want AtAspectErrors", err)
	}
	var members []string
	for _, e := range list {
		members = append(members, e.Member)
		if !strings.Contains(e.Msg, "Cannot read debug info for @Aspect to handle formal binding in pointcuts (please compile with 'javac -g'") {
			t.Errorf("message %q", e.Msg)
		}
		if !strings.Contains(e.Hint, "javac -g or -parameters") || !strings.Contains(e.Hint, "argNames") {
			t.Errorf("hint %q", e.Hint)
		}
		if e.Class != "at/Tracing" || e.File != "at/Tracing.java" || e.Line == 0 {
			t.Errorf("error without its place: %+v", e)
		}
	}
	sort.Strings(members)
	want := []string{"method around(ProceedingJoinPoint, int, Object)", "method before(JoinPoint, int, Object)",
		"method bigSize(int, JoinPoint)", "method middle(int, JoinPoint.StaticPart, Object)",
		"method returned(Object, JoinPoint.EnclosingStaticPart)", "method serviceCall(int, Object)",
		"method threw(JoinPoint, Throwable)"}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("errors on\n%s\nwant\n%s", strings.Join(members, "\n"), strings.Join(want, "\n"))
	}
	text := err.Error()
	if !strings.Contains(text, "at/Tracing.java:"+fmt.Sprint(lineOf(t, atTracingSrc, "void before("))+
		": aspect at.Tracing, method before(JoinPoint, int, Object): Cannot read debug info") {
		t.Errorf("error text:\n%s", text)
	}
	// Aspects whose formals need no names read as they do with -g.
	if a := mustReadAt(t, classes, "at/PerThis"); len(a.Advice) != 1 {
		t.Errorf("PerThis: %+v", a)
	}
}

// TestAtAspectErrors: each rejected construct gives one error naming the
// aspect, the member and what is wrong.
func TestAtAspectErrors(t *testing.T) {
	classes := compileAt(t, "-g")
	for _, tc := range []struct {
		class, member, msg string
	}{
		{"bad/ArgCount", "method b(int, int)", "argNames annotation value does not specify the right number of argument names for the method 'void b(int,int)'"},
		{"bad/Mixin", "method create()", "@DeclareMixin is not supported"},
		{"bad/DeclAnno", "", "@DeclareAnnotation is not supported"},
		{"bad/IfAdvice", "method b()", "if() pointcut is not allowed at this pointcut location"},
		{"bad/Returning", "method r(Object)", `returning="x" names no parameter of the advice`},
		{"bad/Static", "method b()", "@Before advice cannot be static"},
		{"bad/Pjp", "method b(ProceedingJoinPoint)", "use of ProceedingJoinPoint is allowed only on around advice"},
		{"bad/PerBad", "", "@Aspect per clause cannot be read 'perfoo(execution(* *(..)))'"},
		{"bad/Syntax", "method b()", "syntax error in @Before at column 27"},
	} {
		a, err := readAt(t, classes, tc.class)
		var list AtAspectErrors
		if a != nil || !errors.As(err, &list) || len(list) != 1 {
			t.Errorf("%s: got %v, %v; want one error", tc.class, a, err)
			continue
		}
		e := list[0]
		if e.Class != tc.class || e.Member != tc.member || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %q %q %q, want %q %q ...%q...", tc.class, e.Class, e.Member, e.Msg, tc.class, tc.member, tc.msg)
		}
		if !strings.Contains(e.Error(), "aspect "+strings.ReplaceAll(tc.class, "/", ".")) {
			t.Errorf("%s: error text does not name the aspect: %s", tc.class, e.Error())
		}
	}
}

// TestAtAspectSyntaxColumn: a syntax error in a pointcut string points at
// its column, under the string, as weft's errors point into a file.
func TestAtAspectSyntaxColumn(t *testing.T) {
	_, err := readAt(t, compileAt(t, "-g"), "bad/Syntax")
	var list AtAspectErrors
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("got %v", err)
	}
	text := "execution(* at..*(..)) && && within(at..*)"
	col := strings.Index(text, "&& &&") + len("&& ") + 1 // the second &&
	e := list[0]
	if e.Text != text || e.Column != col {
		t.Errorf("text %q column %d, want %q %d", e.Text, e.Column, text, col)
	}
	want := "\n    " + text + "\n    " + strings.Repeat(" ", col-1) + "^"
	where := fmt.Sprintf("bad/Syntax.java:%d: aspect bad.Syntax, method b(): ", lineOf(t, atSources["bad/Syntax.java"], "void b("))
	if !strings.Contains(e.Error(), want) || !strings.HasPrefix(e.Error(), where) {
		t.Errorf("error text:\n%s\nwant it to show%s", e.Error(), want)
	}
}

// TestAtAspectAllErrors: every error of a class is reported, in order.
func TestAtAspectAllErrors(t *testing.T) {
	_, err := readAt(t, compileAt(t, "-g"), "bad/Several")
	var list AtAspectErrors
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("got %v, want two errors", err)
	}
	if list[0].Member != "method one()" || !strings.Contains(list[0].Msg, "syntax error in @Before") ||
		list[1].Member != "method two()" || !strings.Contains(list[1].Msg, "adviceexecution() is not supported") {
		t.Errorf("errors:\n%v", err)
	}
	if !strings.HasSuffix(err.Error(), "(2 errors)") {
		t.Errorf("error text:\n%v", err)
	}
}

// TestAtAspectNotAnAspect: a class without @Aspect is no aspect and no
// error.
func TestAtAspectNotAnAspect(t *testing.T) {
	classes := compileAt(t, "-g")
	for _, name := range []string{"at/Service", "at/Tracing$Moody", "at/Tracing$MoodyImpl"} {
		if a, err := readAt(t, classes, name); a != nil || err != nil {
			t.Errorf("%s: got %+v, %v; want nil, nil", name, a, err)
		}
	}
}

// TestAtAspectAjc: a code-style aspect ajc compiled is rejected; an
// @Aspect class ajc wove after javac is read, marked AjcWoven; a plain
// class ajc wove is no aspect.
func TestAtAspectAjc(t *testing.T) {
	classes := compileAt(t, "-g")
	defer func() {
		a, err := ReadAtAspect(withAjcAttr(t, classes, "at/Tracing", "org.aspectj.weaver.WeaverVersion"))
		if err != nil || a == nil || !a.AjcWoven || len(a.Advice) == 0 {
			t.Errorf("at/Tracing woven by ajc: got %+v, %v; want it read, AjcWoven", a, err)
		}
		if a, _ := ReadAtAspect(withAjcAttr(t, classes, "at/Tracing", "Other")); a == nil || a.AjcWoven {
			t.Errorf("at/Tracing: AjcWoven without ajc's attributes")
		}
	}()
	withAttr := func(name, attr string) *classfile.Class { return withAjcAttr(t, classes, name, attr) }
	for _, tc := range []struct{ class, attr, msg string }{
		{"at/Service", "org.aspectj.weaver.Aspect", "compiled by ajc as a code-style aspect"},
		{"at/Service", "org.aspectj.weaver.WeaverVersion", ""},
	} {
		a, err := ReadAtAspect(withAttr(tc.class, tc.attr))
		switch {
		case tc.msg == "" && (a != nil || err != nil):
			t.Errorf("%s with %s: got %v, %v; want nil, nil", tc.class, tc.attr, a, err)
		case tc.msg != "" && (a != nil || err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "javac")):
			t.Errorf("%s with %s: got %v, %v; want an error: %s", tc.class, tc.attr, a, err, tc.msg)
		}
	}
}

// withAjcAttr is class name of classes with one more class attribute,
// named attr.
func withAjcAttr(t *testing.T, classes map[string][]byte, name, attr string) *classfile.Class {
	t.Helper()
	c, err := classfile.Parse(name, classes[name])
	if err != nil {
		t.Fatal(err)
	}
	c.Attributes = append(c.Attributes, classfile.Attribute{Name: c.Pool.AddUtf8(attr), Info: []byte{0, 1}})
	c, err = classfile.Parse(name, c.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAtAspectMutations runs FuzzReadAtAspect's check over the compiled
// classes with bytes changed throughout: no input makes ReadAtAspect panic
// or return an error without its place.
func TestAtAspectMutations(t *testing.T) {
	classes := compileAt(t, "-g")
	var names []string
	for name := range classes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b := classes[name]
		// A stride keeps the run short; the offsets differ by class.
		for i := len(name) % 5; i < len(b); i += 5 {
			for _, v := range []byte{b[i] ^ 0xFF, 0, b[i] + 1} {
				m := append([]byte(nil), b...)
				m[i] = v
				checkReadAtAspect(t, m)
			}
		}
	}
}

// checkReadAtAspect reads b, if it parses, and checks the result's shape.
func checkReadAtAspect(t *testing.T, b []byte) {
	c, err := classfile.Parse("", b)
	if err != nil {
		return
	}
	a, err := ReadAtAspect(c)
	if err == nil {
		return
	}
	var list AtAspectErrors
	if a != nil || !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("got %v, %v; want nil and AtAspectErrors", a, err)
	}
	for _, e := range list {
		if e.File == "" || e.Msg == "" || e.Column < 0 || e.Column > len(e.Text)+1 {
			t.Fatalf("error without its place: %+v", e)
		}
		_ = e.Error()
	}
}

// FuzzReadAtAspect: no class file makes ReadAtAspect panic, and its errors
// say where they are.
func FuzzReadAtAspect(f *testing.F) {
	for _, b := range compileAt(f, "-g") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkReadAtAspect(t, b) })
}
