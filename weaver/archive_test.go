package weaver

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestTooLargeAndMalformed: a method whose woven form would pass 64 KB is
// left unwoven with a warning naming it while the rest of its class is
// woven; a malformed class and a resource pass through a jar unchanged;
// sister classes are added next to woven classes; the woven jar runs.
func TestTooLargeAndMalformed(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{
		"adv/Log.java": logJava,
		"app/Big.java": `package app;
public class Big {
    static int n;
    static void v() { n++; }
    static void big() {
` + strings.Repeat("        v();\n", 7000) + `    }
    public static void main(String[] a) { big(); System.out.println("n=" + n); }
}`}
	all := runtimeSources()
	for k, v := range src {
		all[k] = v
	}
	dir := jvmtest.Compile(t, all, "-g")
	// A jar with the classes, a resource and a broken class.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(data)
	}
	big, err := os.ReadFile(filepath.Join(dir, "app/Big.class"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.CreateHeader(&zip.FileHeader{Name: "META-INF/", Method: zip.Deflate}); err != nil {
		t.Fatal(err)
	}
	add("META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\r\nMain-Class: app.Big\r\n\r\n"))
	add("app/Big.class", big)
	add("app/data.txt", []byte("resource"))
	add("app/Broken.class", []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0})
	zw.Close()
	in := filepath.Join(t.TempDir(), "in.jar")
	os.WriteFile(in, buf.Bytes(), 0o644)

	all4 := func(k advice.Kind, order int) *advice.Advice {
		return adv(k, order, "after", "(Lweft/rt/JoinPointStaticPart;)V", jpv)
	}
	rules := testMatcher{
		{kind: advice.MethodCall, name: "v", adv: all4(advice.Before, 0)},
		{kind: advice.MethodCall, name: "v", adv: all4(advice.After, 1)},
		{kind: advice.MethodExecution, name: "main", adv: all4(advice.Before, 2)},
	}
	var advs []*advice.Advice
	for _, r := range rules {
		advs = append(advs, r.adv)
	}
	w := New(rules, advs, Options{Hierarchy: mustJDKHierarchy(t, dir)})
	out := filepath.Join(t.TempDir(), "out.jar")
	st, err := w.WeavePath(in, out)
	if err != nil {
		t.Fatal(err)
	}
	warns := strings.Join(st.Warnings, "\n")
	if !strings.Contains(warns, "app/Big.big()V: left unwoven") || !strings.Contains(warns, "app/Broken.class: copied unwoven") {
		t.Errorf("warnings:\n%s", warns)
	}
	if st.Woven != 1 || st.MethodsWoven != 1 || st.Classes != 2 || st.Copied != 3 {
		t.Errorf("stats: %+v", st)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	zr.Close()
	if got := strings.Join(names, " "); got != "META-INF/ META-INF/MANIFEST.MF app/Big.class app/Big$weft$jp.class app/data.txt app/Broken.class" {
		t.Errorf("entries: %s", got)
	}
	stdout, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+dir, "app.Big")
	if stdout != "after method-execution(void app.Big.main(java.lang.String[]))\nn=7000\n" {
		t.Errorf("output:\n%s", stdout)
	}
}

// TestWeavingTwiceIsRefused: weaving weft's output again leaves it as is.
func TestWeavingTwiceIsRefused(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := map[string]string{"adv/Log.java": logJava, "app/Main.java": `package app;
public class Main { public static void main(String[] a) { System.out.println("hi"); } }`}
	rules := testMatcher{{kind: advice.MethodExecution, name: "main", adv: adv(advice.Before, 0, "before", "(Lweft/rt/JoinPointStaticPart;)V", jpv)}}
	all := runtimeSources()
	for k, v := range src {
		all[k] = v
	}
	dir := jvmtest.Compile(t, all)
	w := New(rules, nil, Options{Hierarchy: mustJDKHierarchy(t, dir)})
	b, _ := os.ReadFile(filepath.Join(dir, "app/Main.class"))
	res, err := w.WeaveClass("Main.class", b)
	if err != nil || res.Class == nil {
		t.Fatalf("first weave: %v", err)
	}
	again, err := w.WeaveClass("Main.class", res.Class)
	if err != nil || again.Class != nil || !again.AlreadyWoven || len(again.Warnings) != 0 {
		t.Errorf("second weave: class changed %v, already woven %v, warnings %v, err %v", again.Class != nil, again.AlreadyWoven, again.Warnings, err)
	}
}

