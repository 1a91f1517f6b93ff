package weaver

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestSignaturesThroughCovariantOverriding matches execution and call
// pointcuts against javac-compiled overrides whose return type is
// narrower than the overridden method's (Sub.get() returning String
// overrides Base.get() returning Object) or whose erased parameter types
// differ (Sub.take(String) implements Src<String>.take(T), through javac's
// bridge): each has the signature of the supertype, with the supertype's
// return type, as in AspectJ (ajc -showWeaveInfo reports the same lines
// for the same aspect). A static method of Base called as Sub.s() has
// Base's signature only (static methods are not overridden), as in ajc.
func TestSignaturesThroughCovariantOverriding(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{
		"cov/Base.java": `package cov;
public class Base {
    public Object get() { return null; }
    public Number num() { return 1; }
    protected Object copy() { return this; }
    public static int s() { return 1; }
}`,
		"cov/Src.java": `package cov;
public interface Src<T> { T take(T t); }`,
		"app/Sub.java": `package app;
public class Sub extends cov.Base implements cov.Src<String> {
    public String get() { return "s"; }
    public Integer num() { return 2; }
    public String take(String s) { return s; }
    public static void main(String[] a) {
        Sub s = new Sub();
        s.get();
        s.num();
        s.take("x");
        ((cov.Base) s).get();
        Sub.s();
    }
}`,
		"adv/A.java": `package adv;
public class A { public static void a() {} }`,
	}, "-g")
	weft := `aspect C {
    before(): execution(Object cov.Base.get()) { adv.A.a(); }
    before(): execution(String cov.Base.get()) { adv.A.a(); }
    before(): execution(* cov..*.*(..)) && within(app..*) { adv.A.a(); }
    before(): execution(Number cov.*.num()) { adv.A.a(); }
    before(): execution(Object cov.Src.take(Object)) { adv.A.a(); }
    before(): execution(* cov.Src.take(String)) { adv.A.a(); }
    after() returning: call(Object cov.Base.get()) && within(app..*) { adv.A.a(); }
    after() returning: call(String cov.Base+.get()) && within(app..*) { adv.A.a(); }
    before(): call(* app.Sub.s()) { adv.A.a(); }
    before(): call(* cov.Base.s()) { adv.A.a(); }
}`
	p := filepath.Join(dir, "app", "Sub.class")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := aspectWeaver(t, "c.weft", weft, dir).WeaveClass(p, data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, wi := range res.Shadows {
		got = append(got, strings.TrimPrefix(wi.Kind.String(), "method-")+" "+Signature(wi.Kind, wi.Member)+
			" line "+itoa(wi.Advice.Line))
	}
	sort.Strings(got)
	want := []string{
		// A static method called through a subclass: a call of the
		// declaring class's method only, named so (ajc: the same).
		"call int cov.Base.s() line 11",
		// Base.get() returns Object: its signature Object Base.get() is
		// Sub.get()'s too; String Base.get() is no signature of it.
		"call java.lang.Object cov.Base.get() line 8",
		"call java.lang.String app.Sub.get() line 8",
		"call java.lang.String app.Sub.get() line 9", // Sub's own signature: Base+ includes Sub
		"execution java.lang.Integer app.Sub.num() line 4",
		"execution java.lang.Integer app.Sub.num() line 5",
		"execution java.lang.String app.Sub.get() line 2",
		"execution java.lang.String app.Sub.get() line 4",
		// take(String) implements Src<String>.take(T), erased
		// take(Object) (javac's bridge take(Object) tells): the join
		// point has the signatures Object Src.take(Object) and
		// String Src.take(String).
		"execution java.lang.String app.Sub.take(java.lang.String) line 4",
		"execution java.lang.String app.Sub.take(java.lang.String) line 6",
		"execution java.lang.String app.Sub.take(java.lang.String) line 7",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("advised:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func itoa(i int) string {
	s := ""
	for ; i > 0 || s == ""; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}
