package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

const collectSrc = `import java.io.*;
import java.util.*;
public class Collect {
    public static void main(String[] args) throws Exception {
        Map<String, Integer> m = new HashMap<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        for (String l; (l = r.readLine()) != null; ) m.merge(l, 1, Integer::sum);
        System.out.println(new TreeMap<>(m));
        System.exit(m.size());
    }
}
`

// TestRunAllocTracker runs examples/alloc through `weft run` twice on a
// program using java.util collections: the tracker reports allocations
// made inside the JDK (java.util.HashMap$Node) although its own advice
// allocates; stdin, stdout and the exit code pass through; the second run
// does no weaving. It runs the stock JDK with patches (--patches):
// cmd/weft's TestRunLaunchers runs the image.
func TestRunAllocTracker(t *testing.T) {
	weft := buildWeft(t)
	rtDir := t.TempDir()
	classes, err := rtjava.Build(jvmtest.JavaHome(t), "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(rtDir, "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, classes); err != nil {
		t.Fatal(err)
	}
	tracker, err := os.ReadFile("../examples/alloc/alloc/Tracker.java")
	if err != nil {
		t.Fatal(err)
	}
	adv := jvmtest.Compile(t, map[string]string{"alloc/Tracker.java": string(tracker)}, "-cp", rtJar)
	app := jvmtest.Compile(t, map[string]string{"Collect.java": collectSrc})
	cache := t.TempDir()
	run := func() (stdout, stderr string, code int) {
		cmd := exec.Command(weft, "run", "-a", "../examples/alloc/alloc.weft", "--advice-cp", adv,
			"--modules", "java.base", "--patches", "--", jvmtest.Java(t), "-cp", app, "Collect")
		cmd.Env = append(os.Environ(), "WEFT_CACHE="+cache)
		cmd.Stdin = strings.NewReader("b\na\nb\nc\n")
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}
	out, stderr, code := run()
	if out != "{a=1, b=2, c=1}\n" || code != 3 {
		t.Errorf("first run: stdout %q, exit %d; stderr:\n%s", out, code, stderr)
	}
	if !strings.Contains(stderr, "weft: weaving the JDK") || !strings.Contains(stderr, "weft: weaving the class path") {
		t.Errorf("first run did not weave:\n%s", stderr)
	}
	if !strings.Contains(stderr, "java.util.HashMap$Node") || !strings.Contains(stderr, "alloc: top sites:") {
		t.Errorf("the tracker did not report HashMap$Node allocations:\n%s", stderr)
	}
	out2, stderr2, code2 := run()
	if out2 != out || code2 != code {
		t.Errorf("second run: stdout %q exit %d", out2, code2)
	}
	if strings.Contains(stderr2, "weft: weaving") || !strings.Contains(stderr2, "java.util.HashMap$Node") {
		t.Errorf("second run wove again or did not track:\n%s", stderr2)
	}

	// -jar: the jar is woven into the cache and run from there.
	jar := filepath.Join(t.TempDir(), "collect.jar")
	jvmtest.Jar(t, app, jar, "Collect")
	cmd0 := exec.Command(weft, "run", "-a", "../examples/alloc/alloc.weft", "--advice-cp", adv,
		"--modules", "java.base", "--patches", "--", jvmtest.Java(t), "-jar", jar)
	cmd0.Env = append(os.Environ(), "WEFT_CACHE="+cache)
	cmd0.Stdin = strings.NewReader("x\ny\n")
	var o0, e0 bytes.Buffer
	cmd0.Stdout, cmd0.Stderr = &o0, &e0
	cmd0.Run()
	if o0.String() != "{x=1, y=1}\n" || cmd0.ProcessState.ExitCode() != 2 ||
		strings.Contains(e0.String(), "weft: weaving the JDK") || !strings.Contains(e0.String(), "weft: weaving the class path") ||
		!strings.Contains(e0.String(), "java.util.HashMap$Node") {
		t.Errorf("-jar run: stdout %q, exit %d, stderr:\n%s", o0.String(), cmd0.ProcessState.ExitCode(), e0.String())
	}

	// Signals pass through: SIGTERM to weft reaches java, whose shutdown
	// hook runs, and weft exits as java did (128+15).
	sleeper := jvmtest.Compile(t, map[string]string{"Sleeper.java": sleeperSrc})
	cmd := exec.Command(weft, "run", "-a", "../examples/alloc/alloc.weft", "--advice-cp", adv,
		"--modules", "java.base", "--patches", "--", jvmtest.Java(t), "-cp", sleeper, "Sleeper")
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+cache)
	var o bytes.Buffer
	cmd.Stdout = &o
	pr, pw, _ := os.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	// Wait until the program is up (it says so on stderr), then signal weft.
	buf := make([]byte, 4096)
	var errOut strings.Builder
	for !strings.Contains(errOut.String(), "sleeping") {
		n, err := pr.Read(buf)
		if err != nil {
			t.Fatalf("sleeper ended early: %v\n%s", err, errOut.String())
		}
		errOut.Write(buf[:n])
	}
	cmd.Process.Signal(syscall.SIGTERM)
	go io.Copy(io.Discard, pr)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(o.String(), "bye") {
		t.Errorf("after SIGTERM: exit %d, stdout %q; want 143 and the shutdown hook's bye", code, o.String())
	}
}

