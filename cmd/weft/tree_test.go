package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
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
