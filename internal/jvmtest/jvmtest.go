// Package jvmtest finds the real JDK for tests and compiles and runs Java
// code with it. A test that needs the JDK and does not find it fails with a
// clear message: it never skips.
package jvmtest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/javahome"
)

var (
	homeOnce sync.Once
	home     string
	homeErr  string
)

// JavaHome returns the home of the JDK weft itself defaults to (the java on
// PATH, else $JAVA_HOME: javahome.Default, the order of every command),
// failing the test if there is none or it lacks java, javac or lib/modules.
func JavaHome(t testing.TB) string {
	t.Helper()
	homeOnce.Do(func() {
		h, err := javahome.Default()
		if err != nil {
			homeErr = "no JDK: no java on PATH and JAVA_HOME unset: install openjdk-17-jdk-headless (bash .ci/run does)"
			return
		}
		for _, f := range []string{"bin/java", "bin/javac", "lib/modules"} {
			if _, err := os.Stat(filepath.Join(h, f)); err != nil {
				homeErr = "JDK at " + h + " lacks " + f + ": install openjdk-17-jdk-headless"
				return
			}
		}
		home = h
	})
	if homeErr != "" {
		t.Fatal(homeErr)
	}
	return home
}

// Java returns the path of the java launcher.
func Java(t testing.TB) string { return filepath.Join(JavaHome(t), "bin", "java") }

// Javac returns the path of javac.
func Javac(t testing.TB) string { return filepath.Join(JavaHome(t), "bin", "javac") }

// Compile writes the given sources (file name → text) into a new directory,
// compiles them with javac and extra options, and returns the output
// directory of the class files.
func Compile(t testing.TB, sources map[string]string, opts ...string) string {
	t.Helper()
	_, files := writeSources(t, sources)
	out := t.TempDir()
	javac(t, append(append([]string{"-d", out}, opts...), files...))
	return out
}

// CompileModules compiles modules whose sources are given by their paths
// under a module source path (ma/module-info.java, ma/ma/A.java, ...) in
// one javac run, and returns the directory holding the modules, exploded
// (what ModuleFinder.of finds in it).
func CompileModules(t testing.TB, sources map[string]string) string {
	t.Helper()
	src, files := writeSources(t, sources)
	out := t.TempDir()
	javac(t, append([]string{"-d", out, "--module-source-path", src}, files...))
	return out
}

// writeSources writes sources (path → text) into a new directory and
// returns it and the files' paths.
func writeSources(t testing.TB, sources map[string]string) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	for name, text := range sources {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return dir, files
}

// ToolArgs returns args after the JVM options (-J...) for the JDK's tools
// that tests run as given, not as the subject of the test (javac compiling
// tests' sources, jlink, jimage): the client compiler only and the serial
// collector. A short run of a tool spends most of its CPU time in the JIT's
// optimizing compiler and the parallel collector's threads (javac of a
// small program: 1.55 CPU seconds, 0.96 so); its output is the same.
func ToolArgs(args ...string) []string {
	var a []string
	for _, o := range QuickArgs() {
		a = append(a, "-J"+o)
	}
	return append(a, args...)
}

// QuickArgs returns args after the same options for java itself: for a
// short JVM whose test is not about the JIT (a program loading every
// class, a launcher run once), which spends most of its CPU time in C2
// and the parallel collector's threads otherwise.
func QuickArgs(args ...string) []string {
	return append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"}, args...)
}

// javac runs javac with args; it fails the test if javac fails.
func javac(t testing.TB, args []string) {
	t.Helper()
	if b, err := exec.Command(Javac(t), ToolArgs(args...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

// Run runs java with args and returns stdout and stderr; it fails the test if
// java exits non-zero.
func Run(t testing.TB, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, err := RunErr(t, args...)
	if err != nil {
		t.Fatalf("java %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout, stderr
}

// RunErr runs java with args and returns its output and exit error.
func RunErr(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(Java(t), args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// Jar writes the files under dir into the jar path, with a manifest naming
// mainClass when it is not "" (an executable jar for java -jar).
func Jar(t testing.TB, dir, path, mainClass string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if mainClass != "" {
		w, _ := zw.Create("META-INF/MANIFEST.MF")
		fmt.Fprintf(w, "Manifest-Version: 1.0\r\nMain-Class: %s\r\n\r\n", mainClass)
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = os.WriteFile(path, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
}

// JarEntries reads every entry of the jar at path, by name.
func JarEntries(t testing.TB, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatalf("%s: %s: %v", path, f.Name, err)
		}
		var b bytes.Buffer
		_, err = b.ReadFrom(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %s: %v", path, f.Name, err)
		}
		out[f.Name] = b.Bytes()
	}
	return out
}
