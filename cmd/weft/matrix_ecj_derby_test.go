package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// ecjJar is Eclipse's compiler (Debian's ecj runs it from
// libeclipse-jdt-core-java's jar).
const ecjJar = debJava + "eclipse-jdt-core.jar"

// ecj compiles a small Java program (testdata/matrix/ecj/src: sq.Sq and
// sq.Sum, generics and a lambda) with Eclipse's batch compiler, then runs
// it: stock, and under weft serve (which weaves ecj's classes as the JVM
// loads them; weaving its 2,000-class jar ahead is TestWeaveJarAlone's
// kind of work). -proc:none: Debian's jar has no annotation processing
// manager on its class path. Every class file ecj writes is the stock
// run's byte for byte; the program prints 285, its probeSq counted 10
// times.
func (m *matrix) ecj(t *testing.T) {
	needFiles(t, "ecj", ecjJar)
	src, err := filepath.Abs(filepath.Join(matrixDir, "ecj", "src"))
	if err != nil {
		t.Fatal(err)
	}
	var wantClasses map[string][]byte
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		out := t.TempDir()
		o := m.run(t, mode, "", "-cp", ecjJar, "org.eclipse.jdt.internal.compiler.batch.Main",
			"-d", out, "-source", "11", "-target", "11", "-nowarn", "-proc:none", src)
		classes := classFiles(t, out)
		if o.code != 0 || len(classes) == 0 {
			t.Fatalf("ecj: exit %d, %d class files; stdout %q, stderr:\n%s", o.code, len(classes), o.stdout, tail(o.stderr))
		}
		p := m.run(t, mode, "", "-cp", out, "sq.Sq")
		if p.code != 0 || p.stdout != "285\n" {
			t.Fatalf("sq.Sq: exit %d, stdout %q, want 285; stderr:\n%s", p.code, p.stdout, tail(p.stderr))
		}
		if mode == stockMode {
			wantClasses = classes
			return
		}
		for c, b := range wantClasses {
			if !bytes.Equal(classes[c], b) {
				t.Errorf("ecj wrote another %s than on the stock JDK (%d bytes, stock %d)", c, len(classes[c]), len(b))
			}
		}
		for c := range classes {
			if wantClasses[c] == nil {
				t.Errorf("ecj wrote %s, which it did not on the stock JDK", c)
			}
		}
		checkWoven(t, mode, "ecj", o, nil)
		checkWoven(t, mode, "ecj's program", p, map[string]int{"sq.Sq.probeSq(int)": 10})
	})
}

// classFiles reads every .class file under dir, by its path there.
func classFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	classes := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		classes[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return classes
}

// derbyJars are Derby's embedded engine and its tools (ij); Debian's
// 10.14 has no derbyshared.jar.
var derbyJars = []string{debJava + "derby.jar", debJava + "derbytools.jar"}

// derby runs an embedded SQL workload through Derby's ij
// (testdata/matrix/derby/sq.sql): it creates a database under
// derby.system.home (a temporary directory, so nothing is written where
// the test runs), a table of 10 rows, an SQL function over the Java
// static method SqFn.probeSq, then sums probeSq over the rows (285) and
// queries with ORDER BY, GROUP BY and a join. Derby compiles each
// statement to a class it defines in a loader of its own as it runs, which
// weft serve and weft run weave as the JVM defines it (weft run costs 3
// CPU-s more than stock: it weaves ahead what the run loads, not Derby's
// whole jars). ij's output is the stock run's (nothing in it varies: the
// database's name is relative to derby.system.home); the function's
// probeSq is counted 10 times, once a row.
func (m *matrix) derby(t *testing.T) {
	needFiles(t, "libderby-java and derby-tools", derbyJars...)
	dir, err := filepath.Abs(filepath.Join(matrixDir, "derby"))
	if err != nil {
		t.Fatal(err)
	}
	fn := jvmtest.Compile(t, matrixSources(t, "derby", "SqFn.java"))
	cp := strings.Join(append(derbyJars[:len(derbyJars):len(derbyJars)], fn), ":")
	var want string
	m.modes(t, []matrixMode{runMode, serveMode}, func(t *testing.T, mode matrixMode) {
		home := t.TempDir()
		work := t.TempDir()
		o := m.run(t, mode, work, "-Dderby.system.home="+home, "-cp", cp, "org.apache.derby.tools.ij", filepath.Join(dir, "sq.sql"))
		if mode == stockMode {
			want = o.stdout
			if o.code != 0 || !strings.Contains(want, "\n285        \n") || strings.Contains(want, "ERROR") {
				t.Fatalf("ij: exit %d, stdout %q; stderr:\n%s", o.code, o.stdout, tail(o.stderr))
			}
		} else if o.code != 0 || o.stdout != want {
			t.Errorf("ij: exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
		}
		if ents, err := os.ReadDir(work); err != nil || len(ents) > 0 {
			t.Errorf("ij wrote into its working directory: %v %v", ents, err)
		}
		if mode != stockMode {
			checkWoven(t, mode, "derby", o, map[string]int{"SqFn.probeSq(int)": 10})
		}
	})
}
