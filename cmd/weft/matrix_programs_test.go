package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weft-aop/weft/weaver/ltw"
)

// matrixProgram is a program of the matrix that runs to its end: a
// language runtime running a script (testdata/matrix/scripts) whose
// function probeSq (probe_sq), compiled to a class while it runs, is
// called 10 times; the script prints 285.
type matrixProgram struct {
	name, pkg string
	files     []string                     // the Debian package's files it needs
	args      func(script string) []string // java's arguments
	script    string                       // under testdata/matrix/scripts
	probes    map[string]int               // see checkWoven
	// woven, if set, are the modes it runs in besides stock's (all
	// matrixModes if nil).
	woven []matrixMode
}

const debJava = "/usr/share/java/"

var matrixPrograms = []matrixProgram{
	{name: "groovy", pkg: "groovy", files: []string{debJava + "groovy-all.jar"}, script: "sq.groovy",
		args: func(s string) []string {
			return []string{"-cp", debJava + "groovy-all.jar", "groovy.ui.GroovyMain", s}
		},
		probes: map[string]int{"sq.probeSq(java.lang.Object)": 10}},
	{name: "jruby", pkg: "jruby", files: []string{debJava + "jruby-core.jar", "/usr/share/jruby/lib/ruby"}, script: "sq.rb",
		// A method is compiled to a JVM class at its first call, before it
		// runs (compile.mode=FORCE, compiling every file as it is loaded,
		// took half as much CPU again).
		args: func(s string) []string {
			return []string{"-cp", debJava + "jruby-core.jar", "-Djruby.home=/usr/share/jruby", "-Djruby.jit.threshold=0",
				"-Djruby.jit.background=false", "org.jruby.Main", s}
		},
		probes: map[string]int{"sq.RUBY$method$probe_sq$": 10},
		// JRuby defines its compiled methods as classes of its own loader,
		// which weft serve weaves as the JVM defines them; weft run's
		// weaving of the class path ahead (16.5 CPU-s) is the others'.
		woven: []matrixMode{serveMode}},
	{name: "scala", pkg: "scala", script: "sq.scala",
		files: []string{debJava + "scala-library.jar", debJava + "scala-compiler.jar", debJava + "scala-reflect.jar"},
		args: func(s string) []string {
			return []string{"-cp", debJava + "scala-library.jar:" + debJava + "scala-compiler.jar:" + debJava + "scala-reflect.jar",
				"scala.tools.nsc.MainGenericRunner", "-usejavacp", "-nc", s}
		},
		probes: map[string]int{"$$probeSq(int)": 10},
		// Not under weft run, which weaves Scala's three jars ahead of
		// time (16.5 CPU-s, the matrix's largest part): weft serve weaves
		// the classes Scala runs as the JVM loads them, TestWeaveJarAlone
		// weaves whole jars ahead, and the suite has 8 minutes. Clojure,
		// Rhino, JRuby and H2 likewise; Groovy, Ant, Tomcat and Jetty run
		// in both.
		woven: []matrixMode{serveMode}},
	{name: "jython", pkg: "jython", files: []string{debJava + "jython.jar"}, script: "sq.py",
		// Jython compiles the script to a class of its own loader as it
		// runs. Under weft run, weaving jython.jar ahead leaves its Lib/
		// modules, stored at paths that are not their names (encodings$py
		// at Lib/encodings/__init__$py.class), to load-time weaving
		// (TestRunLeavesMisplacedClasses).
		args: func(s string) []string {
			return []string{"-Dpython.cachedir.skip=true", "-cp", debJava + "jython.jar", "org.python.util.jython", s}
		},
		probes: map[string]int{"probe_sq$1(": 10}},
	{name: "clojure", pkg: "clojure", files: []string{debJava + "clojure.jar"}, script: "sq.clj",
		args:   func(s string) []string { return []string{"-cp", debJava + "clojure.jar", "clojure.main", s} },
		probes: map[string]int{"user$probe_sq.invokeStatic(": 10}, woven: []matrixMode{serveMode}},
	{name: "rhino", pkg: "rhino", files: []string{debJava + "js.jar"}, script: "sq.js",
		args: func(s string) []string {
			return []string{"-cp", debJava + "js.jar", "org.mozilla.javascript.tools.shell.Main", "-opt", "9", s}
		},
		probes: map[string]int{"._c_probeSq_": 10}, woven: []matrixMode{serveMode}},
}