const sleeperSrc = `public class Sleeper {
    public static void main(String[] args) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("bye")));
        System.err.println("sleeping");
        Thread.sleep(60_000);
        System.out.println("woke up");
    }
}
`

// TestJDKCommand runs `weft jdk` on java.base: it writes the patch jar, the
// argfile and the summary, lists the advised intrinsic candidates, and the
// JVM runs on the result under -Xverify:all.
func TestJDKCommand(t *testing.T) {
	weft := buildWeft(t)
	src, err := os.ReadFile("../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if b, err := exec.Command(weft, "runtime", "-o", rtJar).CombinedOutput(); err != nil {
		t.Fatalf("weft runtime: %v\n%s", err, b)
	}
	adv := jvmtest.Compile(t, map[string]string{"count/Counter.java": string(src)}, "-cp", rtJar)
	out := t.TempDir()
	cmd := exec.Command(weft, "jdk", "-a", "../examples/count/count.weft", "--advice-cp", adv, "--modules", "java.base", "-o", out)
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+t.TempDir())
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("weft jdk: %v\n%s", err, b)
	}
	msg := string(b)
	if !strings.Contains(msg, "intrinsic candidates") || !strings.Contains(msg, "java/lang/Math.") {
		t.Errorf("weft jdk does not list the advised intrinsics:\n%.2000s", msg)
	}
	if strings.Contains(msg, "\r") {
		t.Error("progress bar drawn although stderr is not a terminal")
	}
	var sum struct {
		Modules map[string]struct{ Classes, ClassesWoven, MethodsWoven int }
		Unwoven []any
		NextID  int `json:"nextId"`
	}
	sb, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sb, &sum); err != nil {
		t.Fatal(err)
	}
	base := sum.Modules["java.base"]
	if len(sum.Modules) != 1 || base.ClassesWoven < 5000 || base.MethodsWoven < 40000 || sum.NextID < base.MethodsWoven || len(sum.Unwoven) != 0 {
		t.Errorf("summary: %+v", sum)
	}
	if _, err := os.Stat(filepath.Join(out, "patch", "java.base.jar")); err != nil {
		t.Error(err)
	}
	_, stderr := jvmtest.Run(t, "-Xverify:all", "@"+filepath.Join(out, "weft.args"), "-Dcount.quiet=1", "-version")
	if !strings.Contains(stderr, "openjdk version") {
		t.Errorf("java -version on the woven java.base: %s", stderr)
	}

	// On a terminal (script(1) gives it one), a progress bar is drawn.
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("script(1) (util-linux) is needed to give weft a terminal: %v", err)
	}
	line := strings.Join([]string{weft, "jdk", "-a", "../examples/count/count.weft", "--advice-cp", adv,
		"--modules", "java.base", "-o", t.TempDir()}, " ")
	cmd = exec.Command(script, "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+t.TempDir())
	b, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("weft jdk on a terminal: %v\n%.2000s", err, b)
	}
	if !strings.Contains(string(b), "\rweaving [") || !strings.Contains(string(b), " classes ") {
		t.Errorf("no progress bar on a terminal:\n%.1000q", b)
	}
}
