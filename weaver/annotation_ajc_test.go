package weaver

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

const (
	guavaJar      = "/usr/share/java/guava.jar"
	errorProneJar = "/usr/share/java/error_prone_annotations.jar"
	jsr305Jar     = "/usr/share/java/jsr305.jar"
	annotDriver   = `import com.google.common.base.*;
public class AnnotDriver {
    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        out.append(Strings.padStart("7", 3, '0')).append(Strings.repeat("ab", 3))
            .append(Strings.nullToEmpty(null)).append(Strings.emptyToNull("x")).append(Strings.isNullOrEmpty(""));
        out.append(Joiner.on(',').skipNulls().join(java.util.Arrays.asList("a", null, "b")));
        for (String s : Splitter.on(',').trimResults().omitEmptyStrings().split(" x, ,y ,z")) out.append(s);
        out.append(CharMatcher.anyOf("ab").removeFrom("abcabc")).append(CharMatcher.whitespace().trimFrom("  t "));
        out.append(CaseFormat.LOWER_CAMEL.to(CaseFormat.UPPER_UNDERSCORE, "helloWorld"));
        out.append(Preconditions.checkNotNull("p")).append(Preconditions.checkElementIndex(1, 3));
        out.append(Optional.fromNullable(null).or("dflt")).append(Optional.of(3).transform(Functions.toStringFunction()));
        out.append(MoreObjects.toStringHelper("T").add("k", 1).omitNullValues().add("n", null));
        out.append(Ascii.toUpperCase("mixed")).append(Objects.equal("a", "a")).append(Verify.verifyNotNull("v"));
        out.append(Suppliers.memoize(Suppliers.ofInstance("s")).get()).append(Stopwatch.createUnstarted().isRunning());
        out.append(Enums.getIfPresent(CaseFormat.class, "LOWER_HYPHEN").isPresent()).append(Throwables.getRootCause(new RuntimeException(new IllegalStateException("r"))).getMessage());
        out.append(Predicates.contains(java.util.regex.Pattern.compile("b+")).apply("abc")).append(annotdemo.Values.run());
        System.out.println(out);
        System.out.println(annotadv.C.report());
    }
}
`
)

// annotDemo is a class woven with guava's package whose annotation has
// an element of each kind value patterns test (Annots.aj's lines 17-29).
var annotDemo = map[string]string{
	"annotdemo/Level.java": "package annotdemo; public enum Level { LOW, HIGH }",
	"annotdemo/Tag.java": `package annotdemo;
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
public @interface Tag {
    String value() default "d"; int n() default 0; Level level() default Level.LOW;
    char c() default 'a'; long l() default 0; Class<?> k() default Object.class; boolean b() default false;
}`,
	"annotdemo/Values.java": `package annotdemo;
@Tag("cls") public class Values {
    @Tag static int plain() { return 1; }
    @Tag("x") static int x() { return 2; }
    @Tag(n = 3, level = Level.HIGH) static int high() { return 3; }
    @Tag(n = 3, c = 'z', l = 7) static int cz() { return 4; }
    @Tag(k = String.class, b = true) static int k() { return 5; }
    static int none() { return 6; }
    // no call has a target or passes a reference: ajc's @target and @args tests (Annots.aj lines 7 and 11)
    // would name guava's package-private annotation here
    public static int run() { return plain() + 10 * x() + 100 * high() + 1000 * cz() + 10000 * k() + 100000 * none(); }
}`,
}

// annotCounters is the number of counting advice in Annots.aj.
const annotCounters = 28

// annotAdviceSrc is the advice of Annots.aj and annots.weft: a counter
// per advice, and one for the bound annotation when it is a CheckForNull.
func annotAdviceSrc() string {
	var b strings.Builder
	b.WriteString("package annotadv;\npublic class C {\n    static final long[] N = new long[" + itoa(annotCounters+1) + "];\n")
	for i := 0; i < annotCounters; i++ {
		b.WriteString("    public static void a" + itoa(i) + "() { N[" + itoa(i) + "]++; }\n")
	}
	b.WriteString(`    public static void bound(javax.annotation.CheckForNull x) { if (x != null && x.annotationType() == javax.annotation.CheckForNull.class) N[` + itoa(annotCounters) + `]++; }
    public static String report() { return "counts " + java.util.Arrays.toString(N); }
}
`)
	return b.String()
}

