package weaver

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
)

const (
	guavaJar       = "/usr/share/java/guava.jar"
	errorProneJar  = "/usr/share/java/error_prone_annotations.jar"
	jsr305Jar      = "/usr/share/java/jsr305.jar"
	annotAdviceSrc = `package annotadv;
public class C { public static int n; public static void a() { n++; } }
`
)

// TestAnnotationsAgainstAspectJ weaves guava's com.google.common.base
// (guava and the annotation jars on the class path) with advice selecting
// join points by annotations (testdata/diff/Annots.aj, annots.weft): member,
// type and parameter annotation patterns, negated and or-ed, @annotation,
// @within, @withincode, and the run-time tests of @this, @target and @args;
// class-retention annotations (CanIgnoreReturnValue, GwtCompatible, Beta)
// and runtime ones (CheckForNull, ElementTypesAreNonnullByDefault). ajc and
// weft must advise the same join points with the same advice, with a
// run-time test at the same ones.
func TestAnnotationsAgainstAspectJ(t *testing.T) {
	start := time.Now()
	for _, f := range []string{ajcPath, aspectjrt, guavaJar, errorProneJar, jsr305Jar} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ+" libguava-java liberror-prone-java libjsr305-java")
		}
	}
	jvmtest.JavaHome(t)
	in := extractPackage(t, guavaJar, "com/google/common/base/")
	adv := jvmtest.Compile(t, map[string]string{"annotadv/C.java": annotAdviceSrc}, "--release", "8")
	sep := string(filepath.ListSeparator)
	ajcOut := ajcWeave(t, in, filepath.Join(t.TempDir(), "ajc.jar"), "Annots.aj",
		strings.Join([]string{adv, guavaJar, errorProneJar, jsr305Jar}, sep))
	want := normalizeInfo(strings.ReplaceAll(ajcOut, "Annots.aj:", "annots.weft:"))

	// weft, with the same class path.
	var srcs []classfile.Source
	for _, p := range []string{in, guavaJar, errorProneJar, jsr305Jar, adv} {
		s, err := classfile.OpenSource(p, jvmtest.JavaHome(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		srcs = append(srcs, s)
	}
	srcs = append(srcs, mustJDK(t))
	h := NewMethodHierarchy(classfile.NewHierarchy(srcs...), srcs...)
	text, err := os.ReadFile(filepath.Join(diffFolder, "annots.weft"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := pointcut.ParseFile("annots.weft", text)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: adv, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(prog, prog.Advice(), Options{Hierarchy: h}).WeavePath(in, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range st.Shadows {
		b.WriteString(st.Shadows[i].String() + "\n")
	}
	got := normalizeInfo(b.String())

	var missing, extra []string
	perAdvice := map[string]int{}
	for l, n := range want {
		if strings.Contains(l, "in Type 'Annots'") {
			continue // the aspect's own code, woven by ajc only
		}
		if got[l] < n {
			missing = append(missing, l)
		}
		perAdvice[l[strings.LastIndex(l, "(line "):]] += n
	}
	for l, n := range got {
		if want[l] < n {
			extra = append(extra, l)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	t.Logf("ajc: %d distinct weave-info lines, weft: %d; per advice: %v", len(want), len(got), perAdvice)
	for line := 2; line <= 16; line++ {
		if k := "(line " + itoa(line) + ")"; perAdvice[k] == 0 && perAdvice[k+" [with runtime test]"] == 0 {
			t.Errorf("ajc applied the advice of line %d nowhere: the comparison says nothing about it", line)
		}
	}
	reportWeaveInfoDiff(t, missing, extra)
	t.Logf("wall %v", time.Since(start))
}

// extractPackage copies the classes of one package (a prefix such as
// "com/google/common/base/", subpackages excluded) out of a jar into a
// directory, to weave a slice of a library.
func extractPackage(t *testing.T, jar, prefix string) string {
	t.Helper()
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dir := t.TempDir()
	n := 0
	for _, e := range zr.File {
		rest, ok := strings.CutPrefix(e.Name, prefix)
		if !ok || strings.Contains(rest, "/") || !strings.HasSuffix(rest, ".class") {
			continue
		}
		r, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(e.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("%s has no classes under %s", jar, prefix)
	}
	return dir
}
