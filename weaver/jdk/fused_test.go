package jdk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver"
)

// mainRules matches, in class app/Main, its constructors and methods get,
// twice and inner with before advice, and twice with after returning
// advice too.
type mainRules struct{ before, after *advice.Advice }

func (r mainRules) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Member.Owner != "app/Main" {
		return nil
	}
	var out []advice.Applied
	switch {
	case s.Kind == advice.ConstructorExecution:
		out = append(out, advice.Applied{Advice: r.before, Verdict: advice.Always})
	case s.Kind == advice.MethodExecution && strings.Contains(" get twice inner ", " "+s.Member.Name+" "):
		out = append(out, advice.Applied{Advice: r.before, Verdict: advice.Always})
		if s.Member.Name == "twice" {
			out = append(out, advice.Applied{Advice: r.after, Verdict: advice.Always})
		}
	}
	return out
}

// TestFusedEntryRuns runs classes woven in JDK mode, whose methods start
// with an entry helper (weaver/fused.go), their sister's or, with
// SharedEntries, weaver.SharedClass's, on java.base patched
// as a woven JDK's is (Thread's flag, BIB set at the end of initPhase3),
// under -Xverify:all: a constructor, a method with before advice and one
// with after returning advice too run their advice exactly once each;
// code the advice runs (inner) and code run with the thread's flag set
// run none, before or after; the advice gets the absolute join point ids.
func TestFusedEntryRuns(t *testing.T) {
	home := jvmtest.JavaHome(t)
	classes := jvmtest.Compile(t, map[string]string{
		"adv/Log.java": `package adv;
public class Log {
    static final StringBuilder SB = new StringBuilder();
    public static void before(int id) { SB.append(" b").append(id); app.Main.inner(); }
    public static void after(int id) { SB.append(" a").append(id); }
    public static String report() { return SB.toString(); }
}`,
		"app/Main.java": `package app;
import java.lang.reflect.Field;
public class Main {
    final int n;
    Main(int n) { super(); this.n = n; }
    int get() { return n; }
    int twice(int k) { return 2 * k; }
    public static int inner() { return 1; }
    public static void main(String[] a) throws Exception {
        Field flag = Thread.class.getField("weft$dib");
        Main m = new Main(3);
        int s = m.get() + m.twice(2) + inner();
        flag.setBoolean(Thread.currentThread(), true);
        int b = m.get() + m.twice(5) + new Main(1).n + inner();
        flag.setBoolean(Thread.currentThread(), false);
        System.out.println(s + " " + b + adv.Log.report());
    }
}`}, "-g")

	// java.base's patch: the runtime, Thread with the flag and System
	// calling BIB.setReady.
	rt, err := BuildRuntime(home, runtimeCache(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, patchClass := range map[string]func([]byte) ([]byte, error){
		"java/lang/System": PatchSystem, "java/lang/Thread": PatchThread} {
		b, err := BaseClass(home, name)
		if err != nil {
			t.Fatal(err)
		}
		if rt[name], err = patchClass(b); err != nil {
			t.Fatal(err)
		}
	}
	patch := t.TempDir()
	for name, b := range rt {
		writeClass(t, patch, name, b)
	}

	for _, shared := range []bool{false, true} {
		runFused(t, home, patch, classes, shared)
	}
}

// runFused weaves app/Main of classes (a copy) in JDK mode, with entry
// helpers shared or not, and runs it with java.base patched by patch.
func runFused(t *testing.T, home, patch, compiled string, shared bool) {
	t.Helper()
	classes := t.TempDir()
	for _, name := range []string{"app/Main", "adv/Log"} {
		b, err := os.ReadFile(filepath.Join(compiled, filepath.FromSlash(name)+".class"))
		if err != nil {
			t.Fatal(err)
		}
		writeClass(t, classes, name, b)
	}
	before := &advice.Advice{Kind: advice.Before, Aspect: "T", File: "t.weft", Line: 1,
		Method: advice.Method{Owner: "adv/Log", Name: "before", Desc: "(I)V"},
		Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
	after := *before
	after.Kind, after.Line, after.Order, after.Method.Name = advice.AfterReturning, 2, 1, "after"
	img, err := classpath.OpenJDK(home)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	w := weaver.New(mainRules{before, &after}, []*advice.Advice{before, &after}, weaver.Options{Mode: weaver.JDK, SharedEntries: shared, IDBase: 1000,
		Hierarchy: classpath.NewHierarchy(classpath.NewDirSource(classes), img)})
	p := filepath.Join(classes, "app", "Main.class")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.WeaveClass(p, b)
	if err != nil || res.Class == nil || res.MethodsWoven != 4 {
		t.Fatalf("weaving app/Main: %v (methods woven: %v)", err, res)
	}
	writeClass(t, classes, "app/Main", res.Class)
	for name, x := range res.Extra {
		writeClass(t, classes, name, x)
	}

	patches := patch
	if shared {
		// The shared helpers go to java.base, after the rest of its patch.
		b, err := w.SharedClass()
		if err != nil || b == nil {
			t.Fatalf("shared helpers: %v (class %d bytes)", err, len(b))
		}
		sh := t.TempDir()
		writeClass(t, sh, weaver.SharedClass, b)
		patches = sh + string(os.PathListSeparator) + patch
		if !strings.Contains(string(res.Class), weaver.SharedClass) {
			t.Errorf("woven app/Main does not call %s", weaver.SharedClass)
		}
	}
	out, _ := jvmtest.Run(t, "--patch-module", "java.base="+patches, "--add-exports", "java.base/weft.rt=ALL-UNNAMED",
		"--add-reads", "java.base=ALL-UNNAMED", "-Xbootclasspath/a:"+classes, "-Xverify:all", "app.Main")
	// The advice and the program are on the boot class path, as advice is
	// in a woven JDK. new Main(3), get, twice (before and after), inner:
	// one each; none with the flag set, none inside the advice (which
	// calls inner).
	id := map[string]int32{}
	for _, s := range res.Shadows {
		id[s.Member.Name] = s.ID
	}
	want := fmt.Sprintf("8 15 b%d b%d b%d a%d b%d\n", id["<init>"], id["get"], id["twice"], id["twice"], id["inner"])
	if out != want || id["<init>"] < 1000 {
		t.Errorf("shared %v: output %q, want %q (the absolute ids, from 1000)", shared, out, want)
	}
}

func writeClass(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name)+".class")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
