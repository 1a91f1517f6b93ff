package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/flame"
)

// javacCount counts every execution of javac's own code (lambda proxies
// included, woven at load time), for comparing with the profiler's tree.
const javacCount = `aspect JavacCount {
    before(): (execution(* *(..)) || execution(new(..))) && within(com.sun.tools.javac..*) {
        weft.tools.count.Counter.hit(joinPointId);
    }
}
`

// TestProfileJavac profiles javac on a woven JDK (java.base and
// jdk.compiler) with a separate counting aspect woven in the same run:
// the calls of javac's frames in the calling-context tree add up to the
// counting aspect's hits exactly, and the tree holds java.base contexts
// under javac's.
func TestProfileJavac(t *testing.T) {
	weft := buildWeft(t)
	adv := countAdvice(t, weft)
	aspect := filepath.Join(t.TempDir(), "javaccount.weft")
	if err := os.WriteFile(aspect, []byte(javacCount), 0o644); err != nil {
		t.Fatal(err)
	}
	// A small source: javac's own start runs far more executions than
	// the checks need.
	hello := filepath.Join(t.TempDir(), "Hello.java")
	os.WriteFile(hello, []byte(`public class Hello { public static void main(String[] a) { System.out.println(a.length); } }`), 0o644)
	out := filepath.Join(t.TempDir(), "prof")
	classes := t.TempDir()
	cmd := exec.Command(weft, "profile", "-o", out, "--no-time", "--patches", "--modules", "java.base,jdk.compiler",
		"-a", aspect, "--advice-cp", adv, "--", "javac", "-d", classes, hello)
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+newCache(t))
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("weft profile: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(classes, "Hello.class")); err != nil {
		t.Fatalf("javac wrote no class: %v\n%s", err, b)
	}
	m := regexp.MustCompile(`count: (\d+) hits at (\d+) join points`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("no count from the counting aspect:\n%s", b)
	}
	hits, _ := strconv.ParseInt(m[1], 10, 64)

	p := readCCT(t, out)
	var calls float64
	javaUnderJavac := 0
	p.Walk(func(stack []string, n *flame.Node) {
		if strings.HasPrefix(n.Name, "com.sun.tools.javac.") {
			calls += n.Self[0]
		}
		if strings.HasPrefix(n.Name, "java.") && len(stack) > 1 && strings.HasPrefix(stack[len(stack)-2], "com.sun.tools.javac.") {
			javaUnderJavac++
		}
	})
	t.Logf("javac: %d executions counted, %.0f in the tree; %d java.* contexts right under javac's", hits, calls, javaUnderJavac)
	if hits < 10000 || float64(hits) != calls {
		t.Errorf("javac's executions: the counting aspect saw %d, the profile's tree holds %.0f", hits, calls)
	}
	if javaUnderJavac < 100 {
		t.Errorf("only %d java.* contexts under javac's", javaUnderJavac)
	}
}

// readCCT reads the calling-context tree weft profile wrote in out.
func readCCT(t *testing.T, out string) *flame.Profile {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "profile.cct"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := flame.ReadCCT(f, "profile.cct")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
