package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestJDKCommand runs `weft jdk` on java.base: it writes the patch jar, the
// argfile and the summary, lists the advised intrinsic candidates, and the
// JVM runs on the result under -Xverify:all.
func TestJDKCommand(t *testing.T) {
	weft := buildWeft(t)
	adv := countAdvice(t, weft)
	out := t.TempDir()
	cmd := exec.Command(weft, "jdk", "-a", "../examples/count/count.weft", "--advice-cp", adv, "--modules", "java.base", "-o", out)
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+newCache(t))
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

	// On a terminal (script(1) gives it one), a progress bar is drawn
	// (java.logging: a small module is enough to draw it).
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("script(1) (util-linux) is needed to give weft a terminal: %v", err)
	}
	line := strings.Join([]string{weft, "jdk", "-a", "../examples/count/count.weft", "--advice-cp", adv,
		"--modules", "java.logging", "-o", t.TempDir()}, " ")
	cmd = exec.Command(script, "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+newCache(t))
	b, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("weft jdk on a terminal: %v\n%.2000s", err, b)
	}
	if !strings.Contains(string(b), "\rweaving [") || !strings.Contains(string(b), " classes ") {
		t.Errorf("no progress bar on a terminal:\n%.1000q", b)
	}
}

// countAdvice compiles examples/count's Counter against the runtime weft
// writes (weft runtime) and returns the class directory.
func countAdvice(t *testing.T, weft string) string {
	t.Helper()
	src, err := os.ReadFile("../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if b, err := exec.Command(weft, "runtime", "-o", rtJar).CombinedOutput(); err != nil {
		t.Fatalf("weft runtime: %v\n%s", err, b)
	}
	return jvmtest.Compile(t, map[string]string{"weft/tools/count/Counter.java": string(src)}, "-cp", rtJar)
}
