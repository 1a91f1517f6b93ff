package weaver

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// TestGuavaWovenRuns weaves all of guava with every shadow kind and advice
// kind (testdata/guava/all.weft: executions before and after, calls after
// returning, constructor and array calls after throwing), links every
// woven and sister class under -Xverify:all, and runs a multi-threaded
// program using it: same output as unwoven, and the counter saw guava's
// join points.
func TestGuavaWovenRuns(t *testing.T) {
	t.Parallel() // see jdkOnce
	const guava = "/usr/share/java/guava.jar"
	if _, err := os.Stat(guava); err != nil {
		t.Fatalf("%s missing: apt-get install -y libguava-java", guava)
	}
	home := jvmtest.JavaHome(t)
	src := runtimeSources()
	src["weft/tools/count/Counter.java"] = string(must(os.ReadFile("../examples/count/Counter.java")))
	adv := jvmtest.Compile(t, src)
	prog := jvmtest.Compile(t, map[string]string{"G.java": string(must(os.ReadFile("testdata/guava/G.java"))),
		"Link.java": string(must(os.ReadFile("testdata/guava/Link.java")))}, "-cp", guava, "-nowarn")

	g, err := classpath.OpenSource(guava, home)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	h := HierarchyOf(g, mustJDK(t))
	f, err := pointcut.ParseFile("all.weft", must(os.ReadFile("testdata/guava/all.weft")))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: adv, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "guava.jar")
	st, err := New(p, p.Advice(), Options{Hierarchy: h}).WeavePath(guava, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) > 0 || st.Woven < 1500 {
		t.Errorf("woven %d classes; warnings: %v", st.Woven, st.Warnings)
	}
	rt, err := rtjava.Build(home, "")
	if err != nil {
		t.Fatal(err)
	}
	rtDir := t.TempDir()
	for n, b := range rt {
		os.MkdirAll(filepath.Join(rtDir, filepath.Dir(n)), 0o755)
		os.WriteFile(filepath.Join(rtDir, n+".class"), b, 0o644)
	}
	sep := string(filepath.ListSeparator)
	cp := strings.Join([]string{out, rtDir, adv, prog}, sep)
	link, _ := jvmtest.Run(t, "-Xverify:all", "-Dcount.quiet=1", "-cp", cp, "Link", out)
	if !strings.HasPrefix(link, "ok ") || !strings.Contains(link, " verify 0 other 0 ") {
		t.Errorf("linking the woven jar: %s", link)
	}
	if n, _ := strconv.Atoi(strings.Fields(link + " 0 0")[1]); n < 3500 {
		t.Errorf("linked only %d classes: %s", n, link)
	}
	want, _ := jvmtest.Run(t, "-cp", guava+sep+prog, "G")
	got, stderr := jvmtest.Run(t, "-Xverify:all", "-cp", cp, "G")
	if got != want {
		t.Errorf("woven output:\n%s\nwant:\n%s", got, want)
	}
	m := regexp.MustCompile(`count: (\d+) hits at (\d+) join points`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no count in stderr:\n%s", stderr)
	}
	hits, _ := strconv.Atoi(m[1])
	jps, _ := strconv.Atoi(m[2])
	if hits < 20000 || jps < 1000 {
		t.Errorf("counter saw %d hits at %d join points", hits, jps)
	}
}