// program runs a language runtime's script in each mode: the stock output
// is 285, the woven runs' the same, probeSq counted 10 times.
func (m *matrix) program(t *testing.T, p matrixProgram) {
	needFiles(t, p.pkg, p.files...)
	script, err := filepath.Abs(filepath.Join(matrixDir, "scripts", p.script))
	if err != nil {
		t.Fatal(err)
	}
	var want string
	m.modes(t, p.woven, func(t *testing.T, mode matrixMode) {
		o := m.run(t, mode, "", p.args(script)...)
		if mode == stockMode {
			want = o.stdout
			if o.code != 0 || want != "285\n" {
				t.Fatalf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, "285\n", tail(o.stderr))
			}
			return
		}
		if o.code != 0 || o.stdout != want {
			t.Errorf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
		}
		checkWoven(t, mode, p.name, o, p.probes)
	})
}

// checkBridged checks a woven run in which classes (internal names) run
// in loaders that do not see weft's runtime: none is listed as left
// unwoven, and weft run's summary counts them bridged.
func checkBridged(t *testing.T, mode matrixMode, what string, o matrixOut, classes ...string) {
	t.Helper()
	if mode != runMode {
		return
	}
	sum := checkUnwoven(t, what, o.report)
	for _, c := range classes {
		if slices.ContainsFunc(sum.Unwoven, func(u ltw.Unwoven) bool { return u.Class == c }) {
			t.Errorf("%s: %s left unwoven: %+v", what, c, sum.Unwoven)
		}
	}
	if sum.Bridged < len(classes) {
		t.Errorf("%s: %d classes bridged, want %d or more (%v)", what, sum.Bridged, len(classes), classes)
	}
}

// antTotal is the line of Ant's output whose time varies.
var antTotal = regexp.MustCompile(`(?m)^Total time: .*\n`)

// ant runs Ant on a small project (testdata/matrix/ant) in each mode: javac
// compiles it in Ant's JVM, which then runs a task and a program it
// compiled (each calling its probeSq 10 times). Ant's output (the
// project's directory and the total time aside) and the class files javac
// wrote are the stock run's.
func (m *matrix) ant(t *testing.T) {
	jars := []string{debJava + "ant.jar", debJava + "ant-launcher.jar"}
	needFiles(t, "ant", jars...)
	project := filepath.Join(matrixDir, "ant")
	var want string
	var wantClasses map[string][]byte
	m.modes(t, nil, func(t *testing.T, mode matrixMode) {
		dir := t.TempDir()
		if err := copyTree(dir, project); err != nil {
			t.Fatal(err)
		}
		o := m.run(t, mode, dir, "-cp", strings.Join(jars, ":"), "org.apache.tools.ant.Main", "-f", "build.xml")
		out := antTotal.ReplaceAllString(strings.ReplaceAll(o.stdout, dir, "PROJECT"), "")
		classes := map[string][]byte{}
		for _, c := range []string{"Sq.class", "SqTask.class"} {
			classes[c], _ = os.ReadFile(filepath.Join(dir, "classes", c))
		}
		if mode == stockMode {
			want, wantClasses = out, classes
			if o.code != 0 || !strings.Contains(want, "[sq] ant task 285\n") || !strings.Contains(want, "[java] ant 285\n") ||
				!strings.Contains(want, "BUILD SUCCESSFUL") {
				t.Fatalf("exit %d, stdout %q; stderr:\n%s", o.code, o.stdout, tail(o.stderr))
			}
			return
		}
		if o.code != 0 || out != want {
			t.Errorf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, out, want, tail(o.stderr))
		}
		for c, b := range classes {
			if !bytes.Equal(b, wantClasses[c]) {
				t.Errorf("javac wrote another %s than on the stock JDK (%d bytes, stock %d)", c, len(b), len(wantClasses[c]))
			}
		}
		// Sq runs in Ant's isolated AntClassLoader, which does not see
		// weft's runtime: bridged, its probe counted.
		checkWoven(t, mode, "ant", o, map[string]int{" SqTask.probeSq(int)": 10, " Sq.probeSq(int)": 10})
		checkBridged(t, mode, "ant", o, "Sq")
	})
}
