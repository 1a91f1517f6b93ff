package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// cmdLines checks that weft run reads the java command line as java does
// (internal/javacmd), on env's woven JDK: a class path given in an
// @argfile is woven ahead of time like the same class path inline (one
// woven class path, the same), and `java -jar` whose manifest names a
// library jar by a relative Class-Path runs woven, the library's classes
// woven ahead too and found from the woven copy of the jar.
func cmdLines(t *testing.T, env, aspectArgs []string, adv, classes string) {
	cp := classes + string(filepath.ListSeparator) + adv
	argfile := writeFile(t, "args", "# the program\n-cp \""+cp+"\"\nHello\n")
	wovenCP := regexp.MustCompile(`weft: woven class path: (\S+)`)
	run := func(name string, java ...string) (stdout, wovenDir string) {
		t.Helper()
		args := append(append(append([]string{"run"}, aspectArgs...), "--advice-cp", adv, "-v", "--", jvmtest.Java(t)), java...)
		stdout, stderr, code := weft(t, env, args...)
		m := wovenCP.FindStringSubmatch(stderr)
		if code != 0 || m == nil {
			t.Fatalf("%s: exit %d, no woven class path; stdout %q, stderr:\n%s", name, code, stdout, stderr)
		}
		return stdout, m[1]
	}
	inline, dirInline := run("inline", "-Dcount.quiet=1", "-cp", cp, "Hello")
	// And --cpuprofile: written when the java command's exit code is not
	// 0 too (weft exited at once, its profile empty).
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	_, stderr, code := weft(t, env, append(append([]string{"run", "--cpuprofile", prof}, aspectArgs...), "--advice-cp", adv, "--",
		jvmtest.Java(t), "-cp", cp, "NoSuchClass")...)
	if code != 1 || !strings.Contains(stderr, "NoSuchClass") {
		t.Errorf("java of a missing class: exit %d, want java's 1; stderr:\n%s", code, stderr)
	}
	checkCPUProfile(t, prof)
	fromFile, dirFile := run("argfile", "-Dcount.quiet=1", "@"+argfile)
	if inline != "hello\n" || fromFile != inline || dirFile != dirInline {
		t.Errorf("@argfile: stdout %q in %s, want %q in %s (the class path woven ahead as inline)", fromFile, dirFile, inline, dirInline)
	}

	// java -jar app.jar, whose manifest says Class-Path: lib/lib.jar.
	dir := t.TempDir()
	lib := jvmtest.Compile(t, map[string]string{"lib/Greeter.java": `package lib;
public class Greeter { public static String greet() { return "hi from lib"; } }`})
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": `package app;
public class Main { public static void main(String[] a) { System.out.println(lib.Greeter.greet()); } }`}, "-cp", lib)
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	jvmtest.Jar(t, lib, filepath.Join(dir, "lib", "lib.jar"), "")
	writeManifestJar(t, filepath.Join(dir, "app.jar"), app, "Manifest-Version: 1.0\r\nMain-Class: app.Main\r\nClass-Path: lib/lib.jar\r\n\r\n")
	stdout, wovenDir := run("-jar", "-jar", filepath.Join(dir, "app.jar"))
	if stdout != "hi from lib\n" {
		t.Errorf("java -jar with a Class-Path: stdout %q", stdout)
	}
	if woven, _ := filepath.Glob(filepath.Join(wovenDir, "*lib.jar")); len(woven) != 1 {
		t.Errorf("the Class-Path's jar not woven ahead: %s holds %v", wovenDir, woven)
	}
}

// writeManifestJar writes a jar of dir's files with the given manifest.
func writeManifestJar(t *testing.T, jar, dir, manifest string) {
	t.Helper()
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	w, _ := zw.Create("META-INF/MANIFEST.MF")
	w.Write([]byte(manifest))
	err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil && !strings.Contains(err.Error(), "already") {
		t.Fatal(err)
	}
}

// checkCPUProfile fails t unless path holds a Go CPU profile that
// go tool pprof reads.
func checkCPUProfile(t *testing.T, path string) {
	t.Helper()
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goCmd, "tool", "pprof", "-raw", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PeriodType: cpu nanoseconds") {
		t.Errorf("--cpuprofile %s: go tool pprof: %v\n%.500s", path, err, out)
	}
}
