package pointcut

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

var trackerSrc = map[string]string{
	// A stand-in for the runtime's static part type.
	"weft/rt/JoinPointStaticPart.java": `package weft.rt; public interface JoinPointStaticPart { int getId(); }`,
	"example/tracker/Tracker.java": `package example.tracker;
import weft.rt.JoinPointStaticPart;
public class Tracker {
    public static void onPut(JoinPointStaticPart sp) {}
    public static void onNew(Object o, JoinPointStaticPart sp) {}
    public static void onArray(Object a, int[] dims, Object sp) {}
    public static void boxed(Integer i, Number n, Object o, int p) {}
    public static void id(int id) {}
    public static void idLong(long id) {}
    public static int notVoid(Object o) { return 0; }
    public void notStatic(Object o) {}
    static void notPublic(Object o) {}
    public static void narrow(String s) {}
    public static void over(String s) {}
    public static void over(Object o) {}
    public static void map(java.util.Map<?, ?> m) {}
    public static void dims(Object dims) {}
    public static class Inner { public static void m(Object o) {} }
}
class Hidden { public static void m() {} }
`,
}

func compileTracker(t *testing.T) string {
	t.Helper()
	return jvmtest.Compile(t, trackerSrc)
}

func resolveCP(t *testing.T, cp, body string) (*Program, error) {
	t.Helper()
	src := "aspect A {\n" + body + "\n}\n"
	f, err := ParseFile("t.weft", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Resolve([]*File{f}, cp)
}

// Advice methods are checked against their class files: static, public,
// void, parameters that take the values passed (boxing primitives where
// the parameter is a reference type).
func TestAdviceBinding(t *testing.T) {
	dir := compileTracker(t)
	ok := []struct {
		advice, desc, values string
	}{
		{`before(): execution(* java.util.HashMap.put(..)) { example.tracker.Tracker.onPut(thisJoinPointStaticPart); }`,
			"(Lweft/rt/JoinPointStaticPart;)V", "thisJoinPointStaticPart:Lweft/rt/JoinPointStaticPart;"},
		{`after() returning(Object o): call(*.new(..)) { example.tracker.Tracker.onNew(o, thisJoinPointStaticPart); }`,
			"(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V", "returned:Ljava/lang/Object; thisJoinPointStaticPart:Lweft/rt/JoinPointStaticPart;"},
		{`after() returning(Object a): call(*[].new(..)) { example.tracker.Tracker.onArray(a, arrayDims, thisEnclosingJoinPointStaticPart); }`,
			"(Ljava/lang/Object;[ILjava/lang/Object;)V", "returned:Ljava/lang/Object; arrayDims:[I thisEnclosingJoinPointStaticPart:Ljava/lang/Object;"},
		{`before(int i): args(i) { example.tracker.Tracker.boxed(i, i, i, i); }`,
			"(Ljava/lang/Integer;Ljava/lang/Number;Ljava/lang/Object;I)V",
			"arg0:Ljava/lang/Integer; arg0:Ljava/lang/Number; arg0:Ljava/lang/Object; arg0:I"},
		{`before(): call(* *(..)) { example.tracker.Tracker.id(joinPointId); }`, "(I)V", "joinPointId:I"},
		{`before(String s): args(s) { example.tracker.Tracker.over(s); }`, "(Ljava/lang/String;)V", "arg0:Ljava/lang/String;"},
		{`before(Object s): args(s) { example.tracker.Tracker.over(s); }`, "(Ljava/lang/Object;)V", "arg0:Ljava/lang/Object;"},
		{`before(java.util.HashMap m): target(m) { example.tracker.Tracker.map(m); }`, "(Ljava/util/Map;)V", "target:Ljava/util/Map;"},
		{`before(): call(*[].new(..)) { example.tracker.Tracker.dims(arrayDims); }`, "(Ljava/lang/Object;)V", "arrayDims:Ljava/lang/Object;"},
		{`after(): execution(* *(..)) { example.tracker.Tracker.idLong(bytecodes); }`, "(J)V", "bytecodes:J"},
		{`after() throwing: execution(* *(..)) { example.tracker.Tracker.dims(preciseBytecodes); }`, "(Ljava/lang/Object;)V", "preciseBytecodes:Ljava/lang/Object;"},
		{`before(Object o): args(o) { example.tracker.Tracker.Inner.m(o); }`, "(Ljava/lang/Object;)V", "arg0:Ljava/lang/Object;"},
	}
	for _, tt := range ok {
		p, err := resolveCP(t, dir, tt.advice)
		if err != nil {
			t.Errorf("%s: %v", tt.advice, err)
			continue
		}
		a := p.Advice()[0]
		if a.Method.Desc != tt.desc {
			t.Errorf("%s: bound %s, want %s", tt.advice, a.Method.Desc, tt.desc)
		}
		if got := valuesString(a.Args); got != tt.values {
			t.Errorf("%s: values %s, want %s", tt.advice, got, tt.values)
		}
		if len(p.Warnings) > 0 {
			t.Errorf("%s: warnings %v", tt.advice, p.Warnings)
		}
	}
	if p, _ := resolveCP(t, dir, `before(Object o): args(o) { example.tracker.Tracker.Inner.m(o); }`); p.Advice()[0].Method.Owner != "example/tracker/Tracker$Inner" {
		t.Errorf("nested advice class: %+v", p.Advice()[0].Method)
	}

	bad := []struct {
		advice string
		want   []string
	}{
		{`before(Object o): args(o) { example.tracker.Tracker.notVoid(o); }`,
			[]string{"t.weft:2:29: advice at line 2: no advice method fits: want public static void notVoid(java.lang.Object) in example.tracker.Tracker",
				"found notVoid(Ljava/lang/Object;)I (returns int, not void)"}},
		{`before(Object o): args(o) { example.tracker.Tracker.notStatic(o); }`, []string{"notStatic(Ljava/lang/Object;)V (not static)"}},
		{`before(Object o): args(o) { example.tracker.Tracker.notPublic(o); }`, []string{"notPublic(Ljava/lang/Object;)V (not public)"}},
		{`before(Object o): args(o) { example.tracker.Tracker.narrow(o); }`,
			[]string{"narrow(Ljava/lang/String;)V (parameter 1 is java.lang.String, cannot take java.lang.Object)"}},
		{`before(): call(* *(..)) { example.tracker.Tracker.idLong(joinPointId); }`,
			[]string{"idLong(J)V (parameter 1 is long, cannot take int)"}},
		{`before(): call(* *(..)) { example.tracker.Tracker.onPut(); }`,
			[]string{"onPut(Lweft/rt/JoinPointStaticPart;)V (takes 1 parameters, the call passes 0)"}},
		{`before(): call(* *(..)) { example.tracker.Tracker.onPut(joinPointId); }`,
			[]string{"(parameter 1 is weft.rt.JoinPointStaticPart, cannot take int)"}},
		{`before(): call(* *(..)) { example.tracker.Tracker.nothere(); }`, []string{"hint: no method named nothere in example.tracker.Tracker"}},
		{`before(): call(* *(..)) { example.tracker.Hidden.m(); }`, []string{"class example.tracker.Hidden is not public"}},
		{`before(): call(* *(..)) { example.tracker.Missing.m(); }`, []string{"example.tracker.Missing not found on " + dir, "hint: put the compiled advice class on --advice-cp"}},
	}
	for _, tt := range bad {
		_, err := resolveCP(t, dir, tt.advice)
		if err == nil || !contains(err.Error(), tt.want...) {
			t.Errorf("%s: got %v\nwant %q", tt.advice, err, tt.want)
		}
	}
}

// The advice class path may hold jars.
func TestAdviceBindingFromJar(t *testing.T) {
	dir := compileTracker(t)
	jar := filepath.Join(t.TempDir(), "tracker.jar")
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cp := t.TempDir() + string(filepath.ListSeparator) + jar
	p, err := resolveCP(t, cp, `after() returning(Object o): call(*.new(..)) { example.tracker.Tracker.onNew(o, thisJoinPointStaticPart); }`)
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Advice()[0].Method.Desc; d != "(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V" {
		t.Errorf("desc %s", d)
	}
	_, err = resolveCP(t, cp, `before(): call(* *(..)) { example.tracker.Tracker.notVoid(joinPointId); }`)
	if err == nil || !strings.Contains(err.Error(), "notVoid(Ljava/lang/Object;)I") {
		t.Errorf("got %v", err)
	}
}