// TestAnnotationsAgainstAspectJ weaves guava's com.google.common.base
// (guava and the annotation jars on the class path) with advice selecting
// join points by annotations (testdata/diff/Annots.aj, annots.weft): member,
// type and parameter annotation patterns, negated and or-ed, @annotation,
// @within, @withincode, and the run-time tests of @this, @target and @args;
// class-retention annotations (CanIgnoreReturnValue, GwtCompatible, Beta)
// and runtime ones (CheckForNull, ElementTypesAreNonnullByDefault); value
// patterns of guava's annotations (booleans, strings, !=) and of
// annotDemo's (enum, int, char, long, class, defaults), where weft's
// @annotation, @within and @withincode with values stand on the lines of
// ajc's equivalent signature and type patterns (ajc has no values there).
// ajc and weft must advise the same join points with the same advice,
// with a run-time test at the same ones.
func TestAnnotationsAgainstAspectJ(t *testing.T) {
	t.Parallel() // see jdkOnce
	start := time.Now()
	for _, f := range []string{ajcPath, aspectjrt, guavaJar, errorProneJar, jsr305Jar} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ+" libguava-java liberror-prone-java libjsr305-java")
		}
	}
	jvmtest.JavaHome(t)
	in := extractPackage(t, guavaJar, "com/google/common/base/")
	sep := string(filepath.ListSeparator)
	srcs0 := map[string]string{"annotadv/C.java": annotAdviceSrc()}
	for k, v := range annotDemo {
		srcs0[k] = v
	}
	adv := jvmtest.Compile(t, srcs0, "--release", "8", "-cp", jsr305Jar)
	if err := os.Rename(filepath.Join(adv, "annotdemo"), filepath.Join(in, "annotdemo")); err != nil {
		t.Fatal(err)
	}
	ajJar := filepath.Join(t.TempDir(), "ajc.jar")
	ajcOut := ajcWeave(t, in, ajJar, strings.Join([]string{adv, guavaJar, errorProneJar, jsr305Jar}, sep),
		[]string{filepath.Join(diffFolder, "Annots.aj")})
	want := normalizeInfo(strings.ReplaceAll(ajcOut, "Annots.aj:", "annots.weft:"))

	// weft, with the same class path.
	var srcs []classpath.Source
	for _, p := range []string{in, guavaJar, errorProneJar, jsr305Jar, adv} {
		s, err := classpath.OpenSource(p, jvmtest.JavaHome(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		srcs = append(srcs, s)
	}
	srcs = append(srcs, mustJDK(t))
	h := HierarchyOf(srcs...)
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
	weftDir := t.TempDir()
	st, err := New(prog, prog.Advice(), Options{Hierarchy: h}).WeavePath(in, weftDir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range st.Shadows {
		b.WriteString(st.Shadows[i].String() + "\n")
	}
	got := normalizeInfo(b.String())

	for l := range want {
		if strings.Contains(l, "in Type 'Annots'") {
			delete(want, l) // the aspect's own code, woven by ajc only
		}
	}
	missing, extra, _ := weaveInfoDiff(want, got, nil)
	perAdvice := advicePerLine(want, false)
	t.Logf("ajc: %d distinct weave-info lines, weft: %d; per advice: %v", len(want), len(got), perAdvice)
	for line := 2; line <= annotCounters+2; line++ {
		if k := "(line " + itoa(line) + ")"; perAdvice[k] == 0 && perAdvice[k+" [with runtime test]"] == 0 {
			t.Errorf("ajc applied the advice of line %d nowhere: the comparison says nothing about it", line)
		}
	}
	reportWeaveInfoDiff(t, missing, extra)

	// The driver on the unwoven, the ajc-woven and the weft-woven package
	// (the rest of guava after it on the class path).
	rt, err := rtjava.Build(jvmtest.JavaHome(t), "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, rt); err != nil {
		t.Fatal(err)
	}
	libs := []string{guavaJar, jsr305Jar, errorProneJar, adv}
	driver := jvmtest.Compile(t, map[string]string{"AnnotDriver.java": annotDriver}, "-cp", strings.Join(append(libs, in), sep))
	run := func(cp ...string) string {
		out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", strings.Join(append(append(cp, libs...), driver), sep), "AnnotDriver")
		return out
	}
	plain, ajRun, weftRun := run(in), run(ajJar, aspectjrt), run(weftDir, rtJar)
	prog0 := func(out string) string { return out[:strings.LastIndex(out, "counts ")] }
	if prog0(ajRun) != prog0(plain) || prog0(weftRun) != prog0(plain) {
		t.Errorf("driver output differs:\nunwoven:\n%s\najc:\n%s\nweft:\n%s", plain, ajRun, weftRun)
	}
	if ajRun != weftRun {
		t.Errorf("advice counts differ:\najc:  %s\nweft: %s", ajRun, weftRun)
	}
	t.Logf("%s", strings.TrimSpace(weftRun))
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
