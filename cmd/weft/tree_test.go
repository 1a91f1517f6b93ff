package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// The process tree's programs: Parent starts Child in a JVM of its own
// from java.home, as Ant's <java fork> and Maven's surefire do; Child
// calls probeSq 10 times.
const (
	treeParentSrc = `import java.io.File;
public class Parent {
    public static void main(String[] a) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "Child").inheritIO().start();
        System.out.println("parent: child exited " + p.waitFor());
    }
}
`
	treeChildSrc = `public class Child {
    static int probeSq(int i) { return i * i; }
    public static void main(String[] a) {
        int s = 0;
        for (int i = 0; i < 10; i++) s += probeSq(i);
        System.out.println("child " + s);
    }
}
`
	// treeWeft counts Child.probeSq's executions: "count: 10 hits at 1
	// join points" from each JVM that ran it woven.
	treeWeft = `aspect Tree {
    before(): execution(* Child.probeSq(..)) {
        weft.tools.count.Counter.hitNamed(thisJoinPointStaticPart);
    }
}
`
	treeCounted = "count: 10 hits at 1 join points\n"
)

// TestRunProcessTree runs weft run on commands that start JVMs: a JVM the
// program forks from java.home, a shell script starting two (found on
// PATH and through JAVA_HOME), Ant's <java fork> under Debian's ant
// script. Every JVM on the JDK woven runs on the woven runtime image with
// the run's load-time weaving, so each counts its probe exactly. A JVM
// found through a JAVA_HOME that names another JDK runs stock, and
// --patches is refused for a command that is not a launcher of the JDK.
func TestRunProcessTree(t *testing.T) {
	adv := countAdvice(t)
	classes := jvmtest.Compile(t, map[string]string{"Parent.java": treeParentSrc, "Child.java": treeChildSrc})
	aspect := writeFile(t, "tree.weft", treeWeft)
	home := jvmtest.JavaHome(t)
	path := "PATH=" + filepath.Join(home, "bin") + string(filepath.ListSeparator) + os.Getenv("PATH")
	env := []string{newCache(t), path}
	run := func(env []string, args ...string) (string, string, int) {
		t.Helper()
		return weft(t, env, append([]string{"run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--"}, args...)...)
	}

	// A JVM the program forks from java.home.
	stdout, stderr, code := run(env, jvmtest.Java(t), "-cp", classes, "Parent")
	if code != 0 || stdout != "child 285\nparent: child exited 0\n" || strings.Count(stderr, treeCounted) != 1 {
		t.Errorf("java Parent: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}

	// A shell script: java on PATH, and through JAVA_HOME.
	script := "java -cp " + classes + " Child && \"$JAVA_HOME/bin/java\" -cp " + classes + " Child"
	stdout, stderr, code = run(append(env, "JAVA_HOME="+home), "sh", "-c", script)
	if code != 0 || stdout != "child 285\nchild 285\n" || strings.Count(stderr, treeCounted) != 2 {
		t.Errorf("sh -c %q: exit %d, stdout %q, stderr:\n%s", script, code, stdout, stderr)
	}
	// JAVA_HOME naming another JDK (a copy of the launcher's home would
	// do; a missing one is enough to tell): left as it is.
	other := t.TempDir()
	stdout, stderr, code = run(append(env, "JAVA_HOME="+other), "sh", "-c", "echo $JAVA_HOME")
	if code != 0 || stdout != other+"\n" {
		t.Errorf("JAVA_HOME of another JDK: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}

	// Ant's <java fork="true">, Ant started by its script.
	needFiles(t, "ant", "/usr/bin/ant")
	build := writeFile(t, "build.xml", `<project default="run"><target name="run">
  <java classname="Child" classpath="`+classes+`" fork="true" failonerror="true"/>
</target></project>`)
	stdout, stderr, code = run(env, "ant", "-f", build)
	if code != 0 || !strings.Contains(stdout, "[java] child 285\n") || strings.Count(stdout+stderr, "count: 10 hits at 1 join points") != 1 {
		t.Errorf("ant <java fork>: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}

	// The patches cannot reach a script's JVMs.
	_, stderr, code = weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches", "--", "sh", "-c", "true")
	if code == 0 || !strings.Contains(stderr, "sh is not a launcher of a JDK") {
		t.Errorf("--patches with sh: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestProfileMaven profiles `mvn -q test` of a small project
// (testdata/tree/mvn: JUnit 4, surefire forking its test JVM): the profile
// of the test JVM, named by its main jar and pid under jvms/, has the
// test's calls of probeSq, exactly 10. Maven's artifacts are resolved
// once, by the stock run, into $WEFT_TEST_M2 (default: the user cache
// directory's weft-test/m2); weft's runs are offline.
func TestProfileMaven(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Fatalf("%v: install Debian's maven (bash .ci/run does)", err)
	}
	m2 := testM2(t)
	project := t.TempDir()
	if err := os.CopyFS(project, os.DirFS("testdata/tree/mvn")); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + filepath.Join(jvmtest.JavaHome(t), "bin") + string(filepath.ListSeparator) + os.Getenv("PATH")
	mvn := func(offline bool) []string {
		args := []string{"mvn", "-q", "-B", "-Dmaven.repo.local=" + m2, "test"}
		if offline {
			args = append(args, "-o")
		}
		return args
	}

	// Stock, online the first time: the artifacts into m2.
	c := exec.Command(mvn(false)[0], mvn(false)[1:]...)
	c.Dir, c.Env = project, append(os.Environ(), path)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("stock mvn test: %v\n%s", err, out)
	}

	out := filepath.Join(t.TempDir(), "prof")
	args := append(append([]string{"profile", "--no-time"}, smallProfile...), "--write-folded", "-o", out, "--")
	c = exec.Command(os.Args[0], append(args, mvn(true)...)...)
	c.Dir, c.Env = project, append(os.Environ(), asWeft+"=1", sharedCache(t), path)
	stderr, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("weft profile -- mvn test: %v\n%s", err, stderr)
	}
	dirs, _ := filepath.Glob(filepath.Join(out, "jvms", "surefirebooter*"))
	if len(dirs) != 1 || !strings.Contains(string(stderr), "weft: profile in "+dirs[0]) {
		t.Fatalf("surefire's JVM's profile: %q, stderr:\n%s", dirs, stderr)
	}
	if n := at(readMetric(t, dirs[0], "calls"), "demo.SqTest.sum;demo.Sq.probeSq"); n != 10 {
		t.Errorf("demo.Sq.probeSq counted %d times under demo.SqTest.sum in the test JVM, want 10", n)
	}
}

// isoMainSrc loads Child (from the directory args[0]) in a loader that
// delegates java.* only, as a child-first plugin loader or Ant's isolated
// one, and runs it.
const isoMainSrc = `import java.nio.file.*;
public class IsoMain {
    static class Isolated extends ClassLoader {
        final Path dir;
        Isolated(Path dir) { super(null); this.dir = dir; }
        @Override protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) return c;
                if (name.startsWith("java.")) return ClassLoader.getPlatformClassLoader().loadClass(name);
                return findClass(name);
            }
        }
        @Override protected Class<?> findClass(String name) throws ClassNotFoundException {
            try {
                byte[] b = Files.readAllBytes(dir.resolve(name.replace('.', '/') + ".class"));
                return defineClass(name, b, 0, b.length);
            } catch (java.io.IOException e) { throw new ClassNotFoundException(name); }
        }
    }
    public static void main(String[] a) throws Exception {
        Class<?> c = new Isolated(Path.of(a[0])).loadClass("Child");
        c.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    }
}
`

// isoChildSrc calls probeSq through a lambda, whose class is a hidden class
// of Child's loader.
const isoChildSrc = `public class Child {
    static int probeSq(int i) { return i * i; }
    public static void main(String[] a) {
        java.util.function.IntUnaryOperator f = i -> probeSq(i);
        int s = 0;
        for (int i = 0; i < 10; i++) s += f.applyAsInt(i);
        System.out.println("child " + s);
    }
}
`

// TestRunIsolatedLoader runs a program whose Child is defined by a loader
// that delegates java.* only, so cannot see weft's runtime nor the advice:
// Child and its lambda's hidden class are bridged, probeSq's and the
// lambda's executions counted exactly, under -Xverify:all. Around advice,
// whose closure is a class of weft's, cannot be bridged: Child is then
// left unwoven with the reason, and runs as stock.
func TestRunIsolatedLoader(t *testing.T) {
	adv := countAdvice(t)
	main := jvmtest.Compile(t, map[string]string{"IsoMain.java": isoMainSrc})
	plugin := jvmtest.Compile(t, map[string]string{"Child.java": isoChildSrc})
	env := []string{newCache(t)}
	run := func(aspect string) (string, string, int) {
		t.Helper()
		report := filepath.Join(t.TempDir(), "ltw.json")
		return weft(t, env, "run", "-a", writeFile(t, "a.weft", aspect), "--advice-cp", adv, "--modules", "java.base", "--patches",
			"--ltw-report", report, "--", jvmtest.Java(t), "-Xverify:all", "-cp", main, "IsoMain", plugin)
	}
	stdout, stderr, code := run(`aspect Lambda {
    before(): execution(* Child.probeSq(..)) || execution(int *.applyAsInt(int)) {
        weft.tools.count.Counter.hit(joinPointId);
    }
}
`)
	if code != 0 || stdout != "child 285\n" || !strings.Contains(stderr, "count: 20 hits at 2 join points\n") || !strings.Contains(stderr, ", 2 bridged (") {
		t.Errorf("bridged: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	// The around advice's class beside the counter's.
	src := map[string]string{"iso/Twice.java": `package iso;
public class Twice { public static int of(weft.rt.Proceed p) throws Throwable { return 2 * (Integer) p.proceed(); } }
`}
	for k, v := range rtjava.Sources() {
		src[k] = string(v)
	}
	class, err := os.ReadFile(filepath.Join(jvmtest.Compile(t, src), "iso", "Twice.class"))
	if err != nil {
		t.Fatal(err)
	}
	twice := t.TempDir() // the class alone: the runtime is java.base's
	if err := os.Mkdir(filepath.Join(twice, "iso"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(twice, "iso", "Twice.class"), class, 0o644); err != nil {
		t.Fatal(err)
	}
	adv += string(filepath.ListSeparator) + twice
	stdout, stderr, code = run("aspect Around {\n    int around(): execution(* Child.probeSq(..)) {\n        iso.Twice.of(proceed);\n    }\n}\n")
	if code != 0 || stdout != "child 285\n" || !strings.Contains(stderr, "Child (bridged class) left unwoven: its class loader does not see weft's runtime, and it cannot be bridged") {
		t.Errorf("around: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}
