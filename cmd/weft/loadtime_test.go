package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver/ltw"
)

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
        count.Counter.hit(joinPointId);
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
        count.Counter.hit(joinPointId);
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

// TestRunLoadTime runs weft run (java.base woven ahead of time) on a
// program whose classes the JVM defines at run time, under -Xverify:all:
// the plugin's method executions are counted exactly (work once, step five
// times, area and size once), the lambda proxy's and the Proxy class's
// executions reach the advice, around advice at a plugin method changes
// its argument and its result, a plugin class is matched through a
// superclass and an interface weft had not seen (it asks the JVM for them),
// thisJoinPoint reaches the advice from the lambda proxy (a hidden class),
// from the Proxy class of a public interface (in a dynamic module) and
// from the classes of two module layers the program makes (a lambda proxy
// of theirs included) exactly once a call, and no woven class is refused,
// the corrupt class fails as on a stock JVM and weft names it, the
// --weave-info file has the plugin's lines, and the output is the stock
// one. A second run gets every woven class from the cross-run cache and
// counts the same. The rest of the language reaches a plugin class
// (Gauge) at load time, each line of its advice counted exactly: set with
// args and target, get after returning inside a cflow, around at a get
// changing the value read, cflowbelow, a handler binding the exception,
// static initialization, (pre)initialization, if(), @annotation binding, a
// class-retention annotation, @this, @target, @args, within an annotated
// type and a parameter's annotation. weft serve serves two JVMs of it at once. A module-path
// application's executions are counted exactly. With --load-time=false
// nothing of it is advised.
func TestRunLoadTime(t *testing.T) {
	home := jvmtest.JavaHome(t)
	rt, err := rtjava.Build(home, "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, rt); err != nil {
		t.Fatal(err)
	}
	counter, err := os.ReadFile("../../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	adv := jvmtest.Compile(t, map[string]string{"count/Counter.java": string(counter), "ltwtest/Seen.java": ltwSeenSrc,
		"ltwtest/Tenfold.java": ltwTenfoldSrc, "ltwtest/Mark.java": ltwMarkSrc,
		"ltwtest/Quiet.java": ltwQuietSrc}, "-cp", rtJar)
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": ltwMainSrc, "app/Pick.java": ltwPickSrc})
	appJar := filepath.Join(t.TempDir(), "app.jar")
	jvmtest.Jar(t, app, appJar, "")
	jar := filepath.Join(t.TempDir(), "plugin.jar")
	jvmtest.Jar(t, jvmtest.Compile(t, map[string]string{"plugin/Plugin.java": ltwPluginSrc,
		"plugin/Scale.java": ltwScaleSrc, "plugin/Gauge.java": ltwGaugeSrc}, "-cp", adv), jar, "")
	// Square and its supertypes come from a directory, whose classes are
	// not woven ahead: weft asks the JVM for the supertypes.
	pluginJar := jar + string(os.PathListSeparator) + jvmtest.Compile(t, map[string]string{"plugin/Square.java": ltwShapesSrc})
	layer := jvmtest.CompileModules(t, ltwLayerSrcs)
	aspect := writeFile(t, "plugins.weft", ltwWeft)
	report := filepath.Join(t.TempDir(), "ltw.json")
	env := []string{newCache(t)}

	want, _ := jvmtest.Run(t, "-cp", app, "app.Main", pluginJar, layer)
	// Woven, scale(5) is 10 * scale(6), and Gauge.run reads its level
	// (3) doubled.
	woven := strings.Replace(strings.Replace(want, "scale 15\n", "scale 180\n", 1), "gauge 3 6 true 3\n", "gauge 3 6 true 6\n", 1)
	if woven == want || !strings.Contains(woven, "gauge 3 6 true 6\n") {
		t.Fatalf("the stock run printed no %q or %q:\n%s", "scale 15", "gauge 3 6 true 3", want)
	}
	info := filepath.Join(t.TempDir(), "info.txt")
	runLTW := func() (stderr string, sum ltw.Summary, lines []string) {
		t.Helper()
		stdout, stderr, code := weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
			"--Xlint", "ignore", "--ltw-report", report, "--weave-info", info,
			"--", jvmtest.Java(t), "-Xverify:all", "-cp", app, "app.Main", pluginJar, layer)
		if code != 0 || stdout != woven {
			t.Fatalf("exit %d, stdout %q, want %q; stderr:\n%s", code, stdout, woven, stderr)
		}
		if b, err := os.ReadFile(report); err != nil {
			t.Error(err)
		} else if err := json.Unmarshal(b, &sum); err != nil {
			t.Errorf("report %s: %v", b, err)
		}
		b, err := os.ReadFile(info)
		if err != nil {
			t.Fatal(err)
		}
		lines = strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(lines)
		return stderr, sum, lines
	}
	stderr, sum, lines := runLTW()
	advice := adviceLines(stderr)
	for _, w := range []string{
		ltwCount,                  // work, step, area, size, scale and Gauge's run, fill, drain, same
		"seen app.Main$$Lambda$",  // the lambda proxy's get()
		"seen app.$Proxy",         // the Proxy class's go()
		"seen plugin.Square.area", // through a supertype weft asked the JVM for
		"seen plugin.Square.size",
		"seen app.Pz.n", // in Pick.pick, whose frames merge Pz1 and Pz2
		"weft: warning: Bad (normal class) left unwoven: Bad: ",
		"left unwoven: a reflection accessor the JDK generates",
		// thisJoinPoint in a lambda proxy (a hidden class), the Proxy of
		// a public interface (dynamic module jdk.proxyN)
		"tjp app.Main$$Lambda$",
		".get hidden args 0\n",
		"tjp jdk.proxy",
		".run this args 0\n",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	// plugin.Gauge, counted by hand: each line of the advice (Seen.note)
	// as often as it must appear.
	for w, n := range map[string]int{
		"set 0": 1, "set 1": 1, "set 3": 1, // level += i for i < 3: set (args, target)
		"get in fill 0": 2, "get in fill 1": 1, "get in fill 3": 1, // level's gets in fill (cflow)
		"below run fill": 1, "below run drain": 2, "below run same": 1, // cflowbelow(execution(run()))
		`handler For input string: "x"`: 1,
		"kind staticinitialization":     1, "kind preinitialization": 1, "kind initialization": 1,
		"if 3":                  1, // if(big(n)) at fill(3)
		"@annotation fill fill": 1,
		"class-retention drain": 2, // @Quiet drain
		"@this gauge run":       1, "@this gauge fill": 1, "@this gauge drain": 2, "@this gauge same": 1,
		"@target fill": 1, "@target drain": 2, "@target same": 1, // calls on this in run()
		"@args gauge same": 1, // same(this)
		"parameter same":   1, // same(@Mark("p") Object o)
	} {
		if got := strings.Count(stderr, "ltw "+w+"\n"); got != n {
			t.Errorf("stderr has %d times %q, want %d", got, "ltw "+w, n)
		}
	}
	if n := strings.Count(stderr, "ltw "); n != 30 {
		t.Errorf("stderr has %d lines of Gauge's advice, want 30:\n%s", n, stderr)
	}
	// Two layers: each of their classes (a lambda proxy in ma included)
	// woven and reaching the advice once.
	for _, w := range []string{"tjp ma.A.run static args 0\n", "tjp mb.B.twice static args 1\n",
		"tjp ma.A.lambda$run$0 static args 1\n", ".applyAsInt hidden args 1\n"} {
		if n := strings.Count(stderr, w); n != 2 {
			t.Errorf("stderr has %d times %q, want 2:\n%s", n, w, stderr)
		}
	}
	if strings.Contains(stderr, "refused") {
		t.Errorf("the JVM refused a woven class:\n%s", stderr)
	}
	// From the cache already, at most: ma.A and mb.B again in the second
	// layer, if the cache's background writer has stored them by then.
	// Square's four supertypes are asked of the JVM, once each; Plugin's
	// superclass is read from its jar.
	if sum.Woven < 3 || sum.UnwovenCount < 1 || sum.FromCache > 2 || sum.Asked != 4 {
		t.Errorf("first run: %s, %d supertypes asked", sum, sum.Asked)
	}
	workInfo := "Join point 'method-execution(int plugin.Plugin.work(int))' in Type 'plugin.Plugin' (Plugin.java:3) advised by before advice from 'Plugins'"
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, workInfo) }) {
		t.Errorf("--weave-info lacks %q:\n%s", workInfo, strings.Join(lines, "\n"))
	}
	t.Logf("%s", sum)

	// Again: every class comes from the cross-run cache, woven the same.
	stderr, again, againLines := runLTW()
	if !strings.Contains(stderr, ltwCount) || again.Woven != 0 || again.FromCache != sum.Woven+sum.FromCache ||
		!slices.Equal(lines, againLines) {
		t.Errorf("second run: %s (first: %s), weave info the same: %v; stderr:\n%s", again, sum, slices.Equal(lines, againLines), stderr)
	}
	// ... answered in the JVM from the cache's index: no class from the
	// cache came by round trip.
	if again.InJVM == 0 || again.InJVM != again.FromCache+again.Unchanged {
		t.Errorf("second run: %d classes answered in the JVM, want every one from the cache (%d woven, %d unchanged); %d requests",
			again.InJVM, again.FromCache, again.Unchanged, again.Requests)
	}
	t.Logf("%s; %d requests", again, again.Requests)

	// A corrupt cache: every other record of its packs has a byte changed.
	// The JVM reads those records, finds their checksum wrong and asks
	// weft, which weaves them again: the same output, counts and weave info.
	corrupted := corruptPacks(t, env)
	stderr, third, thirdLines := runLTW()
	if !strings.Contains(stderr, ltwCount) || strings.Contains(stderr, "refused") ||
		third.Woven == 0 || third.InJVM == 0 || third.Woven+third.FromCache != sum.Woven+sum.FromCache || !slices.Equal(lines, thirdLines) {
		t.Errorf("corrupt cache (%d records changed): %s, %d in the JVM, weave info the same: %v; stderr:\n%s", corrupted, third,
			third.InJVM, slices.Equal(lines, thirdLines), stderr)
	}
	t.Logf("corrupt cache (%d records changed): %s", corrupted, third)

	serveTwoJVMs(t, env, aspect, adv, appJar, woven, advice, pluginJar, layer)

	// A module-path application (-p/-m): its classes, the lambda proxy in
	// its module included, are woven at load time.
	mods := t.TempDir()
	jvmtest.Jar(t, jvmtest.Compile(t, map[string]string{"module-info.java": "module app.mod {}\n", "appmod/Main.java": ltwModuleSrc}),
		filepath.Join(mods, "app-mod-1.0.jar"), "")
	stdout, stderr, code := weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
		"--Xlint", "ignore", "--", jvmtest.Java(t), "-Xverify:all", "-p", mods, "-m", "app.mod/appmod.Main")
	if code != 0 || stdout != "module 16 app.mod\n" || !strings.Contains(stderr, "count: 6 hits at 4 join points\n") {
		t.Errorf("module-path application: exit %d, stdout %q; stderr:\n%s", code, stdout, stderr)
	}

	// Without load-time weaving: nothing defined at run time is advised.
	stdout, stderr, code = weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
		"--Xlint", "ignore", "--load-time=false", "--", jvmtest.Java(t), "-cp", app, "app.Main", pluginJar, layer)
	if code != 0 || stdout != want || strings.Contains(stderr, "count: 14 hits") || strings.Contains(stderr, "ltw ") ||
		strings.Contains(stderr, "seen app.Main$$Lambda$") || strings.Contains(stderr, "seen app.$Proxy") || strings.Contains(stderr, "tjp ") {
		t.Errorf("--load-time=false: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// ltwCount is what count.Counter prints of the plugin's executions: work
// once, step five times, area, size and scale once, Gauge's run, fill and
// same once, drain twice.
const ltwCount = "count: 14 hits at 9 join points\n"

// corruptPacks changes a byte in the entry of every other record of the
// load-time cache's packs (weaver/ltw pack.go) in env's cache, and returns
// how many it changed.
func corruptPacks(t *testing.T, env []string) int {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(strings.TrimPrefix(env[0], "WEFT_CACHE="), "ltw-*", "*.pack"))
	const magic, head = len("weft-ltw-pack 1\n"), 4 + 4 + 32
	changed := 0
	for _, p := range packs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, off := 0, magic; off+head <= len(b); i++ {
			n := int(binary.BigEndian.Uint32(b[off:]))
			if i%2 == 0 && off+head+n <= len(b) {
				b[off+head+n/2] ^= 0x5a
				changed++
			}
			off += head + n
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return changed
}

// serveTwoJVMs runs weft serve (on the woven java.base of env's cache) and
// two JVMs of the load-time test program at once with java @DIR/weft.args,
// the application from a jar (appJar): each prints what weft run's JVM
// printed, stdout and the advice's lines (advice, adviceLines of weft
// run's), though nothing of it was woven before it started; on SIGTERM
// weft serve reports the classes of both, some of them answered in the
// JVMs from the answers woven ahead from the jars, and the supertypes of
// the jars' classes read from the jars, not asked of the JVMs.
func serveTwoJVMs(t *testing.T, env []string, aspect, adv, appJar, want string, advice []string, mainArgs ...string) {
	t.Helper()
	start := time.Now()
	dir := filepath.Join(t.TempDir(), "serve")
	report := filepath.Join(t.TempDir(), "serve.json")
	serve := exec.Command(os.Args[0], "serve", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--Xlint", "ignore",
		"--dir", dir, "--ltw-report", report)
	serve.Env = append(append(os.Environ(), asWeft+"=1"), env...)
	var serveErr bytes.Buffer
	serve.Stderr = &serveErr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer serve.Process.Kill()
	args := filepath.Join(dir, "weft.args")
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(args); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("weft serve wrote no %s:\n%s", args, serveErr.String())
		}
	}
	type out struct{ stdout, stderr string }
	outs := make([]out, 2)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := exec.Command(jvmtest.Java(t), append([]string{"@" + args, "-Xverify:all", "-cp", appJar, "app.Main"}, mainArgs...)...)
			var o, e bytes.Buffer
			c.Stdout, c.Stderr = &o, &e
			c.Run()
			outs[i] = out{o.String(), e.String()}
		}(i)
	}
	wg.Wait()
	for i, o := range outs {
		if got := adviceLines(o.stderr); o.stdout != want || !slices.Equal(got, advice) || strings.Contains(o.stderr, "refused") {
			t.Errorf("JVM %d under weft serve: stdout %q, want %q; advice's lines the same as under weft run: %v; stderr:\n%s",
				i, o.stdout, want, slices.Equal(got, advice), o.stderr)
		}
	}
	serve.Process.Signal(syscall.SIGTERM)
	if err := serve.Wait(); err != nil {
		t.Errorf("weft serve: %v\n%s", err, serveErr.String())
	}
	var sum ltw.Summary
	if b, err := os.ReadFile(report); err != nil {
		t.Error(err)
	} else if err := json.Unmarshal(b, &sum); err != nil || sum.Woven+sum.FromCache < 10 || sum.UnwovenCount < 2 || sum.Ahead == 0 {
		t.Errorf("weft serve's report %s: %v; want classes answered in the JVMs, woven ahead from the jars", b, err)
	} else if sum.Asked > 8 {
		// Only Square's four, from a directory, once per JVM at most: the
		// supertypes of the jars' classes are read from the jars.
		t.Errorf("weft serve asked the JVMs for %d supertypes, want at most 8", sum.Asked)
	}
	if !strings.Contains(serveErr.String(), "weft: load-time weaving: ") || !strings.Contains(serveErr.String(), " answered in the JVM, woven ahead") {
		t.Errorf("weft serve printed no summary, or one without the classes woven ahead:\n%s", serveErr.String())
	}
	t.Logf("weft serve, two JVMs: %s; %d supertypes asked (%v)", sum, sum.Asked, time.Since(start).Round(time.Millisecond))
}

// adviceLines are the lines the load-time test's advice prints in stderr,
// sorted, the names of classes the JVM generates without their numbers.
func adviceLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "seen ") || strings.HasPrefix(l, "tjp ") || strings.HasPrefix(l, "ltw ") || strings.HasPrefix(l, "count: ") {
			out = append(out, generatedNumbers.ReplaceAllString(l, "$1"))
		}
	}
	slices.Sort(out)
	return out
}

// generatedNumbers matches the numbers in the names of lambda proxies and
// Proxy classes and their modules.
var generatedNumbers = regexp.MustCompile(`(\$\$Lambda\$|\$Proxy|jdk\.proxy)[0-9]+(/0x[0-9a-f]+)?`)
