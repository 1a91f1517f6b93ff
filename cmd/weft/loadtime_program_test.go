package main

// The Java sources of TestRunLoadTime's program (loadtime_test.go).

// The load-time test program: app.Main (on the class path) loads
// plugin.Plugin from a jar that is not, through a URLClassLoader of its
// own, runs a lambda, a Proxy of a package-private interface and one of a
// public interface (in a dynamic module jdk.proxyN: classes the JVM
// generates), calls methods and constructors by reflection until the JDK
// generates accessor classes, and defines a corrupt class. Then it makes two
// module layers of modules ma and mb (ltwLayerSrcs, compiled into the
// directory given as its second argument), one loader for both, then one
// each, and calls ma.A.run in each. plugin.Scale's scale(5) is 15 unwoven,
// 180 with ltwWeft's around advice.
const (
	ltwMainSrc = `package app;
import java.io.File;
import java.lang.module.*;
import java.lang.reflect.*;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Supplier;
public class Main {
    interface Task { String go(); }
    static int noop() { return 1; }
    public static void main(String[] a) throws Exception {
        // Past 15 reflective calls the JDK generates accessor classes
        // (jdk.internal.reflect.Generated*) in throwaway loaders.
        int r = 0;
        Method nm = Main.class.getDeclaredMethod("noop");
        for (int i = 0; i < 40; i++) r += (Integer) nm.invoke(null) + (Main.class.getDeclaredConstructor().newInstance() != null ? 1 : 0);
        System.out.println("reflection " + r);
        // a[0]: the plugin jar, then a directory (path separated).
        String[] ps = a[0].split(File.pathSeparator);
        URL[] urls = new URL[ps.length];
        for (int i = 0; i < ps.length; i++) urls[i] = new File(ps[i]).toURI().toURL();
        URLClassLoader l = new URLClassLoader(urls, Main.class.getClassLoader());
        Class<?> c = l.loadClass("plugin.Plugin");
        Object p = c.getConstructor().newInstance();
        System.out.println("plugin " + c.getMethod("work", int.class).invoke(p, 5));
        // Square's superclass and interface are defined after it.
        Object sq = l.loadClass("plugin.Square").getConstructor().newInstance();
        System.out.println("square " + sq.getClass().getMethod("area").invoke(sq) + " " + sq.getClass().getMethod("size").invoke(sq));
        Object sc = l.loadClass("plugin.Scale").getConstructor().newInstance();
        System.out.println("scale " + sc.getClass().getMethod("scale", int.class).invoke(sc, 5));
        Object g = l.loadClass("plugin.Gauge").getConstructor().newInstance();
        System.out.println(g.getClass().getMethod("run").invoke(g));
        System.out.println("pick " + Pick.pick(true) + Pick.pick(false));
        Supplier<String> s = () -> "lambda";
        System.out.println(s.get());
        Task t = (Task) Proxy.newProxyInstance(Main.class.getClassLoader(), new Class<?>[]{Task.class},
            (px, m, args) -> "proxy " + m.getName());
        System.out.println(t.go() + " " + t.getClass().getName().startsWith("app.$Proxy"));
        Runnable pr = (Runnable) Proxy.newProxyInstance(Main.class.getClassLoader(), new Class<?>[]{Runnable.class},
            (px, m, args) -> { System.out.println("public proxy " + m.getName()); return null; });
        pr.run();
        System.out.println(pr.getClass().getModule().getName().startsWith("jdk.proxy"));
        try {
            new ClassLoader(Main.class.getClassLoader()) {
                Class<?> bad() { return defineClass("Bad", new byte[]{(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe, 0, 0}, 0, 6); }
            }.bad();
        } catch (ClassFormatError e) {
            System.out.println("corrupt " + e.getClass().getName());
        }
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolve(ModuleFinder.of(Path.of(a[1])), ModuleFinder.of(), Set.of("ma"));
        for (ModuleLayer ml : new ModuleLayer[]{boot.defineModulesWithOneLoader(cf, Main.class.getClassLoader()),
                boot.defineModulesWithManyLoaders(cf, Main.class.getClassLoader())}) {
            System.out.println(ml.findLoader("ma").loadClass("ma.A").getMethod("run").invoke(null));
        }
    }
}
`
	// ltwPickSrc merges two of the application's types (Pz1 and Pz2 into
	// Pz) in a method whose frames weaving computes again (a call advised
	// in it): the types must be known when it is woven, before the JVM
	// defines them (on the class path for weft run, in the application's
	// jar for weft serve).
	ltwPickSrc = `package app;
public class Pick {
    public static int pick(boolean f) { Pz p = f ? new Pz1() : new Pz2(); return p.n(); }
}
abstract class Pz { abstract int n(); }
class Pz1 extends Pz { int n() { return 1; } }
class Pz2 extends Pz { int n() { return 2; } }
`
	// Plugin's superclass is in its jar, which weft learns as the JVM
	// sends Plugin: it is not asked of the JVM.
	ltwPluginSrc = `package plugin;
public class Plugin extends Base {
    public int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += step(i); return s; }
    int step(int i) { return 2 * i; }
}
abstract class Base {}
`
	ltwScaleSrc = `package plugin;
public class Scale {
    public int scale(int x) { return 3 * x; }
}
`
	// ltwGaugeSrc is a plugin class for the rest of the language at load
	// time: annotated (Mark at run time, Quiet in the class file only), with
	// an instance field read and written, a catch block and constructors.
	ltwGaugeSrc = `package plugin;
import ltwtest.Mark;
import ltwtest.Quiet;
@Mark("gauge")
public class Gauge {
    int level;
    public String run() {
        int a = fill(3);
        int b = drain("x") + drain("7");
        return "gauge " + a + " " + b + " " + same(this) + " " + level;
    }
    @Mark("fill") int fill(int n) {
        for (int i = 0; i < n; i++) level += i;
        return level;
    }
    @Quiet int drain(String s) {
        try { return Integer.parseInt(s); } catch (NumberFormatException e) { return -1; }
    }
    boolean same(@Mark("p") Object o) { return o == this; }
}
`
	// ltwMarkSrc are the annotation types of ltwGaugeSrc, with the advice
	// (on the boot class path, so the plugin's loader sees them).
	ltwMarkSrc = `package ltwtest;
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
public @interface Mark { String value(); }
`
	ltwQuietSrc = `package ltwtest;
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface Quiet {}
`
	// ltwTenfoldSrc is around advice that proceeds with a new argument and
	// changes the result.
	ltwTenfoldSrc = `package ltwtest;
import weft.rt.Proceed;
public final class Tenfold {
    public static int run(Proceed p, int x) throws Throwable {
        return 10 * (Integer) p.proceed(x + 1);
    }
}
`
	// ltwShapesSrc: a plugin class whose supertypes, and theirs, weft has
	// not seen when the JVM sends it (the JVM loads them after).
	ltwShapesSrc = `package plugin;
public class Square extends Shape implements Sized {
    public int area() { return 4; }
    public int size() { return 2; }
}
abstract class Shape extends Figure {}
abstract class Figure { public abstract int area(); }
interface Sized extends Measurable {}
interface Measurable { int size(); }
`
	// ltwModuleSrc is a module-path application: module app.mod, main
	// class appmod.Main (main once, step three times, the lambda's body and
	// its proxy's getAsInt once each: 6 executions at 4 join points).
	ltwModuleSrc = `package appmod;
public class Main {
    public static void main(String[] a) {
        int s = 0;
        for (int i = 0; i < 3; i++) s += step(i);
        java.util.function.IntSupplier f = () -> 10;
        System.out.println("module " + (s + f.getAsInt()) + " " + Main.class.getModule().getName());
    }
    static int step(int i) { return i + 1; }
}
`
	// ltwSeenSrc prints the declaring type of each join point it sees;
	// with thisJoinPoint, also whether this is static, hidden or another
	// object, and the count of arguments.
	ltwSeenSrc = `package ltwtest;
import weft.rt.JoinPoint;
import weft.rt.JoinPointStaticPart;
public final class Seen {
    public static void exec(JoinPointStaticPart jp) {
        System.err.println("seen " + jp.getDeclaringTypeName() + "." + jp.getName());
    }
    // note prints what advice of the plugin's Gauge saw: "ltw WHAT VALUE".
    static void note(String what, Object v) { System.err.println("ltw " + what + " " + v); }
    public static void set(int v, Object target) { note("set", v + (target.getClass().getName().equals("plugin.Gauge") ? "" : " ?")); }
    public static void getInFill(int v) { note("get in fill", v); }
    public static void belowRun(JoinPointStaticPart jp) { note("below run", jp.getName()); }
    public static void caught(NumberFormatException e) { note("handler", e.getMessage()); }
    public static void kind(JoinPointStaticPart jp) { note("kind", jp.getKind()); }
    public static boolean big(int n) { return n > 2; }
    public static void ifBig(int n) { note("if", n); }
    public static void annotation(Mark m, JoinPointStaticPart jp) { note("@annotation", m.value() + " " + jp.getName()); }
    public static void quiet(JoinPointStaticPart jp) { note("class-retention", jp.getName()); }
    public static void atThis(Mark m, JoinPointStaticPart jp) { note("@this", m.value() + " " + jp.getName()); }
    public static void atTarget(JoinPointStaticPart jp) { note("@target", jp.getName()); }
    public static void atArgs(Mark m, JoinPointStaticPart jp) { note("@args", m.value() + " " + jp.getName()); }
    public static void parameter(JoinPointStaticPart jp) { note("parameter", jp.getName()); }
    public static int doubled(weft.rt.Proceed p) throws Throwable { return 2 * (Integer) p.proceed(); }
    public static void tjp(JoinPoint jp) {
        Object o = jp.getThis();
        System.err.println("tjp " + jp.getStaticPart().getDeclaringTypeName() + "." + jp.getSignature().getName()
            + (o == null ? " static" : o.getClass().isHidden() ? " hidden" : " this") + " args " + jp.getArgs().length);
    }
}
`
	// ltwWeft counts the plugin's method executions, shows the executions
	// in the application's generated classes, with thisJoinPoint those of
	// its Supplier lambda, of the Proxy of a public interface and of the
	// layers' modules, and runs Scale's scale(x) as 10 * scale(x + 1).
	ltwWeft = `aspect Plugins {
    before(): execution(* get()) && within(app..*) {
        ltwtest.Seen.tjp(thisJoinPoint);
    }
    before(): execution(* *(..)) && (within(ma..*) || within(mb..*) || within(jdk.proxy*..*)) {
        ltwtest.Seen.tjp(thisJoinPoint);
    }
    before(): execution(* plugin..*.*(..)) {
        weft.tools.count.Counter.hit(joinPointId);
    }
    int around(int x): execution(int plugin.Scale.scale(int)) && args(x) {
        ltwtest.Tenfold.run(proceed, x);
    }
    before(): execution(* *(..)) && within(app..*) && !execution(* app.Main.*(..)) {
        ltwtest.Seen.exec(thisJoinPointStaticPart);
    }
    before(): execution(* *(..)) && within(jdk.internal.reflect.Generated*) {
        ltwtest.Seen.exec(thisJoinPointStaticPart);
    }
    before(): execution(* appmod..*.*(..)) {
        weft.tools.count.Counter.hit(joinPointId);
    }
    before(): call(int app.Pz.n()) && within(app.Pick) {
        ltwtest.Seen.exec(thisJoinPointStaticPart);
    }
    before(): execution(* plugin.Figure+.area()) || execution(* plugin.Measurable+.size()) {
        ltwtest.Seen.exec(thisJoinPointStaticPart);
    }
    before(int v, Object g): set(int plugin.Gauge.level) && args(v) && target(g) {
        ltwtest.Seen.set(v, g);
    }
    after() returning(int v): get(int plugin.Gauge.level) && cflow(execution(* plugin.Gauge.fill(int))) {
        ltwtest.Seen.getInFill(v);
    }
    int around(): get(int plugin.Gauge.level) && withincode(* plugin.Gauge.run()) {
        ltwtest.Seen.doubled(proceed);
    }
    before(): execution(* *(..)) && cflowbelow(execution(* plugin.Gauge.run())) && within(plugin..*) {
        ltwtest.Seen.belowRun(thisJoinPointStaticPart);
    }
    before(NumberFormatException e): handler(NumberFormatException) && args(e) && within(plugin..*) {
        ltwtest.Seen.caught(e);
    }
    before(): staticinitialization(plugin.Gauge) || preinitialization(plugin.Gauge.new()) || initialization(plugin.Gauge.new()) {
        ltwtest.Seen.kind(thisJoinPointStaticPart);
    }
    before(int n): execution(* plugin.Gauge.fill(int)) && args(n) && if(ltwtest.Seen.big(n)) {
        ltwtest.Seen.ifBig(n);
    }
    before(ltwtest.Mark m): execution(* *(..)) && @annotation(m) && within(plugin..*) {
        ltwtest.Seen.annotation(m, thisJoinPointStaticPart);
    }
    before(): execution(@ltwtest.Quiet * *(..)) {
        ltwtest.Seen.quiet(thisJoinPointStaticPart);
    }
    before(ltwtest.Mark m): execution(* *(..)) && within(@ltwtest.Mark plugin.*) && @this(m) {
        ltwtest.Seen.atThis(m, thisJoinPointStaticPart);
    }
    before(): call(* *(..)) && @target(ltwtest.Mark) && within(plugin..*) {
        ltwtest.Seen.atTarget(thisJoinPointStaticPart);
    }
    before(ltwtest.Mark m): call(* *(..)) && @args(m) && within(plugin..*) {
        ltwtest.Seen.atArgs(m, thisJoinPointStaticPart);
    }
    before(): execution(* plugin..*.*(@ltwtest.Mark (*))) {
        ltwtest.Seen.parameter(thisJoinPointStaticPart);
    }
}
`
)

// ltwLayerSrcs are modules mb and ma (with a lambda), which reads mb, by
// their paths under a module source path.
var ltwLayerSrcs = map[string]string{
	"mb/module-info.java": "module mb { exports mb; }\n",
	"mb/mb/B.java":        "package mb;\npublic class B { public static int twice(int i) { return 2 * i; } }\n",
	"ma/module-info.java": "module ma { exports ma; requires mb; }\n",
	"ma/ma/A.java": `package ma;
public class A {
    public static String run() {
        java.util.function.IntUnaryOperator f = x -> x + 1;
        return "layer " + mb.B.twice(f.applyAsInt(1)) + " " + A.class.getModule().getName();
    }
}
`,
}
