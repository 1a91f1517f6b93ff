package weaver

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestKindsAgainstAspectJ compares, on commons-lang3 woven with handler,
// staticinitialization, preinitialization and initialization advice
// written for ajc (KindsDiff.aj) and for weft (kindsdiff.weft), the join
// points advised, join point for join point, except the
// (pre)initialization join points ajc gives constructors calling
// this(...) by inlining them (docs/language.md); and the run of the
// exercise program on the unwoven, the ajc-woven and the weft-woven jar:
// the same output, the same advice counts. (The jar is woven once for the
// tests over commons-lang3: lang3Woven.)
func TestKindsAgainstAspectJ(t *testing.T) {
	w := lang3Woven(t)
	want, got := w.ajc["KindsDiff"], w.weft["KindsDiff"]

	// ajc's line for an initialization join point depends on its
	// inlining of this(...) constructors and on the other shadows of the
	// constructor: compare those without it.
	want, got = initLineless(want), initLineless(got)
	delegating := thisCallingCtors(t, lang3Jar)
	perAdvice := advicePerLine(want, false)
	missing, extra, nIntentional := weaveInfoDiff(want, got, func(l string, ajcOnly bool) bool {
		i := strings.Index(l, "initialization(void ")
		return ajcOnly && i > 0 && strings.HasPrefix(l, "Join point '") &&
			delegating[l[i+len("initialization(void "):strings.Index(l, ")' in Type")]]
	})
	if d := os.Getenv("WEFT_DUMP"); d != "" {
		os.WriteFile(d, []byte(strings.Join(missing, "\n")+"\n====\n"+strings.Join(extra, "\n")), 0o644)
	}
	t.Logf("ajc: %d distinct weave-info lines, weft: %d (%d ajc-only by design, %d constructors call this(...)); per advice: %v",
		len(want), len(got), nIntentional, len(delegating), perAdvice)
	for line := 2; line <= 7; line++ {
		if k := "(line " + string(rune('0'+line)) + ")"; perAdvice[k] == 0 {
			t.Errorf("ajc applied the advice of line %d nowhere", line)
		}
	}
	reportWeaveInfoDiff(t, missing, extra)

	w.checkProgram(t)
	ajCounts, weftCounts := w.aj.counts["KindsCounter"], w.wf.counts["KindsCounter"]
	if ajCounts != weftCounts {
		t.Errorf("advice counts differ: ajc %s, weft %s", ajCounts, weftCounts)
	}
	t.Logf("advice counts: ajc %s, weft %s", ajCounts, weftCounts)
}

var initLineRE = regexp.MustCompile(`^(Join point 'initialization\(.*\)' in Type '[^']*' \([^:)]*):[0-9]+\)`)

// initLineless drops the line number of the initialization join points
// of weave-info lines.
func initLineless(set map[string]int) map[string]int {
	out := map[string]int{}
	for l, n := range set {
		out[initLineRE.ReplaceAllString(l, "$1)")] += n
	}
	return out
}

// thisCallingCtors returns the constructors of the jar's classes that
// call this(...), as AspectJ writes their signatures
// ("pkg.C.<init>(int)").
func thisCallingCtors(t *testing.T, jar string) map[string]bool {
	t.Helper()
	src, err := classpath.OpenSource(jar, jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	out := map[string]bool{}
	err = src.Walk(func(e classpath.ClassEntry) error {
		data, err := e.Read()
		if err != nil {
			return err
		}
		c, err := classfile.Parse(e.Path, data)
		if err != nil {
			return err
		}
		for _, m := range c.Methods {
			if c.MemberName(m) != "<init>" {
				continue
			}
			code, err := classfile.DecodeCode(c, m)
			if err != nil || code == nil {
				continue
			}
			news := 0
			for _, in := range code.Insns {
				if in.Op == classfile.OpNew {
					news++
				}
				if in.Op != classfile.OpInvokespecial {
					continue
				}
				owner, mname, _ := c.Pool.MemberRef(in.Index)
				if mname != "<init>" {
					continue
				}
				if news > 0 {
					news--
					continue
				}
				if owner == c.Name() {
					sig := Signature(advice.ConstructorExecution, advice.Member{Owner: owner, Name: "<init>", Desc: c.MemberDesc(m)})
					out[strings.TrimPrefix(sig, "void ")] = true
				}
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
