package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// AspectJ's jars, from Debian's aspectj package.
const (
	aspectjrtJar     = "/usr/share/java/aspectjrt.jar"
	aspectjweaverJar = "/usr/share/java/aspectjweaver.jar"
)

// atProgram compiles testdata/ataspectj: the application, the aspects of
// its aop.xml and those of the JDK's join points (each directory with its
// META-INF/aop.xml), and returns the three directories.
func atProgram(t *testing.T) (app, aspects, jdkAspects string) {
	t.Helper()
	for _, jar := range []string{aspectjrtJar, aspectjweaverJar} {
		if _, err := os.Stat(jar); err != nil {
			t.Fatalf("the @AspectJ tests need AspectJ's %s: %v (bash .ci/run installs Debian's aspectj)", jar, err)
		}
	}
	dir := filepath.Join("testdata", "ataspectj")
	app = compileWithAopXML(t, filepath.Join(dir, "app"))
	aspects = compileWithAopXML(t, filepath.Join(dir, "aspects"), "-g", "-cp", aspectjrtJar)
	jdkAspects = compileWithAopXML(t, filepath.Join(dir, "jdkaspects"), "-g", "-cp", aspectjrtJar)
	return app, aspects, jdkAspects
}

// compileWithAopXML compiles the Java sources under dir with javac's
// options opts and copies dir's META-INF/aop.xml, if any, beside the
// classes, whose directory it returns.
func compileWithAopXML(t *testing.T, dir string, opts ...string) string {
	t.Helper()
	srcs := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			srcs[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	out := jvmtest.Compile(t, srcs, opts...)
	b, err := os.ReadFile(filepath.Join(dir, "META-INF", "aop.xml"))
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(out, "META-INF"), 0o755)
	if err := os.WriteFile(filepath.Join(out, "META-INF", "aop.xml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAtAspectJ runs an @AspectJ program under AspectJ's own load-time
// weaver (Debian's 1.9.5, JDK 17) and, its command line prefixed, under
// weft run: the same output, advice order included, with AspectJ's agent
// replaced and no --add-opens needed; its aspects' classes stay the
// application loader's; the per-clauses make their instances as AspectJ's
// do (perthis, percflow, pertypewithin). weft weave --aspectpath weaves
// them statically, and weft serve --aspectpath at load time,
// as ajc -aspectpath. An aspect on the JDK's join points (ArrayList.add)
// sees what AspectJ cannot. The same on JDK 25, the application compiled
// for it, whose class files AspectJ 1.9.5 cannot weave.
func TestAtAspectJ(t *testing.T) {
	app, aspects, jdkAspects := atProgram(t)
	cp := strings.Join([]string{app, aspects, aspectjrtJar}, string(filepath.ListSeparator))
	aspectJ, _ := jvmtest.Run(t, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-javaagent:"+aspectjweaverJar,
		"-cp", cp, "demo.Main")
	if !strings.Contains(aspectJ, "around method-execution 49 64\n") {
		t.Fatalf("AspectJ's own weaver did not weave the program:\n%s", aspectJ)
	}
	// AspectJ 1.9.5 prints a debugging line of its own for each
	// @DeclareParents it reads.
	aspectJ = regexp.MustCompile(`(?m)^decpPatterNVP = .*\n`).ReplaceAllString(aspectJ, "")
	// The one difference, documented (docs/ataspectj.md): advice inside
	// around advice's proceed(new Object[] {8}) sees the arguments it
	// runs with, where AspectJ's JoinPoint, made once at the shadow,
	// still says 7.
	const inner = "before execution(int demo.Main.square(int)) args [%d] [demo.Main]\n"
	first := strings.Index(aspectJ, fmt.Sprintf(inner, 7))
	second := first + 1 + strings.Index(aspectJ[first+1:], fmt.Sprintf(inner, 7))
	if first < 0 || second <= first {
		t.Fatalf("AspectJ's output lacks the advice inside proceed:\n%s", aspectJ)
	}
	want := aspectJ[:second] + fmt.Sprintf(inner, 8) + aspectJ[second+len(fmt.Sprintf(inner, 7)):]
	for _, per := range []string{"perthis: instance 2, call 2, size 3, aspectOf true, hasAspect of a string false\n", "percflow: flow 4, list adds 1\n",
		"pertypewithin: instance 1, run 2 of Main.square(..)\n", "Counting: list adds 6\nXmlPerType: list adds 6\nXmlCounting: list adds 6\n",
		"same package: square returned 64, aspectOf true, hasAspect true\n",
		"parents of MoodB: [demo.aspects.Moods$Moody, demo.aspects.Moods$Tagged]\n",
		"mood: happy 1 of delegate 1, happy 2 of delegate 1, another happy 1 of delegate 2, MoodB's own mood\n"} {
		if !strings.Contains(aspectJ, per) {
			t.Fatalf("AspectJ's output lacks %q:\n%s", per, aspectJ)
		}
	}
	env := []string{newCache(t)}
	info := filepath.Join(t.TempDir(), "weave-info")
	stdout, stderr, code := weft(t, env, "run", "--modules", "java.base", "--weave-info", info, "--", jvmtest.Java(t), "-Xverify:all",
		"-javaagent:"+aspectjweaverJar, "-cp", cp, "demo.Main")
	if code != 0 || stdout != want || !strings.Contains(stderr, "weft: AspectJ's agent ("+aspectjweaverJar+") does not run") {
		t.Errorf("weft run of AspectJ's command line: exit %d, stdout:\n%s\nwant (AspectJ's):\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}
	// --weave-info lists the class path's shadows, woven ahead of time,
	// naming the aspects' Java sources; this(Tagged) is a run-time test
	// at MoodA's, as AspectJ's weaver says too, and none at MoodB's.
	b, err := os.ReadFile(info)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"Join point 'method-execution(void demo.MoodA.work())' in Type 'demo.MoodA' (Main.java:42) advised by before advice from 'demo.aspects.Moods' (Moods.java:48) [with runtime test]\n",
		"Join point 'method-execution(void demo.MoodB.work())' in Type 'demo.MoodB' (Main.java:51) advised by before advice from 'demo.aspects.Moods' (Moods.java:48)\n",
	} {
		if !strings.Contains(string(b), line) {
			t.Errorf("--weave-info lacks\n%s\nit is:\n%s", line, b)
		}
	}

	// The JDK's join points, without the agent: aop.xml is enough.
	jdkCP := strings.Join([]string{app, jdkAspects, aspectjrtJar}, string(filepath.ListSeparator))
	// The aop.xml's <concrete-aspect name="demo.xml.MainDone"> extends
	// demo.jdk.AbstractMain, of another package: defined in the
	// application's loader, and its advice runs.
	const adds = "concrete aspect demo.xml.MainDone of AppClassLoader\n" +
		"ArrayList.add under Main.add: 6, the last public boolean java.util.ArrayList.add(java.lang.Object) of d\n"
	stdout, stderr, code = weft(t, env, "run", "--modules", "java.base", "--patches", "--", jvmtest.Java(t), "-Xverify:all", "-cp", jdkCP, "demo.Main")
	if code != 0 || !strings.HasSuffix(stdout, adds) {
		t.Errorf("weft run, the JDK's join points: exit %d, stdout:\n%s\nwant it to end:\n%s\nstderr:\n%s", code, stdout, adds, stderr)
	}

	// Statically, as ajc -aspectpath: weft weave's output runs on the
	// stock JDK with the runtime, the aspects and aspectjrt.
	woven := t.TempDir()
	_, stderr, code = weft(t, env, "weave", "-aspectpath", aspects, "-cp", aspectjrtJar, "-o", woven, app)
	if code != 0 {
		t.Fatalf("weft weave --aspectpath: exit %d, stderr:\n%s", code, stderr)
	}
	stdout, _ = jvmtest.Run(t, "-Xverify:all", "-cp", strings.Join([]string{woven, aspects, aspectjrtJar}, string(filepath.ListSeparator)), "demo.Main")
	if stdout != want {
		t.Errorf("weft weave --aspectpath, run: stdout:\n%s\nwant:\n%s", stdout, want)
	}

	// weft serve with the aspect path: the JVM's classes woven at load
	// time, the aspects those of the path's aop.xml.
	dir, stop := servingWeft(t, env, "--aspectpath", aspects, "--cp", app+string(filepath.ListSeparator)+aspectjrtJar,
		"--modules", "java.base")
	stdout, _ = jvmtest.Run(t, "@"+filepath.Join(dir, "weft.args"), "-Xverify:all", "-cp", cp, "demo.Main")
	if stdout != want {
		t.Errorf("under weft serve --aspectpath: stdout:\n%s\nwant:\n%s", stdout, want)
	}
	if serveErr, err := stop(); err != nil || !strings.Contains(serveErr, "weft: load-time weaving: ") {
		t.Errorf("weft serve --aspectpath: %v\n%s", err, serveErr)
	}

	// Nothing to weave: AspectJ's agent without an aop.xml, and no -a.
	_, stderr, code = weft(t, env, "run", "--", jvmtest.Java(t), "-javaagent:"+aspectjweaverJar, "-cp", app, "demo.Main")
	if code == 0 || !strings.Contains(stderr, "weft: warning: no META-INF/aop.xml on the class path: no AspectJ aspect runs\n") ||
		!strings.Contains(stderr, "no aspect to weave: give -a FILE.weft, or run a java command whose class path holds a META-INF/aop.xml") {
		t.Errorf("the agent without aop.xml: exit %d, stderr:\n%s", code, stderr)
	}

	t.Run("JDK25", func(t *testing.T) {
		j25 := jvmtest.JDK25(t)
		java25 := filepath.Join(j25, "bin", "java")
		// The application compiled for Java 25: AspectJ 1.9.5's weaver
		// fails on its class files ("Unsupported class file major
		// version 69").
		app25 := t.TempDir()
		javac := exec.Command(filepath.Join(j25, "bin", "javac"), "-d", app25, filepath.Join("testdata", "ataspectj", "app", "demo", "Main.java"))
		if b, err := javac.CombinedOutput(); err != nil {
			t.Fatalf("javac 25: %v\n%s", err, b)
		}
		cp25 := strings.Join([]string{app25, aspects, aspectjrtJar}, string(filepath.ListSeparator))
		stdout, stderr, code := weft(t, env, "run", "--modules", "java.base", "--patches", "--", java25, "-javaagent:"+aspectjweaverJar,
			"-cp", cp25, "demo.Main")
		if code != 0 || stdout != want {
			t.Errorf("JDK 25: exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, want, stderr)
		}
		// aop.xml's -showWeaveInfo: the lines on standard error, as
		// AspectJ's weaver writes its messages.
		if line := "Join point 'method-execution(void demo.MoodB.work())' in Type 'demo.MoodB' (Main.java:51) advised by before advice from 'demo.aspects.Moods' (Moods.java:48)\n"; !strings.Contains(stderr, line) {
			t.Errorf("JDK 25: -showWeaveInfo: stderr lacks\n%s\nit is:\n%s", line, stderr)
		}
		stdout, stderr, code = weft(t, env, "run", "--modules", "java.base", "--patches", "--", java25, "-cp", jdkCP, "demo.Main")
		if code != 0 || !strings.HasSuffix(stdout, adds) {
			t.Errorf("JDK 25, the JDK's join points: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})
}
