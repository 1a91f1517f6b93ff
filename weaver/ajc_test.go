package weaver

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

const (
	ajcPath      = "/usr/bin/ajc"
	aspectjrt    = "/usr/share/java/aspectjrt.jar"
	aspectjtools = "/usr/share/java/aspectjtools.jar"
	lang3Jar     = "/usr/share/java/commons-lang3.jar"
	installAJ    = "install the Debian packages aspectj and libcommons-lang3-java (apt-get install -y aspectj libcommons-lang3-java)"
	diffFolder   = "testdata/diff"
)

// adviceLoc is the "from 'Aspect' (file:line)" part, whose file differs.
var adviceLoc = regexp.MustCompile(` advice from '([^']*)' \([^():]*\.(aj|weft):([0-9]+)\)`)

// normalizeInfo keeps the weave-info lines of out, with the advice's file
// name dropped (the .aj and .weft files number their advice alike).
func normalizeInfo(out string) map[string]int {
	set := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "Join point ") {
			continue
		}
		set[adviceLoc.ReplaceAllString(strings.TrimSpace(l), " advice from '$1' (line $3)")]++
	}
	return set
}

// weftOnly reports weave-info lines that weft prints and ajc does not, by
// design (docs/language.md, differences 5 and 17): `*[]` matches arrays of
// arrays too (anewarray of an array class, multianewarray); args(String, ..)
// (advice 7 of Diff.aj) is a run-time test on a first parameter whose type
// is a type variable bounded by Comparable<? super T>, whose erasure
// Comparable may hold a String, where ajc never matches.
func weftOnly(line string) bool {
	if strings.HasPrefix(line, "Join point 'constructor-call(void ") && strings.Contains(line, "[][].<init>(") {
		return true
	}
	return strings.Contains(line, "(java.lang.Comparable") &&
		strings.HasSuffix(line, "advised by before advice from 'Diff' (line 7) [with runtime test]")
}

// ajcOnly reports weave-info lines that ajc prints and weft does not, by
// design (docs/language.md, differences 4): a non-array pattern such as
// `call(org.apache..*.new(..))` selects constructor calls only, while ajc
// also applies it to array construction (advice 5 of Diff.aj).
func ajcOnly(line string) bool {
	return strings.HasPrefix(line, "Join point 'constructor-call(void ") && strings.Contains(line, "[].<init>(") &&
		strings.Contains(line, "advised by after advice from 'Diff' (line 5)")
}

// TestAgainstAspectJ compares, on commons-lang3 woven with six pieces of
// advice written for ajc (Diff.aj) and for weft (diff.weft), the
// -showWeaveInfo lines, and the run of a program exercising the library on
// the unwoven, the ajc-woven and the weft-woven jar: the program's output
// must be the same and the advice counters of both woven runs equal. (The
// jar is woven once for the tests over commons-lang3: lang3Woven.)
func TestAgainstAspectJ(t *testing.T) {
	t.Parallel() // see jdkOnce
	w := lang3Woven(t)
	want, got := w.ajc["Diff"], w.weft["Diff"]

	missing, extra, nIntentional := weaveInfoDiff(want, got, func(l string, ajcOnlyLine bool) bool {
		if ajcOnlyLine {
			return ajcOnly(l)
		}
		return weftOnly(l)
	})
	t.Logf("ajc: %d distinct lines; weft: %d; %d differ by design (docs/language.md)", len(want), len(got), nIntentional)
	if len(want) < 5000 {
		t.Errorf("ajc reported only %d lines: the comparison is vacuous", len(want))
	}
	reportWeaveInfoDiff(t, missing, extra)

	// The exercise on all three.
	if c := w.plain.counts["Counter"]; c != "counts 0 0 0 0 0 0" {
		t.Errorf("unwoven run counted advice: %s", c)
	}
	w.checkProgram(t)
	ajCounts, weftCounts := w.aj.counts["Counter"], w.wf.counts["Counter"]
	t.Logf("advice counts: ajc %s, weft %s", ajCounts, weftCounts)
	// By design, counter e (array construction) also counts arrays of
	// arrays in weft, and counter d does not count arrays in weft.
	aj, wf := strings.Fields(ajCounts), strings.Fields(weftCounts)
	for i, name := range []string{"", "a", "b", "c", "d", "e", "f"} {
		if i == 0 || i >= len(aj) || i >= len(wf) {
			continue
		}
		x, _ := strconv.Atoi(aj[i])
		y, _ := strconv.Atoi(wf[i])
		if name == "e" && y >= x || name == "d" && y <= x {
			continue
		}
		if x != y {
			t.Errorf("advice %s ran %s times woven by ajc, %s by weft", name, aj[i], wf[i])
		}
	}
}