// TestWeavePathIsReproducible: weaving the same jar twice gives the same
// bytes (join point ids are numbered in input order, not by scheduling).
// The second weave omits the shadow list (Options.OmitShadows): the same
// bytes, the same count and applied advice, no list.
func TestWeavePathIsReproducible(t *testing.T) {
	const lang3 = "/usr/share/java/commons-lang3.jar"
	a := adv(advice.Before, 0, "before", "(Lweft/rt/JoinPointStaticPart;)V", jpv)
	rules := testMatcher{{kind: advice.MethodExecution, adv: a}}
	var outs [2][]byte
	var stats [2]*Stats
	for i := range outs {
		w := New(rules, nil, Options{Hierarchy: mustJDKHierarchy(t, t.TempDir()), IDBase: 7, OmitShadows: i == 1})
		out := filepath.Join(t.TempDir(), "o.jar")
		st, err := w.WeavePath(lang3, out)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs[i], stats[i] = b, st
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Errorf("two weaves of %s differ", lang3)
	}
	full, omitted := stats[0], stats[1]
	if full.Advised < 1000 || full.Advised != len(full.Shadows) || omitted.Advised != full.Advised || len(omitted.Shadows) != 0 {
		t.Errorf("advised %d (%d listed), with OmitShadows %d (%d listed)", full.Advised, len(full.Shadows), omitted.Advised, len(omitted.Shadows))
	}
	for _, st := range stats {
		if len(st.Applied) != 1 || st.Applied[0] != a {
			t.Errorf("applied advice %v, want the one rule's", st.Applied)
		}
	}
}

// TestStaleCopyIsNotWoven: a jar holding a stale copy of a class under
// another path (before the real one) weaves only the class whose path
// matches its name and copies the stale one unchanged, with a warning
// naming both. Weaving both gave the real class the stale copy's sister
// class (same name), whose join points are the stale copy's.
func TestStaleCopyIsNotWoven(t *testing.T) {
	t.Parallel() // see jdkOnce
	all := runtimeSources()
	all["adv/Log.java"] = logJava
	dir := jvmtest.Compile(t, all)
	real := jvmtest.Compile(t, map[string]string{"app/A.java": `package app;
public class A {
    static String greet(String s) { return "hello " + s; }
    public static void main(String[] a) { System.out.println(greet("world")); }
}`})
	stale := jvmtest.Compile(t, map[string]string{"app/A.java": `package app;
public class A {
    static int one() { return 1; }
    static int two() { return 2; }
    static int three() { return 3; }
    public static void main(String[] a) { System.out.println(one() + two() + three()); }
}`})
	realB, err := os.ReadFile(filepath.Join(real, "app/A.class"))
	if err != nil {
		t.Fatal(err)
	}
	staleB, err := os.ReadFile(filepath.Join(stale, "app/A.class"))
	if err != nil {
		t.Fatal(err)
	}
	rules := testMatcher{{kind: advice.MethodExecution, within: "app/A", adv: adv(advice.Before, 0, "before", "(Lweft/rt/JoinPointStaticPart;)V", jpv)}}
	const want = "before method-execution(void app.A.main(java.lang.String[]))\n" +
		"before method-execution(java.lang.String app.A.greet(java.lang.String))\nhello world\n"
	// The copy in the same directory under another name, then in another
	// directory under the same name.
	for _, stalePath := range []string{"app/A_old.class", "old/app/A.class"} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, e := range []struct {
			name string
			data []byte
		}{{stalePath, staleB}, {"app/A.class", realB}} {
			f, err := zw.Create(e.name)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(e.data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(t.TempDir(), "in.jar")
		if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out.jar")
		w := New(rules, nil, Options{Hierarchy: mustJDKHierarchy(t, dir)})
		st, err := w.WeavePath(in, out)
		if err != nil {
			t.Fatal(err)
		}
		warns := strings.Join(st.Warnings, "\n")
		if st.Woven != 1 || !strings.Contains(warns, stalePath) || !strings.Contains(warns, "app/A.class") {
			t.Errorf("%s: %d classes woven (want 1), warnings:\n%s", stalePath, st.Woven, warns)
		}
		zr, err := zip.OpenReader(out)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
			if f.Name == stalePath {
				rc, _ := f.Open()
				b, _ := io.ReadAll(rc)
				rc.Close()
				if !bytes.Equal(b, staleB) {
					t.Errorf("%s: the stale copy was changed", stalePath)
				}
			}
		}
		zr.Close()
		if got := strings.Join(names, " "); got != stalePath+" app/A.class app/A$weft$jp.class" {
			t.Errorf("%s: entries %s", stalePath, got)
		}
		stdout, stderr := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+dir, "app.A")
		if stdout != want {
			t.Errorf("%s: output:\n%s\nwant:\n%s\nstderr:\n%s", stalePath, stdout, want, stderr)
		}
	}
}
