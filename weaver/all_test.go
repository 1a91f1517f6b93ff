package weaver

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// allProgram returns the All.java torture program with its goto_w body.
func allProgram(t *testing.T) map[string]string {
	b, err := os.ReadFile("testdata/All.java")
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := os.ReadFile("testdata/Cnt.java")
	if err != nil {
		t.Fatal(err)
	}
	// 4,000 calls: 12 KB in the original, 44 KB in the woven copy (call,
	// token, id, helper call), so the `if` over them must become goto_w
	// there.
	big := strings.Repeat("v();\n", 4000)
	return map[string]string{
		"app/All.java": strings.Replace(string(b), "BIG", big, 1),
		"adv/Cnt.java": string(cnt),
	}
}

func cnt(k advice.Kind, order int, name, desc string, args ...advice.Value) *advice.Advice {
	a := adv(k, order, name, desc, args...)
	a.Method.Owner = "adv/Cnt"
	return a
}

// TestEveryShadowAndAdviceKind weaves before, after returning, after
// throwing and after advice at every shadow kind of a program that has
// every return type, constructors with this(...) and allocating
// arguments, nested try/catch/finally, synchronized code, switches, a
// default method, lambdas, recursion, thread pools and a branch that must
// become goto_w; it runs the result under -Xverify:all and checks that the
// program's output is unchanged and that every shadow saw balanced advice.
func TestEveryShadowAndAdviceKind(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := allProgram(t)
	id := val(advice.JoinPointID, 0, "I")
	count := func(k advice.Kind, base int) []*advice.Advice {
		switch k {
		case advice.Before:
			return []*advice.Advice{cnt(k, base, "before", "(ILweft/rt/JoinPointStaticPart;)V", id, jpv)}
		case advice.AfterReturning:
			return []*advice.Advice{cnt(k, base, "returned", "(ILweft/rt/JoinPointStaticPart;)V", id, jpv)}
		case advice.AfterThrowing:
			return []*advice.Advice{cnt(k, base, "thrown", "(Ljava/lang/Throwable;ILweft/rt/JoinPointStaticPart;)V", val(advice.Thrown, 0, "Ljava/lang/Throwable;"), id, jpv)}
		}
		return []*advice.Advice{cnt(k, base, "after", "(ILweft/rt/JoinPointStaticPart;)V", id, jpv)}
	}
	var rules testMatcher
	kinds := []advice.ShadowKind{advice.MethodExecution, advice.MethodCall, advice.ConstructorCall,
		advice.ConstructorExecution, advice.ArrayConstruction}
	order := 0
	for _, ak := range []advice.Kind{advice.Before, advice.AfterReturning, advice.AfterThrowing, advice.After} {
		for _, sk := range kinds {
			for _, a := range count(ak, order) {
				// Calls of the advice class itself and the report stay unadvised.
				rules = append(rules, rule{kind: sk, owner: "app/.*|java/.*|\\[.*", name: "[^r].*|<init>|r.*[^t]", notWithin: "app/Report", notCode: "far", adv: a})
			}
		}
		order++
	}
	rules = append(rules,
		rule{kind: advice.MethodCall, code: "far", name: "v", adv: count(advice.Before, 0)[0]},
		rule{kind: advice.MethodCall, within: "app/All", name: "[zbcslfdv]|str|grid|objs", owner: "app/All", notCode: "far",
			adv: cnt(advice.AfterReturning, 10, "val", "(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V", val(advice.Returned, 0, "Ljava/lang/Object;"), jpv)},
		rule{kind: advice.ConstructorCall, owner: "app/Square", within: "app/All",
			adv: cnt(advice.AfterReturning, 11, "val", "(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V", val(advice.Returned, 0, "Ljava/lang/Object;"), jpv)},
		rule{kind: advice.ArrayConstruction, owner: "\\[\\[.*", within: "app/All",
			adv: cnt(advice.Before, 12, "dims", "([I)V", val(advice.ArrayDims, 0, "[I"))},
	)

	// The unwoven run is the reference.
	all := runtimeSources()
	for k, v := range src {
		all[k] = v
	}
	plain := jvmtest.Compile(t, all, "-g")
	want, _ := jvmtest.Run(t, "-cp", plain, "app.All")

	src["app/Report.java"] = `package app;
public class Report { public static void main(String[] a) throws Exception { All.main(a); adv.Cnt.report(); } }`
	out, infos, res := compileWeaveRun(t, src, rules, "app.Report")
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	var prog, report []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "@") {
			report = append(report, l)
		} else {
			prog = append(prog, l)
		}
	}
	if got := strings.Join(prog, "\n"); got != strings.TrimSpace(want) {
		t.Errorf("woven program output:\n%s\nwant:\n%s", got, want)
	}
	rep := strings.Join(report, "\n")
	for _, w := range []string{
		"@val z false", "@val b 2", "@val c b", "@val s 8", "@val l 15", "@val f 1.5", "@val d 6.5", "@val v null",
		"@val str abab", "@val grid int[][]", "@val objs Object[]", "@val <init> app.Square",
		"@dims [2, 3]", "@dims [2, 3]", "@shadows true bad 0", "@threads true",
		"@seen [array-construction/after, array-construction/afterReturning, array-construction/afterThrowing, array-construction/before, " +
			"constructor-call/after, constructor-call/afterReturning, constructor-call/afterThrowing, constructor-call/before, " +
			"constructor-execution/after, constructor-execution/afterReturning, constructor-execution/afterThrowing, constructor-execution/before, " +
			"method-call/after, method-call/afterReturning, method-call/afterThrowing, method-call/before, " +
			"method-execution/after, method-execution/afterReturning, method-execution/afterThrowing, method-execution/before]",
	} {
		if !strings.Contains(rep, w) {
			t.Errorf("advice report lacks %q:\n%s", w, rep)
		}
	}
	// far() must have been woven: its woven copy puts 44 KB of code under
	// one `if`, a branch the encoder can only write as goto_w.
	b, err := os.ReadFile(filepath.Join(res.Name, "app", "All.class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse("All", b)
	if err != nil {
		t.Fatal(err)
	}
	far := c.FindMethod("far", "(I)I")
	code, err := classfile.DecodeCode(c, far)
	if err != nil {
		t.Fatal(err)
	}
	info := c.Attr(far.Attributes, "Code").Info
	length := int(info[4])<<24 | int(info[5])<<16 | int(info[6])<<8 | int(info[7])
	guarded := false
	for _, in := range code.Insns {
		if in.Op == classfile.OpInvokestatic {
			if owner, name, _ := c.Pool.MemberRef(in.Index); owner == "weft/rt/Weft" && name == "enter" {
				guarded = true
			}
		}
	}
	if !guarded || length < 50000 {
		t.Errorf("far() not woven as expected: guard %v, %d bytes", guarded, length)
	}
	kindsSeen := map[string]bool{}
	for _, wi := range infos {
		kindsSeen[wi.Kind.String()] = true
	}
	var ks []string
	for k := range kindsSeen {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if len(ks) != 5 {
		t.Errorf("weave info kinds: %v", ks)
	}
}