// weaveInfoDiff compares two multisets of weave-info lines: missing holds
// ajc's lines (want) that weft's (got) lack, extra weft's that ajc's lack,
// both sorted. A line byDesign accepts (ajcOnly: a missing line) differs
// by design: it is counted in intentional, not listed. byDesign may be nil.
func weaveInfoDiff(want, got map[string]int, byDesign func(line string, ajcOnly bool) bool) (missing, extra []string, intentional int) {
	for l, n := range want {
		if got[l] < n {
			if byDesign != nil && byDesign(l, true) {
				intentional++
				continue
			}
			missing = append(missing, l)
		}
	}
	for l, n := range got {
		if want[l] < n {
			if byDesign != nil && byDesign(l, false) {
				intentional++
				continue
			}
			extra = append(extra, l)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra, intentional
}

// advicePerLine sums want's counts by the advice's "(line N)" that ends
// each line (" [with runtime test]" dropped where trimTest).
func advicePerLine(want map[string]int, trimTest bool) map[string]int {
	per := map[string]int{}
	for l, n := range want {
		k := l[strings.LastIndex(l, "(line "):]
		if trimTest {
			k = strings.TrimSuffix(k, " [with runtime test]")
		}
		per[k] += n
	}
	return per
}

// reportWeaveInfoDiff fails t with (the first of) the weave-info lines
// only ajc printed (missing) and only weft printed (extra).
func reportWeaveInfoDiff(t *testing.T, missing, extra []string) {
	t.Helper()
	show := func(ls []string) string {
		if len(ls) > 15 {
			ls = append(ls[:15:15], "…")
		}
		return strings.Join(ls, "\n")
	}
	if len(missing) > 0 {
		t.Errorf("%d weave-info lines of ajc that weft lacks:\n%s", len(missing), show(missing))
	}
	if len(extra) > 0 {
		t.Errorf("%d weave-info lines of weft that ajc lacks:\n%s", len(extra), show(extra))
	}
}

// weftWeaveInfo weaves in into out with the aspect (name, text) whose
// advice classes are in adv, and returns its -showWeaveInfo lines
// normalized as normalizeInfo does ajc's. Every woven-class warning fails
// the test when strict.
func weftWeaveInfo(t *testing.T, in, out, name string, text []byte, adv string, strict bool) map[string]int {
	t.Helper()
	info, warnings := weftWeave(t, in, out, adv, aspectFile{name, text})
	if strict {
		for _, warn := range warnings {
			t.Errorf("weft warning: %s", warn)
		}
	}
	return info
}

// aspectFile is an aspect's file name and text.
type aspectFile struct {
	name string
	text []byte
}

// weftWeave weaves in into out with the aspects, whose advice classes are
// in adv, and returns the -showWeaveInfo lines normalized as normalizeInfo
// does ajc's, and the woven classes' warnings.
func weftWeave(t *testing.T, in, out, adv string, aspects ...aspectFile) (map[string]int, []string) {
	t.Helper()
	src, err := classpath.OpenSource(in, jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	advSrc := classpath.NewDirSource(adv)
	h := HierarchyOf(src, advSrc, mustJDK(t))
	var files []*pointcut.File
	for _, a := range aspects {
		f, err := pointcut.ParseFile(a.name, a.text)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	prog, err := pointcut.ResolveWith(files, pointcut.Options{AdviceCP: adv, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(prog, prog.Advice(), Options{Hierarchy: h}).WeavePath(in, out)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range st.Shadows {
		b.WriteString(st.Shadows[i].String() + "\n")
	}
	return normalizeInfo(b.String()), st.Warnings
}

// diffAdvice compiles the differential tests' advice classes
// (testdata/diff/Counter.java as the counter of each of lang3Aspects,
// package diffadv)
// for ajc and weft alike.
func diffAdvice(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(diffFolder, "Counter.java"))
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, a := range lang3Aspects {
		src["diffadv/"+a.counter+".java"] = strings.ReplaceAll(string(b), "class Counter ", "class "+a.counter+" ")
	}
	return jvmtest.Compile(t, src, "--release", "8")
}

// ajcWeave runs ajc -showWeaveInfo on inpath with the aspect files and
// advice classes adv, writing out (a jar if it ends in .jar, else a
// directory), and returns what it printed; opts go before the aspects.
func ajcWeave(t *testing.T, inpath, out, adv string, aspects []string, opts ...string) string {
	t.Helper()
	dest := "-d"
	if strings.HasSuffix(out, ".jar") {
		dest = "-outjar"
	}
	args := append([]string{"-1.8", "-inpath", inpath, "-showWeaveInfo",
		"-cp", aspectjrt + string(filepath.ListSeparator) + adv, dest, out}, opts...)
	cmd := ajcCommand(t, append(args, aspects...)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ajc: %v\n%s", err, b)
	}
	return string(b)
}

// ajcCommand is ajc with args: what ajcPath runs (ajc's main class on the
// JDK's java), with heap for guava, the client compiler only and the
// serial collector. A run of ajc otherwise spends most of its CPU time in
// the optimizing compiler and the parallel collector (commons-lang3 woven:
// 8.6 CPU seconds, 3.7 so); what ajc prints and writes is the same.
func ajcCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return exec.Command(jvmtest.Java(t), append([]string{"-Xmx2g", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-cp", aspectjrt + string(filepath.ListSeparator) + aspectjtools, "org.aspectj.tools.ajc.Main"}, args...)...)
}

// exerciseRun is what testdata/diff/Exercise printed on one jar: the
// program's output, and its last lines, the advice counts by counter
// class ("counts 1 2 3 4 5 6").
type exerciseRun struct {
	prog   string
	counts map[string]string
}

// runExercises runs testdata/diff/Exercise, under -Xverify:all, on
// commons-lang3 unwoven, woven by ajc (ajOut) and by weft (weftOut).
func runExercises(t *testing.T, adv, ajOut, weftOut string) (plain, aj, weft exerciseRun) {
	t.Helper()
	rt, err := rtjava.Build(jvmtest.JavaHome(t), "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, rt); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(diffFolder, "Exercise.java"))
	if err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.ListSeparator)
	ex := jvmtest.Compile(t, map[string]string{"Exercise.java": string(src)}, "-cp", lang3Jar+sep+adv)
	run := func(cp ...string) exerciseRun {
		out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", strings.Join(append(cp, adv, ex), sep), "Exercise")
		i := strings.LastIndex(out, "\n"+lang3Aspects[0].counter+" counts ")
		if i < 0 {
			t.Fatalf("no counts in output:\n%s", out)
		}
		r := exerciseRun{prog: out[:i+1], counts: map[string]string{}}
		for _, l := range strings.Split(strings.TrimSpace(out[i:]), "\n") {
			name, counts, _ := strings.Cut(l, " ")
			r.counts[name] = counts
		}
		if len(r.counts) != len(lang3Aspects) {
			t.Fatalf("counts of %d counters in output, want %d:\n%s", len(r.counts), len(lang3Aspects), out)
		}
		return r
	}
	return run(lang3Jar), run(ajOut, aspectjrt), run(weftOut, rtJar)
}
