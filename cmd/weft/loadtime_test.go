package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver/ltw"
)

// The load-time test program: app.Main (on the class path) loads
// plugin.Plugin from a jar that is not, through a URLClassLoader of its
// own, runs a lambda and a Proxy of a package-private interface (both
// classes the JVM generates), calls methods and constructors by reflection
// until the JDK generates accessor classes, and defines a corrupt class.
const (
	ltwMainSrc = `package app;
import java.io.File;
import java.lang.reflect.*;
import java.net.URL;
import java.net.URLClassLoader;
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
        URLClassLoader l = new URLClassLoader(new URL[]{new File(a[0]).toURI().toURL()}, Main.class.getClassLoader());
        Class<?> c = l.loadClass("plugin.Plugin");
        Object p = c.getConstructor().newInstance();
        System.out.println("plugin " + c.getMethod("work", int.class).invoke(p, 5));
        Supplier<String> s = () -> "lambda";
        System.out.println(s.get());
        Task t = (Task) Proxy.newProxyInstance(Main.class.getClassLoader(), new Class<?>[]{Task.class},
            (px, m, args) -> "proxy " + m.getName());
        System.out.println(t.go() + " " + t.getClass().getName().startsWith("app.$Proxy"));
        try {
            new ClassLoader(Main.class.getClassLoader()) {
                Class<?> bad() { return defineClass("Bad", new byte[]{(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe, 0, 0}, 0, 6); }
            }.bad();
        } catch (ClassFormatError e) {
            System.out.println("corrupt " + e.getClass().getName());
        }
    }
}
`
	ltwPluginSrc = `package plugin;
public class Plugin {
    public int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += step(i); return s; }
    int step(int i) { return 2 * i; }
}
`
	// ltwSeenSrc prints the declaring type of each join point it sees.
	ltwSeenSrc = `package ltwtest;
import weft.rt.JoinPointStaticPart;
public final class Seen {
    public static void exec(JoinPointStaticPart jp) {
        System.err.println("seen " + jp.getDeclaringTypeName() + "." + jp.getName());
    }
}
`
	// ltwWeft counts the plugin's method executions and shows the
	// executions in the application's generated classes.
	ltwWeft = `aspect Plugins {
    before(): execution(* plugin..*.*(..)) {
        count.Counter.hit(joinPointId);
    }
    before(): execution(* *(..)) && within(app..*) && !execution(* app.Main.*(..)) {
        ltwtest.Seen.exec(thisJoinPointStaticPart);
    }
    before(): execution(* *(..)) && within(jdk.internal.reflect.Generated*) {
        ltwtest.Seen.exec(thisJoinPointStaticPart);
    }
}
`
)

