package weaver

import (
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/framecheck"
)

// TestHandFramesMatchAnalysis weaves programs that make every kind of
// sister method whose frames the weaver writes by hand (static parts: the
// table read, the miss, the switch and the parts source; helpers, their
// entry guard in JDK mode; the static initializer of an all-leaf weaving)
// and runs the frame analysis over each: its frames must be the hand
// written ones, at the same offsets with the same types. Equal, not only
// compatible: the methods are small, every hand frame is at a join the
// analysis needs a frame at, and its types are those the code leaves
// there, so a difference is a hand frame gone stale.
func TestHandFramesMatchAnalysis(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    public static void hit(int id) {}
    public static void part(weft.rt.JoinPointStaticPart sp) {}
}`,
		"app/Main.java": `package app;
public class Main {
    final int n;
    Main(int n) { super(); this.n = n; }
    int get() { return n; }
    static long mix(long a, double b, String s) { return a + s.length(); }
    public static void main(String[] args) { System.out.println(new Main((int) mix(1, 2, "x")).get()); }
}`}
	hit := adv(advice.Before, 0, "hit", "(I)V", val(advice.JoinPointID, 0, "I"))
	after := adv(advice.AfterReturning, 1, "hit", "(I)V", val(advice.JoinPointID, 0, "I"))
	part := adv(advice.Before, 2, "part", "(Lweft/rt/JoinPointStaticPart;)V", jpv)
	leafHit, leafAfter := *hit, *after
	leafHit.Leaf, leafAfter.Leaf = true, true
	weavings := []struct {
		name  string
		mode  Mode
		rules testMatcher
	}{
		{"static parts and helpers", App, testMatcher{
			{kind: advice.MethodExecution, owner: "app/Main", adv: hit},
			{kind: advice.MethodExecution, owner: "app/Main", name: "get|mix", adv: after},
			{kind: advice.MethodCall, owner: "app/Main", adv: part},
			{kind: advice.ConstructorExecution, owner: "app/Main", adv: part},
		}},
		{"JDK mode's fused entry", JDK, testMatcher{
			{kind: advice.ConstructorExecution, owner: "app/Main", adv: hit},
			{kind: advice.MethodExecution, owner: "app/Main", adv: hit},
			{kind: advice.MethodExecution, owner: "app/Main", name: "mix", adv: after},
		}},
		{"all leaf", App, testMatcher{
			{kind: advice.MethodExecution, owner: "app/Main", adv: &leafHit},
			{kind: advice.MethodExecution, owner: "app/Main", name: "get", adv: &leafAfter},
		}},
	}
	checked := map[string]int{} // frames compared, by sister method name
	for _, w := range weavings {
		_, res := compileWeave(t, w.mode, src, w.rules)
		h := classpath.NewHierarchy(classpath.NewDirSource(res.Name), mustJDK(t))
		paths, err := filepath.Glob(filepath.Join(res.Name, "app", "*"+SisterSuffix+".class"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: no sister class (%v)", w.name, err)
		}
		for _, p := range paths {
			c := readClass(t, p)
			for _, m := range c.Methods {
				n, err := framecheck.Method(c, m, h)
				if err != nil {
					t.Errorf("%s: %v", w.name, err)
				}
				checked[c.MemberName(m)] += n
			}
		}
	}
	// Each generator's frames were compared: the table read, the miss and
	// the switch (sister.go), the parts source (parts.go), the leaf
	// initializer's handler and its direct test (leaf.go), the helpers'
	// (sister.go) and the entry guard's (fused.go).
	for _, name := range []string{partsMethod, missMethod, switchMethod, "apply", "<clinit>", "a0"} {
		if checked[name] == 0 {
			t.Errorf("no frame of a sister method %s compared: %v", name, checked)
		}
	}
}
