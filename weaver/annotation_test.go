package weaver

import (
	"testing"
	"time"
)

// annotSources are the annotation types (Quiet has class retention) and
// a program using them.
var annotSources = map[string]string{
	"app/Timed.java": "package app; import java.lang.annotation.*;\n" +
		"@Retention(RetentionPolicy.RUNTIME) public @interface Timed { String value() default \"\"; int ms() default 0; }",
	"app/Marked.java": "package app; import java.lang.annotation.*;\n" +
		"@Retention(RetentionPolicy.RUNTIME) @Inherited public @interface Marked { String value(); }",
	"app/Quiet.java":   "package app; public @interface Quiet {}",
	"app/NotNull.java": "package app; import java.lang.annotation.*; @Retention(RetentionPolicy.RUNTIME) public @interface NotNull {}",
	"app/Main.java":    annotMain,
}

const annotMain = `package app;
@Marked("main") public class Main {
    @Timed(value = "run", ms = 5) public int run(int n) { return n + 1; }
    @Quiet public void quiet() {}
    @Timed("ctor") public Main() {}
    public Main(int x) {}
    @Timed("field") int f;
    public void take(@NotNull String s, String t) {}
    static void use(Object o) {}
    static class Sub extends Main { public int run(int n) { return n; } }
    public static void main(String[] args) {
        Main m = new Main();
        m.run(1);
        m.run(2);
        m.quiet();
        m.f = 3;
        m.take("a", "b");
        Sub s = new Sub();
        s.run(3);
        ((Main) s).run(4);
        use(m);
        use("x");
        new Main(1);
    }
}
`

const annotAdvice = `package adv;
import weft.rt.JoinPointStaticPart;
public class A {
    public static void timed(app.Timed t, JoinPointStaticPart jp) { System.out.println("timed " + t.value() + " " + t.ms() + " " + jp); }
    public static void marked(app.Marked m, JoinPointStaticPart jp) { System.out.println("marked " + m.value() + " " + jp); }
    public static void at(String what, JoinPointStaticPart jp) { System.out.println(what + " " + jp); }
    public static void quiet(JoinPointStaticPart jp) { at("quiet", jp); }
    public static void notNull(JoinPointStaticPart jp) { at("notNull", jp); }
    public static void within(JoinPointStaticPart jp) { at("within", jp); }
    public static void args(JoinPointStaticPart jp) { at("args", jp); }
    public static void target(JoinPointStaticPart jp) { at("target", jp); }
}
`

// Annotation patterns and designators at run time: bound annotations carry
// their values (@annotation at executions, calls through a subclass, field
// sets and constructors; @this through an @Inherited annotation), a
// class-retention annotation matches statically, and the run-time tests of
// @this, @target and @args select exactly the values whose class has it.
func TestAnnotationsRun(t *testing.T) {
	t.Parallel() // see jdkOnce
	start := time.Now()
	aspect := `aspect Annots {
    before(app.Timed t): execution(* *(..)) && @annotation(t) { adv.A.timed(t, thisJoinPointStaticPart); }
    before(app.Timed t): call(* *(..)) && @annotation(t) { adv.A.timed(t, thisJoinPointStaticPart); }
    before(app.Timed t): (set(* *) || execution(new(..))) && @annotation(t) { adv.A.timed(t, thisJoinPointStaticPart); }
    before(): execution(@app.Quiet * *(..)) { adv.A.quiet(thisJoinPointStaticPart); }
    before(app.Marked m): execution(* *(..)) && @this(m) { adv.A.marked(m, thisJoinPointStaticPart); }
    before(): execution(* *(@app.NotNull (*), ..)) { adv.A.notNull(thisJoinPointStaticPart); }
    before(): within(@app.Marked *) && execution(* *(..)) && !execution(* main(..)) { adv.A.within(thisJoinPointStaticPart); }
    before(): call(* *(..)) && @args(app.Marked) { adv.A.args(thisJoinPointStaticPart); }
    before(): call(* run(..)) && @target(app.Marked) { adv.A.target(thisJoinPointStaticPart); }
}`
	out, _ := weaveAspect(t, withFile(annotSources, "adv/A.java", annotAdvice), aspect, "app.Main")
	want := `timed ctor 0 constructor-execution(void app.Main.<init>())
timed run 5 method-call(int app.Main.run(int))
target method-call(int app.Main.run(int))
timed run 5 method-execution(int app.Main.run(int))
marked main method-execution(int app.Main.run(int))
within method-execution(int app.Main.run(int))
timed run 5 method-call(int app.Main.run(int))
target method-call(int app.Main.run(int))
timed run 5 method-execution(int app.Main.run(int))
marked main method-execution(int app.Main.run(int))
within method-execution(int app.Main.run(int))
quiet method-execution(void app.Main.quiet())
marked main method-execution(void app.Main.quiet())
within method-execution(void app.Main.quiet())
timed field 0 field-set(int app.Main.f)
marked main method-execution(void app.Main.take(java.lang.String, java.lang.String))
notNull method-execution(void app.Main.take(java.lang.String, java.lang.String))
within method-execution(void app.Main.take(java.lang.String, java.lang.String))
timed ctor 0 constructor-execution(void app.Main.<init>())
target method-call(int app.Main$Sub.run(int))
marked main method-execution(int app.Main$Sub.run(int))
within method-execution(int app.Main$Sub.run(int))
timed run 5 method-call(int app.Main.run(int))
target method-call(int app.Main.run(int))
marked main method-execution(int app.Main$Sub.run(int))
within method-execution(int app.Main$Sub.run(int))
args method-call(void app.Main.use(java.lang.Object))
within method-execution(void app.Main.use(java.lang.Object))
within method-execution(void app.Main.use(java.lang.Object))
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	t.Logf("wall %v", time.Since(start))
}

// withFile returns a copy of sources with one more file.
func withFile(sources map[string]string, name, text string) map[string]string {
	out := map[string]string{name: text}
	for k, v := range sources {
		out[k] = v
	}
	return out
}
