package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// rewriteTestApp compiles a small program and adds a resource and a
// class file that is not one, which must pass through with a warning.
func rewriteTestApp(t *testing.T) string {
	dir := jvmtest.Compile(t, map[string]string{
		"app/Main.java": `package app;
import java.util.*;
public class Main {
	interface Shape { double area(); }
	record Circle(double r) implements Shape { public double area() { return Math.PI * r * r; } }
	record Square(double s) implements Shape { public double area() { return s * s; } }
	public static void main(String[] args) throws Exception {
		List<Shape> shapes = new ArrayList<>();
		for (int i = 1; i <= 3; i++) shapes.add(i % 2 == 0 ? new Square(i) : new Circle(i));
		double total = 0;
		for (Shape s : shapes) {
			try { total += s.area(); } catch (RuntimeException e) { throw e; } finally { total += 0; }
		}
		String kind = switch (shapes.size()) { case 3 -> "three"; default -> "other"; };
		System.out.printf("%s %.3f %s%n", kind, total,
			new String(Main.class.getResourceAsStream("/app/data.txt").readAllBytes()).trim());
	}
}`,
	})
	if err := os.WriteFile(filepath.Join(dir, "app", "data.txt"), []byte("resource kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app", "Broken.class"), []byte("\xCA\xFE\xBA\xBEnot really"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const rewriteTestAppOutput = "three 35.416 resource kept\n"

func zipEntries(t *testing.T, jar string) ([]string, map[string][]byte) {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	data := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, f.Name)
		data[f.Name] = b
	}
	return names, data
}

func TestRewriteJarAndDir(t *testing.T) {
	dir := rewriteTestApp(t)
	jar := filepath.Join(t.TempDir(), "app.jar")
	if out, err := exec.Command(filepath.Join(jvmtest.JavaHome(t), "bin", "jar"), "cf", jar, "-C", dir, ".").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, out)
	}

	for _, in := range []string{jar, dir} {
		out := filepath.Join(t.TempDir(), filepath.Base(in))
		var log bytes.Buffer
		st, err := rewrite([]string{in}, rewriteFlags{out: out, frames: true, jobs: 2}, &log)
		if err != nil {
			t.Fatalf("rewrite %s: %v", in, err)
		}
		if st.warnings.Load() != 1 || !strings.Contains(log.String(), "app/Broken.class") {
			t.Fatalf("rewrite %s: %d warnings, want one naming app/Broken.class:\n%s", in, st.warnings.Load(), log.String())
		}
		if st.classes.Load() != 5 || st.methods.Load() < 10 {
			t.Fatalf("rewrite %s: %s", in, st.summary())
		}

		// Nothing dropped: the same entries (in the same order for a
		// jar), resources and the broken class unchanged.
		var inNames, outNames []string
		var inData, outData map[string][]byte
		if in == jar {
			inNames, inData = zipEntries(t, jar)
			outNames, outData = zipEntries(t, out)
		} else {
			inNames, inData = treeFiles(t, dir)
			outNames, outData = treeFiles(t, out)
		}
		if strings.Join(inNames, " ") != strings.Join(outNames, " ") {
			t.Fatalf("rewrite %s: entries\n%v\nbecame\n%v", in, inNames, outNames)
		}
		for _, name := range []string{"app/data.txt", "app/Broken.class"} {
			if !bytes.Equal(inData[name], outData[name]) {
				t.Fatalf("rewrite %s: %s changed", in, name)
			}
		}

		stdout, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out, "app.Main")
		if stdout != rewriteTestAppOutput {
			t.Fatalf("rewritten %s prints %q, want %q", in, stdout, rewriteTestAppOutput)
		}
	}
}

// TestRewriteSeveralInputs: with several inputs OUT is a directory with
// one output per input, named after it.
func TestRewriteSeveralInputs(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{"p/A.java": "package p; public class A { public static void main(String[] a) { System.out.println(\"A\"); } }"})
	jar := filepath.Join(t.TempDir(), "b.jar")
	src := jvmtest.Compile(t, map[string]string{"q/B.java": "package q; public class B { public static void main(String[] a) { System.out.println(\"B\"); } }"})
	if out, err := exec.Command(filepath.Join(jvmtest.JavaHome(t), "bin", "jar"), "cf", jar, "-C", src, ".").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, out)
	}
	out := t.TempDir()
	st, err := rewrite([]string{dir, jar}, rewriteFlags{out: out, frames: true, jobs: 2}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if st.classes.Load() != 2 || st.warnings.Load() != 0 {
		t.Fatal(st.summary())
	}
	if got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", filepath.Join(out, filepath.Base(dir)), "p.A"); got != "A\n" {
		t.Fatalf("rewritten dir prints %q", got)
	}
	if got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", filepath.Join(out, "b.jar"), "q.B"); got != "B\n" {
		t.Fatalf("rewritten jar prints %q", got)
	}
}

