package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// diffAspect is an aspect of the differential tests over commons-lang3,
// written for ajc and for weft, counting with its own counter class.
type diffAspect struct {
	name, aj, weft, counter string
}

// lang3Aspects are woven into commons-lang3 together, by ajc and by weft:
// one ajc run (the slowest step of each test) and one exercise run per jar
// serve TestAgainstAspectJ, TestFieldsAgainstAspectJ,
// TestKindsAgainstAspectJ and TestCflowAgainstAspectJOnLang3, which each
// compare the lines of their aspect.
// Diff.aj excludes the other aspects' code from its join points, so that
// each counter counts in the library only, as the weft side does.
var lang3Aspects = []diffAspect{
	{"Diff", "Diff.aj", "diff.weft", "Counter"},
	{"FieldDiff", "FieldDiff.aj", "fielddiff.weft", "FieldCounter"},
	{"KindsDiff", "KindsDiff.aj", "kindsdiff.weft", "KindsCounter"},
	{"CflowDiff", "CflowDiff.aj", "cflowdiff.weft", "CflowCounter"},
}

// lang3Diff is commons-lang3 woven by ajc and by weft with lang3Aspects,
// and testdata/diff/Exercise run on the unwoven and both woven jars.
type lang3Diff struct {
	ajc, weft     map[string]map[string]int // aspect name → its normalized weave-info lines
	warnings      []string                  // weft's, weaving all the aspects
	plain, aj, wf exerciseRun
}

var (
	lang3Once sync.Once
	lang3     *lang3Diff
)

// lang3Woven weaves commons-lang3 with lang3Aspects, once for the tests
// that compare them; a failure fails the test that first asked, and the
// others with it.
func lang3Woven(t *testing.T) *lang3Diff {
	t.Helper()
	lang3Once.Do(func() { lang3 = weaveLang3(t) })
	if lang3 == nil {
		t.Fatal("weaving commons-lang3 with ajc and weft failed (in the first test that asked: see its log)")
	}
	for _, w := range lang3.warnings {
		t.Errorf("weft warning: %s", w)
	}
	return lang3
}

func weaveLang3(t *testing.T) *lang3Diff {
	for _, f := range []string{ajcPath, aspectjrt, lang3Jar} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ)
		}
	}
	jvmtest.JavaHome(t) // fails the test without a JDK
	adv := diffAdvice(t)
	tmp := t.TempDir()
	var ajFiles []string
	var weftFiles []aspectFile
	for _, a := range lang3Aspects {
		ajFiles = append(ajFiles, filepath.Join(diffFolder, a.aj))
		text, err := os.ReadFile(filepath.Join(diffFolder, a.weft))
		if err != nil {
			t.Fatal(err)
		}
		weftFiles = append(weftFiles, aspectFile{a.weft, text})
	}
	ajOut, weftOut := filepath.Join(tmp, "ajc.jar"), filepath.Join(tmp, "weft.jar")
	ajInfo := normalizeInfo(ajcWeave(t, lang3Jar, ajOut, adv, ajFiles, "-Xjoinpoints:arrayconstruction"))
	weftInfo, warnings := weftWeave(t, lang3Jar, weftOut, adv, weftFiles...)
	d := &lang3Diff{ajc: map[string]map[string]int{}, weft: map[string]map[string]int{}, warnings: warnings}
	for _, a := range lang3Aspects {
		d.ajc[a.name], d.weft[a.name] = adviceOf(ajInfo, a.name), adviceOf(weftInfo, a.name)
	}
	d.plain, d.aj, d.wf = runExercises(t, adv, ajOut, weftOut)
	return d
}

// adviceOf keeps the weave-info lines of the aspect's advice, but those at
// join points in the code of an aspect (ajc compiles the aspects it weaves
// with; weft's aspects are no classes).
func adviceOf(info map[string]int, aspect string) map[string]int {
	out := map[string]int{}
	for l, n := range info {
		if !strings.Contains(l, " advice from '"+aspect+"' ") {
			continue
		}
		inAspect := false
		for _, a := range lang3Aspects {
			inAspect = inAspect || strings.Contains(l, " in Type '"+a.name+"' ")
		}
		if !inAspect {
			out[l] = n
		}
	}
	return out
}

// checkProgram fails t if the exercise printed other than on the unwoven
// jar when woven by ajc or by weft.
func (d *lang3Diff) checkProgram(t *testing.T) {
	t.Helper()
	if d.aj.prog != d.plain.prog || d.wf.prog != d.plain.prog {
		t.Errorf("program output differs:\nunwoven:\n%s\najc:\n%s\nweft:\n%s", d.plain.prog, d.aj.prog, d.wf.prog)
	}
}
