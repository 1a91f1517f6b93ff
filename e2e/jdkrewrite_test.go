// Package e2e holds end-to-end tests that run the weft binary on real
// inputs (the JDK's own modules, jars from /usr/share/java) and let the
// JVM judge the output.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
)

var (
	weftOnce sync.Once
	weftBin  string // the weft command built for the package's tests
	weftErr  string
)

// buildWeft compiles the weft command, once for the package's tests, into
// a temporary directory TestMain removes.
func buildWeft(t *testing.T) string {
	t.Helper()
	weftOnce.Do(func() { weftBin, weftErr = compileWeft() })
	if weftBin == "" {
		t.Fatal(weftErr)
	}
	return weftBin
}

func compileWeft() (string, string) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	dir, err := os.MkdirTemp("", "weft-e2e-bin-")
	if err != nil {
		return "", err.Error()
	}
	bin := filepath.Join(dir, "weft")
	if out, err := exec.Command(goCmd, "build", "-o", bin, "github.com/weft-aop/weft/cmd/weft").CombinedOutput(); err != nil {
		return "", fmt.Sprintf("go build: %v\n%s", err, out)
	}
	return bin, ""
}

// weftRewrite runs `weft classfile rewrite --frames` and requires that
// every class was rewritten (no warnings).
func weftRewrite(t *testing.T, weft, home, input, out string) {
	t.Helper()
	cmd := exec.Command(weft, "classfile", "rewrite", "--frames", "--java-home", home, input, "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("weft classfile rewrite %s: %v\n%s", input, err, stderr.String())
	}
	t.Logf("weft classfile rewrite --frames %s: %s", input, strings.TrimSpace(stderr.String()))
	if !strings.Contains(stderr.String(), " 0 warnings") {
		t.Fatalf("rewrite of %s left classes unchanged:\n%s", input, stderr.String())
	}
}

// loadAllSource loads and links (hence verifies) every class named in a
// list file of "module binary-name" lines, printing one line per failure.
const loadAllSource = `
import java.nio.file.*;

public class LoadAll {
    public static void main(String[] args) throws Exception {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        int loaded = 0;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String name = line.substring(line.indexOf(' ') + 1);
            try {
                Class.forName(name, false, loader).getDeclaredMethods(); // links the class
                loaded++;
            } catch (Throwable e) {
                String kind = e instanceof VerifyError || e instanceof ClassFormatError ? "VERIFY" : "OTHER";
                System.out.println(kind + " " + name + " " + e.getClass().getName() + ": "
                    + String.valueOf(e.getMessage()).replace('\n', ' '));
            }
        }
        System.out.println("LOADED " + loaded);
    }
}
`

// loadResult is what LoadAll reported.
type loadResult struct {
	loaded   int
	failures map[string]string // class → exception class
	verify   []string          // VerifyError / ClassFormatError lines
}

func parseLoadAll(t *testing.T, out string) loadResult {
	r := loadResult{failures: map[string]string{}, loaded: -1}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "LOADED":
			n, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatalf("LoadAll: %q", line)
			}
			r.loaded = n
		case len(f) >= 3 && (f[0] == "VERIFY" || f[0] == "OTHER"):
			r.failures[f[1]] = strings.TrimSuffix(f[2], ":")
			if f[0] == "VERIFY" {
				r.verify = append(r.verify, line)
			}
		}
	}
	if r.loaded < 0 {
		t.Fatalf("LoadAll did not finish:\n%s", out)
	}
	return r
}

// compareLoads checks the rewritten classes' run against the stock run:
// no verification errors, and the same classes failing for other reasons.
func compareLoads(t *testing.T, what string, stock, rewritten loadResult, total int) {
	t.Helper()
	t.Logf("%s: %d of %d classes loaded and linked with -Xverify:all (stock: %d), %d verification errors",
		what, rewritten.loaded, total, stock.loaded, len(rewritten.verify))
	if len(rewritten.verify) > 0 {
		n := min(len(rewritten.verify), 20)
		t.Errorf("%s: %d classes fail verification, e.g.:\n%s", what, len(rewritten.verify), strings.Join(rewritten.verify[:n], "\n"))
	}
	for name, exc := range stock.failures {
		if rewritten.failures[name] != exc {
			t.Errorf("%s: %s fails with %s in the stock run, %q rewritten", what, name, exc, rewritten.failures[name])
		}
	}
	for name, exc := range rewritten.failures {
		if _, ok := stock.failures[name]; !ok {
			t.Errorf("%s: %s fails with %s only when rewritten", what, name, exc)
		}
	}
	if stock.loaded < total*9/10 {
		t.Fatalf("%s: the stock run loaded only %d of %d classes: is the test setup wrong?", what, stock.loaded, total)
	}
}