func treeFiles(t *testing.T, root string) ([]string, map[string][]byte) {
	var names []string
	data := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		names = append(names, filepath.ToSlash(rel))
		data[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, data
}

// TestRewriteJDKModule rewrites one small JDK module and runs a program
// that uses it with the module patched and every class verified.
func TestRewriteJDKModule(t *testing.T) {
	home := jvmtest.JavaHome(t)
	out := t.TempDir()
	var log bytes.Buffer
	st, err := rewrite([]string{"jdk:java.logging"}, rewriteFlags{out: out, frames: true, javaHome: home, jobs: 2}, &log)
	if err != nil {
		t.Fatal(err)
	}
	if st.warnings.Load() != 0 || st.classes.Load() < 50 {
		t.Fatalf("%s\n%s", st.summary(), log.String())
	}
	if _, err := os.Stat(filepath.Join(out, "java.logging", "java", "util", "logging", "Logger.class")); err != nil {
		t.Fatal(err)
	}
	classes := jvmtest.Compile(t, map[string]string{"Log.java": `
import java.util.logging.*;
public class Log {
	public static void main(String[] args) {
		Logger l = Logger.getLogger("weft");
		l.setUseParentHandlers(false);
		Handler h = new StreamHandler(System.out, new SimpleFormatter() {
			public String format(LogRecord r) { return r.getLevel() + " " + r.getMessage() + "\n"; }
		});
		l.addHandler(h);
		l.info("hello");
		l.warning("world");
		h.flush();
	}
}`})
	loadLog := filepath.Join(t.TempDir(), "load.log")
	stdout, stderr := jvmtest.Run(t, "-Xverify:all", "--patch-module", "java.logging="+filepath.Join(out, "java.logging"),
		"-Xlog:class+load=info:file="+loadLog, "-cp", classes, "Log")
	if stdout != "INFO hello\nWARNING world\n" {
		t.Fatalf("stdout %q, stderr %q", stdout, stderr)
	}
	loads, err := os.ReadFile(loadLog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(loads), "java.util.logging.Logger source: "+filepath.Join(out, "java.logging")) {
		t.Fatal("java.util.logging.Logger was not loaded from the rewritten module")
	}
}

func TestRewriteErrors(t *testing.T) {
	if _, err := rewrite([]string{filepath.Join(t.TempDir(), "missing.jar")}, rewriteFlags{out: t.TempDir(), jobs: 1}, io.Discard); err == nil {
		t.Fatal("a missing input was accepted")
	}
	if _, err := rewrite([]string{"jdk:no.such.module"}, rewriteFlags{out: t.TempDir(), jobs: 1}, io.Discard); err == nil {
		t.Fatal("an unknown module was accepted")
	}
}

// TestRewriteClassFile: a single .class file is rewritten into a class
// file, or into a directory (it used to fail: "zip: not a valid zip
// file").
func TestRewriteClassFile(t *testing.T) {
	class := filepath.Join(fibApp(t), "demo", "Fib.class")
	intoDir := filepath.Join(t.TempDir(), "demo")
	if err := os.MkdirAll(intoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(t.TempDir(), "demo", "Fib.class"), intoDir} {
		st, err := rewrite([]string{class}, rewriteFlags{out: out, frames: true, jobs: 2}, io.Discard)
		if err != nil {
			t.Fatalf("rewrite %s -o %s: %v", class, out, err)
		}
		if st.classes.Load() != 1 || st.warnings.Load() != 0 {
			t.Fatalf("-o %s: %s", out, st.summary())
		}
		root := filepath.Dir(filepath.Dir(out)) // out is <root>/demo/Fib.class or <root>/demo
		if out == intoDir {
			root = filepath.Dir(out)
		}
		if got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", root, "demo.Fib"); got != "fib 55\n" {
			t.Errorf("-o %s: rewritten class prints %q", out, got)
		}
	}
}