// TestRunLoadTime runs weft run (java.base woven ahead of time) on a
// program whose classes the JVM defines at run time, under -Xverify:all:
// the plugin's method executions are counted exactly (work once, step five
// times), the lambda proxy's and the Proxy class's executions reach the
// advice, the corrupt class fails as on a stock JVM and weft names it, and
// the output is the stock one. With --load-time=false nothing of it is
// advised.
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
	adv := jvmtest.Compile(t, map[string]string{"count/Counter.java": string(counter), "ltwtest/Seen.java": ltwSeenSrc}, "-cp", rtJar)
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": ltwMainSrc})
	pluginJar := filepath.Join(t.TempDir(), "plugin.jar")
	jvmtest.Jar(t, jvmtest.Compile(t, map[string]string{"plugin/Plugin.java": ltwPluginSrc}), pluginJar, "")
	aspect := writeFile(t, "plugins.weft", ltwWeft)
	report := filepath.Join(t.TempDir(), "ltw.json")
	env := []string{"WEFT_CACHE=" + t.TempDir()}

	want, _ := jvmtest.Run(t, "-cp", app, "app.Main", pluginJar)
	stdout, stderr, code := weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
		"--Xlint", "ignore", "--ltw-report", report, "--", jvmtest.Java(t), "-Xverify:all", "-cp", app, "app.Main", pluginJar)
	if code != 0 || stdout != want {
		t.Fatalf("exit %d, stdout %q, want %q; stderr:\n%s", code, stdout, want, stderr)
	}
	for _, w := range []string{
		"count: 6 hits at 2 join points\n", // work and step
		"seen app.Main$$Lambda$",           // the lambda proxy's get()
		"seen app.$Proxy",                  // the Proxy class's go()
		"weft: warning: Bad (normal class) left unwoven: Bad: ",
		"left unwoven: a reflection accessor the JDK generates",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	var sum ltw.Summary
	if b, err := os.ReadFile(report); err != nil {
		t.Error(err)
	} else if err := json.Unmarshal(b, &sum); err != nil || sum.Woven < 3 || sum.UnwovenCount < 1 {
		t.Errorf("report %s: %v", b, err)
	}
	t.Logf("%s", sum)

	// Without load-time weaving: nothing defined at run time is advised.
	stdout, stderr, code = weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
		"--Xlint", "ignore", "--load-time=false", "--", jvmtest.Java(t), "-cp", app, "app.Main", pluginJar)
	if code != 0 || stdout != want || strings.Contains(stderr, "count: 6 hits") ||
		strings.Contains(stderr, "seen app.Main$$Lambda$") || strings.Contains(stderr, "seen app.$Proxy") {
		t.Errorf("--load-time=false: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// runtimesWeft counts the executions of one function of a Clojure and of a
// JavaScript (Rhino) script: classes those runtimes compile as they run.
const runtimesWeft = `aspect Runtimes {
    before(): execution(* user$sq.invokeStatic(..)) {
        count.Counter.hit(joinPointId);
    }
    before(): execution(* org.mozilla.javascript.gen..*._c_sq_*(..)) {
        count.Counter.hit(joinPointId);
    }
}
`

// TestRunLanguageRuntimes runs a Clojure and a JavaScript script (Debian's
// clojure and rhino) whose function sq is compiled to a class while they
// run, called 10 times: weft run counts exactly 10 executions of it, and
// the scripts print what they print on a stock JVM.
func TestRunLanguageRuntimes(t *testing.T) {
	clojure, rhino := "/usr/share/java/clojure.jar", "/usr/share/java/js.jar"
	for _, jar := range []string{clojure, rhino} {
		if _, err := os.Stat(jar); err != nil {
			t.Fatalf("%v: install Debian's clojure and rhino (bash .ci/run does)", err)
		}
	}
	adv := countAdvice(t)
	aspect := writeFile(t, "runtimes.weft", runtimesWeft)
	clj := writeFile(t, "sq.clj", "(defn sq [x] (* x x))\n(println (reduce + (map sq (range 10))))\n")
	js := writeFile(t, "sq.js", "function sq(x) { return x * x; }\nvar s = 0;\nfor (var i = 0; i < 10; i++) s += sq(i);\nprint(s);\n")
	env := []string{"WEFT_CACHE=" + t.TempDir()} // one woven java.base for both
	for _, run := range [][]string{
		{"-cp", clojure, "clojure.main", clj},
		{"-cp", rhino, "org.mozilla.javascript.tools.shell.Main", "-opt", "9", js},
	} {
		want, _ := jvmtest.Run(t, run...)
		stdout, stderr, code := weft(t, env, append([]string{"run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
			"--Xlint", "ignore", "--", jvmtest.Java(t)}, run...)...)
		if code != 0 || stdout != want || want != "285\n" {
			t.Errorf("%s: exit %d, stdout %q, want %q; stderr:\n%s", run[2], code, stdout, want, stderr)
		}
		if !strings.Contains(stderr, "count: 10 hits at 1 join points\n") {
			t.Errorf("%s: the compiled function's 10 executions not counted:\n%s", run[2], stderr)
		}
	}
}