// binaryName turns a class file path into the name Class.forName takes.
func binaryName(path string) string {
	return strings.ReplaceAll(strings.TrimSuffix(path, ".class"), "/", ".")
}

func writeList(t *testing.T, lines []string) string {
	p := filepath.Join(t.TempDir(), "classes.txt")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// dropWarnings removes the JVM's "WARNING: ..." lines (--patch-module
// says it ignores module-info.class), so outputs can be compared.
func dropWarnings(s string) string {
	var keep []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, "WARNING: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// TestRewriteJDKVerifies is the acceptance test of the class-file library:
// every class of the JDK, rewritten with recomputed frames, is loaded and
// verified by the JVM, and the rewritten JDK runs java -version, a hello
// world and javac exactly like the stock one.
func TestRewriteJDKVerifies(t *testing.T) {
	home := jvmtest.JavaHome(t)
	weft := buildWeft(t)
	out := filepath.Join(t.TempDir(), "jdk")
	weftRewrite(t, weft, home, "jdk:", out)

	src, err := classpath.OpenJDK(home)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var list []string
	err = src.Walk(func(e classpath.ClassEntry) error {
		if _, err := os.Stat(filepath.Join(out, e.Module, e.Path)); err != nil {
			t.Fatalf("rewrite dropped %s/%s: %v", e.Module, e.Path, err)
		}
		if !strings.HasSuffix(e.Path, "module-info.class") {
			list = append(list, e.Module+" "+binaryName(e.Path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	listFile := writeList(t, list)

	var patch []string
	for _, m := range src.Modules() {
		patch = append(patch, "--patch-module", m+"="+filepath.Join(out, m))
	}
	// The JVMs run with the client compiler only and the serial collector
	// (jvmtest.QuickArgs): loading every class, C2 and the parallel
	// collector's threads took a third of their CPU time.
	patched := func(args ...string) []string {
		return append(append(jvmtest.QuickArgs("-Xverify:all"), patch...), args...)
	}

	loader := jvmtest.Compile(t, map[string]string{"LoadAll.java": loadAllSource})
	// (The stock classes need no -Xverify:all: a class failing it stock
	// fails rewritten too, where it is an error.)
	stockOut, _ := jvmtest.Run(t, jvmtest.QuickArgs("--add-modules", "ALL-SYSTEM", "-cp", loader, "LoadAll", listFile)...)
	loadLog := filepath.Join(t.TempDir(), "load.log")
	newOut, _ := jvmtest.Run(t, patched("--add-modules", "ALL-SYSTEM", "-Xlog:class+load=info:file="+loadLog,
		"-cp", loader, "LoadAll", listFile)...)
	stock, rewritten := parseLoadAll(t, stockOut), parseLoadAll(t, newOut)
	compareLoads(t, "jdk:", stock, rewritten, len(list))

	// The classes really came from the rewritten tree.
	log, err := os.ReadFile(loadLog)
	if err != nil {
		t.Fatal(err)
	}
	// The boot loader logs the patch directory, the platform and app
	// loaders a file: URL.
	dir := out + string(filepath.Separator)
	fromPatch := strings.Count(string(log), " source: "+dir) + strings.Count(string(log), " source: file:"+dir)
	fromImage := strings.Count(string(log), " source: jrt:/")
	t.Logf("%d classes loaded from the rewritten modules, %d from the image", fromPatch, fromImage)
	if fromPatch < rewritten.loaded || fromImage > 0 {
		t.Fatalf("%d classes were loaded from %s and %d from the image; %d were loaded in all",
			fromPatch, out, fromImage, rewritten.loaded)
	}

	// java -version; --patch-module turns class-data sharing off, which
	// -version reports, so the stock JDK runs without it too.
	_, stockVersion := jvmtest.Run(t, jvmtest.QuickArgs("-Xshare:off", "-version")...)
	_, newVersion := jvmtest.Run(t, patched("-version")...)
	if dropWarnings(newVersion) != stockVersion {
		t.Errorf("java -version on the rewritten JDK says\n%s\nthe stock JDK\n%s", newVersion, stockVersion)
	}

	// Hello world.
	hello := jvmtest.Compile(t, map[string]string{"Hello.java": `public class Hello {
	public static void main(String[] args) { System.out.println("Hello, " + String.join(" ", args) + "!"); }
}`})
	if got, _ := jvmtest.Run(t, patched("-cp", hello, "Hello", "rewritten", "world")...); got != "Hello, rewritten world!\n" {
		t.Errorf("hello world on the rewritten JDK printed %q", got)
	}

	// javac, itself running on rewritten classes, compiles a program to
	// the same class files as the stock javac.
	progDir := t.TempDir()
	prog := map[string]string{
		"shapes/Shape.java": `package shapes;
public sealed interface Shape permits Circle, Rect { double area(); }`,
		"shapes/Circle.java": `package shapes;
public record Circle(double r) implements Shape { public double area() { return Math.PI * r * r; } }`,
		"shapes/Rect.java": `package shapes;
public record Rect(double w, double h) implements Shape { public double area() { return w * h; } }`,
		"app/Main.java": `package app;
import shapes.*;
import java.util.*;
import java.util.stream.*;
public class Main {
	static String describe(Shape s) {
		if (s instanceof Circle c && c.r() > 1) return "big circle";
		return switch (s.getClass().getSimpleName()) { case "Rect" -> "rect"; default -> "small circle"; };
	}
	public static void main(String[] args) {
		List<Shape> shapes = List.of(new Circle(1), new Rect(2, 3), new Circle(2));
		Map<String, Double> areas = shapes.stream().collect(
			Collectors.groupingBy(Main::describe, TreeMap::new, Collectors.summingDouble(Shape::area)));
		areas.forEach((k, v) -> System.out.printf("%s %.2f%n", k, v));
		Runnable r = new Runnable() { public void run() { System.out.println("inner " + shapes.size()); } };
		r.run();
	}
}`,
	}
	var files []string
	for name, text := range prog {
		p := filepath.Join(progDir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	sort.Strings(files)
	stockClasses, newClasses := t.TempDir(), t.TempDir()
	if out, err := exec.Command(jvmtest.Javac(t), jvmtest.ToolArgs(append([]string{"-d", stockClasses}, files...)...)...).CombinedOutput(); err != nil {
		t.Fatalf("stock javac: %v\n%s", err, out)
	}
	jvmtest.Run(t, patched(append([]string{"-m", "jdk.compiler/com.sun.tools.javac.Main", "-d", newClasses}, files...)...)...)
	stockFiles, newFiles := readTree(t, stockClasses), readTree(t, newClasses)
	if len(stockFiles) != 5 || len(stockFiles) != len(newFiles) {
		t.Fatalf("stock javac wrote %d class files, javac on the rewritten JDK %d", len(stockFiles), len(newFiles))
	}
	for name, b := range stockFiles {
		if !bytes.Equal(newFiles[name], b) {
			t.Errorf("javac on the rewritten JDK wrote a different %s", name)
		}
	}
	want, _ := jvmtest.Run(t, jvmtest.QuickArgs("-cp", stockClasses, "app.Main")...)
	if got, _ := jvmtest.Run(t, patched("-cp", newClasses, "app.Main")...); got != want || want == "" {
		t.Errorf("the program prints %q on the rewritten JDK, %q on the stock one", got, want)
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestRewriteJarsVerify rewrites guava and commons-lang3 with recomputed
// frames and loads every class with -Xverify:all.
func TestRewriteJarsVerify(t *testing.T) {
	home := jvmtest.JavaHome(t)
	weft := buildWeft(t)
	loader := jvmtest.Compile(t, map[string]string{"LoadAll.java": loadAllSource})
	for _, jar := range []string{"/usr/share/java/guava.jar", "/usr/share/java/commons-lang3.jar"} {
		if _, err := os.Stat(jar); err != nil {
			t.Fatalf("%v: install libguava-java and libcommons-lang3-java (bash .ci/run does)", err)
		}
		out := filepath.Join(t.TempDir(), filepath.Base(jar))
		weftRewrite(t, weft, home, jar, out)

		src, err := classpath.OpenJar(jar)
		if err != nil {
			t.Fatal(err)
		}
		var list []string
		src.Walk(func(e classpath.ClassEntry) error {
			if !strings.HasPrefix(e.Path, "META-INF/") && !strings.HasSuffix(e.Path, "module-info.class") {
				list = append(list, "- "+binaryName(e.Path))
			}
			return nil
		})
		src.Close()
		listFile := writeList(t, list)
		sep := string(os.PathListSeparator)
		stockOut, _ := jvmtest.Run(t, jvmtest.QuickArgs("-Xverify:all", "-cp", loader+sep+jar, "LoadAll", listFile)...)
		newOut, _ := jvmtest.Run(t, jvmtest.QuickArgs("-Xverify:all", "-cp", loader+sep+out, "LoadAll", listFile)...)
		compareLoads(t, filepath.Base(jar), parseLoadAll(t, stockOut), parseLoadAll(t, newOut), len(list))
	}
}
