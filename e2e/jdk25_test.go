package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// jdk25Src uses what JDK 17 cannot compile or run the same: a record, a
// sealed interface, a pattern switch, and virtual threads (each calling
// square a known number of times, parking in between).
var jdk25Src = map[string]string{
	"app/Main.java": `package app;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.LockSupport;
public class Main {
    sealed interface Shape permits Square, Circle {}
    record Square(int side) implements Shape {}
    record Circle(int r) implements Shape {}
    static int area(Shape s) {
        return switch (s) {
            case Square q -> square(q.side());
            case Circle c -> 3 * square(c.r());
        };
    }
    static int square(int x) { if (x < 0) throw new IllegalArgumentException("negative " + x); return x * x; }
    public static void main(String[] a) throws Exception {
        if (a.length > 0) square(-1); // weft recrash's crash
        System.out.println(area(new Square(3)) + " " + area(new Circle(2)));
        List<Thread> ts = new ArrayList<>();
        ConcurrentHashMap<Integer, Integer> sums = new ConcurrentHashMap<>();
        for (int i = 0; i < 100; i++) {
            int id = i;
            ts.add(Thread.ofVirtual().start(() -> {
                int s = 0;
                for (int k = 0; k < 10; k++) { s += square(k); LockSupport.parkNanos(1000); }
                sums.put(id, s);
            }));
        }
        for (Thread t : ts) t.join();
        System.out.println(sums.size() + " virtual threads, each " + sums.get(7));
    }
}
`,
}

// TestJDK25 weaves JDK 25's java.base (the counting aspect) and runs a
// program with records, sealed types, a pattern switch and 100 virtual
// threads on it under -Xverify:all: the stock run's output; javac 25 on
// the woven JDK compiles the program into the stock javac's class files;
// weft recrash turns its crash into tests that reproduce it on JDK 25.
func TestJDK25(t *testing.T) {
	j25 := jvmtest.JDK25(t)
	weft := buildWeft(t)
	adv := countAdvice(t, weft)
	woven := t.TempDir()
	cmd := exec.Command(weft, "jdk", "-a", "../examples/count/count.weft", "--advice-cp", adv, "--modules", "java.base",
		"--java-home", j25, "-o", woven)
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+newCache(t))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("weft jdk --java-home %s: %v\n%s", j25, err, b)
	}

	srcDir := t.TempDir()
	for name, text := range jdk25Src {
		p := filepath.Join(srcDir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(srcDir, "app", "Main.java")
	javac := filepath.Join(j25, "bin", "javac")
	stockClasses, wovenClasses := t.TempDir(), t.TempDir()
	if b, err := exec.Command(javac, "-d", stockClasses, src).CombinedOutput(); err != nil {
		t.Fatalf("javac 25: %v\n%s", err, b)
	}
	jargs, err := os.ReadFile(filepath.Join(woven, "weft.jargs"))
	if err != nil {
		t.Fatal(err)
	}
	args := append(strings.Fields(string(jargs)), "-J-Xverify:all", "-d", wovenClasses, src)
	if b, err := exec.Command(javac, args...).CombinedOutput(); err != nil || !strings.Contains(string(b), " hits at ") {
		t.Fatalf("javac 25 on the woven JDK: %v\n%s", err, b)
	}
	for _, c := range []string{"Main", "Main$Shape", "Main$Square", "Main$Circle"} {
		s, err1 := os.ReadFile(filepath.Join(stockClasses, "app", c+".class"))
		w, err2 := os.ReadFile(filepath.Join(wovenClasses, "app", c+".class"))
		if err1 != nil || err2 != nil || !bytes.Equal(s, w) {
			t.Errorf("javac 25 on the woven JDK wrote another app/%s.class (%v %v)", c, err1, err2)
		}
	}

	java := filepath.Join(j25, "bin", "java")
	want, err := exec.Command(java, "-cp", stockClasses, "app.Main").Output()
	if err != nil || string(want) != "9 12\n100 virtual threads, each 285\n" {
		t.Fatalf("stock JDK 25: %q %v", want, err)
	}
	run := exec.Command(java, "-Xverify:all", "@"+filepath.Join(woven, "weft.args"), "-cp", stockClasses, "app.Main")
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil || stdout.String() != string(want) || !strings.Contains(stderr.String(), " hits at ") {
		t.Errorf("woven JDK 25: %v, stdout %q, stderr:\n%s", err, stdout.String(), stderr.String())
	}

	// weft recrash of a program on JDK 25: its tests are compiled and run
	// by JDK 25 (they were by the default JDK, which refused class files
	// of version 69).
	crash := filepath.Join(t.TempDir(), "crash")
	rc := exec.Command(weft, "recrash", "-o", crash, "--", java, "-cp", stockClasses, "app.Main", "crash")
	rc.Env = append(os.Environ(), "WEFT_CACHE="+newCache(t))
	b, _ := rc.CombinedOutput()
	if !strings.Contains(string(b), "Crash1_0_Main_squareTest  reproduces it from app.Main.square(int)") {
		t.Errorf("weft recrash on JDK 25:\n%s", b)
	}
}
