package weaver

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

const partsAdvice = `package adv;
public class P {
    public static long n;
    public static void sp(weft.rt.JoinPointStaticPart sp) { n += sp.getId(); }
    public static void jp(weft.rt.JoinPoint jp) { n += jp.getArgs().length; }
}
`

const partsMain = `package app;
public class Main {
    static int hot(int x) { return x + 1; }
    static int cold(int x) { return x - 1; }
    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 300_000; i++) s += hot(i);
        if (args.length > 0) s += cold(s); // never runs: its static part stays unresolved
        System.out.println(s);
    }
}
`

// The JIT compiles the sister method that loads static parts although some
// static parts of the class are never loaded. It used to hold an ldc of
// every static part, and C2 does not parse a method with an unresolved
// dynamic constant: it stayed interpreted, and advice passing
// thisJoinPointStaticPart or thisJoinPoint ran ~100 times slower than
// advice passing joinPointId. Then it was a switch calling one method per
// static part, which C1 gave up on (it inlines the unresolved ldc) and
// C2 compiled late, if at all, in a class with many join points: it is now
// a table read that C1 compiles and both compilers inline into the helper.
func TestStaticPartsCompile(t *testing.T) {
	t.Parallel() // see jdkOnce
	aspect := `aspect P {
    before(): call(* app.Main.*(int)) { adv.P.sp(thisJoinPointStaticPart); }
    before(): execution(* app.Main.*(int)) { adv.P.jp(thisJoinPoint); }
}`
	out, dir := weaveAspect(t, map[string]string{"adv/P.java": partsAdvice, "app/Main.java": partsMain}, aspect, "app.Main")
	if out != "2050477040\n" {
		t.Errorf("output %q", out)
	}
	src := runtimeSources()
	src["adv/P.java"] = partsAdvice
	adv := jvmtest.Compile(t, src)
	comp, _ := jvmtest.Run(t, "-Xbatch", "-XX:+PrintCompilation", "-cp", dir+string(filepath.ListSeparator)+adv, "app.Main")
	// e.g. "    457  139       3       app.Main$weft$jp::jp (23 bytes)"
	tiered := regexp.MustCompile(`^\s*\d+\s+\d+\s+[%sbn! ]*\s([34])\s+app\.Main\$weft\$jp::(\w+) .*$`)
	compiled := map[string]bool{}
	for _, l := range strings.Split(comp, "\n") {
		m := tiered.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		skipped := strings.Contains(l, "COMPILE SKIPPED")
		switch {
		case skipped && m[1] == "4":
			t.Errorf("C2 does not compile a sister method: %s", strings.TrimSpace(l))
		case skipped && m[2] == partsMethod:
			t.Errorf("C1 does not compile the sister's jp method: %s", strings.TrimSpace(l))
		case !skipped:
			compiled[m[1]+" "+m[2]] = true
		}
	}
	if !compiled["3 "+partsMethod] {
		t.Errorf("C1 did not compile the sister's jp method; compilations:\n%s", comp)
	}
	if !compiled["4 a0"] || !compiled["4 a1"] {
		t.Errorf("C2 did not compile the helpers; compilations:\n%s", comp)
	}
}
