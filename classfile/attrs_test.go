package classfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// jdkSource opens the modules image of the test JDK, closed with the test.
func jdkSource(t testing.TB) TestJDK {
	t.Helper()
	src, err := OpenTestJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// jdkClass parses one JDK class by internal name.
func jdkClass(t testing.TB, name string) *Class {
	t.Helper()
	src := jdkSource(t)
	b, err := src.Class(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// codeAttributes returns the attributes nested in a raw Code attribute.
func codeAttributes(t testing.TB, info []byte) []Attribute {
	t.Helper()
	r := &reader{b: info, name: "Code"}
	r.u2()
	r.u2()
	r.bytes(int(r.u4()))
	r.bytes(8 * r.count(8))
	as := r.attributes()
	if r.err != nil {
		t.Fatal(r.err)
	}
	return as
}

// roundTrip decodes every modelled attribute in attrs, re-encodes it and
// reports a mismatch; it counts the attributes by name in seen. It recurses
// into Code attributes and record components.
func roundTrip(t testing.TB, c *Class, where string, attrs []Attribute, seen map[string]int) {
	t.Helper()
	for i := range attrs {
		a := &attrs[i]
		name := c.Pool.Utf8(a.Name)
		if name == "Code" {
			roundTrip(t, c, where+" Code", codeAttributes(t, a.Info), seen)
			continue
		}
		v, err := DecodeAttr(c, a)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if v == nil {
			seen["(raw) "+name]++
			continue
		}
		seen[name]++
		if got := v.AttrName(); got != name {
			t.Errorf("%s: %s decoded as %s", where, name, got)
		}
		enc, err := EncodeAttr(c, v)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if enc.Name != a.Name && c.Pool.Utf8(enc.Name) != name {
			t.Errorf("%s: %s re-encoded with name %q", where, name, c.Pool.Utf8(enc.Name))
		}
		if !bytes.Equal(enc.Info, a.Info) {
			t.Errorf("%s: %s re-encodes differently:\n got %x\nwant %x", where, name, enc.Info, a.Info)
		}
		if rec, ok := v.(*Record); ok {
			for _, rc := range rec.Components {
				roundTrip(t, c, where+" component "+c.Pool.Utf8(rc.Name), rc.Attributes, seen)
			}
		}
	}
}

func roundTripClass(t testing.TB, c *Class, seen map[string]int) {
	roundTrip(t, c, c.Name(), c.Attributes, seen)
	for _, f := range c.Fields {
		roundTrip(t, c, c.Name()+"."+c.MemberName(f), f.Attributes, seen)
	}
	for _, m := range c.Methods {
		roundTrip(t, c, c.Name()+"."+c.MemberName(m)+c.MemberDesc(m), m.Attributes, seen)
	}
}

// attrRoundTrip is TestJDKEveryClass's attribute check: it round-trips
// every modelled attribute of each class (roundTripClass) and counts the
// attributes seen by name.
type attrRoundTrip struct {
	t    *testing.T
	seen map[string]int
}

func newAttrRoundTrip(t *testing.T) *attrRoundTrip {
	return &attrRoundTrip{t: t, seen: map[string]int{}}
}

// check round-trips c's attributes.
func (a *attrRoundTrip) check(c *Class) { roundTripClass(a.t, c, a.seen) }

// report logs the attributes seen and fails the test if one the JDK 17
// image holds was never seen in its n classes.
func (a *attrRoundTrip) report(n int) {
	t := a.t
	var names []string
	for n := range a.seen {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%8d %s", a.seen[n], n)
	}
	// Every attribute the JDK 17 image holds must have been seen (the javac
	// sample covers the rest: parameter and type annotations).
	for _, name := range []string{"ConstantValue", "Exceptions", "InnerClasses", "EnclosingMethod",
		"Signature", "SourceFile", "LineNumberTable", "Deprecated",
		"RuntimeVisibleAnnotations", "RuntimeInvisibleAnnotations",
		"AnnotationDefault", "BootstrapMethods", "MethodParameters", "Module", "ModulePackages",
		"NestHost", "NestMembers", "Record", "PermittedSubclasses"} {
		if a.seen[name] == 0 {
			t.Errorf("no %s attribute decoded in %d JDK classes", name, n)
		}
	}
}

// attrTestSource exercises every attribute javac emits.
var attrTestSource = map[string]string{
	"p/Ann.java": `package p;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.TYPE_USE, ElementType.RECORD_COMPONENT})
public @interface Ann {
    byte b() default 1; char c() default 'c'; double d() default 2.5; float f() default 1.5f;
    int i() default 7; long j() default 8L; short s() default 3; boolean z() default true;
    String str() default "hi"; RetentionPolicy e() default RetentionPolicy.CLASS;
    Class<?> cls() default void.class; Retention nested() default @Retention(RetentionPolicy.SOURCE);
    int[] arr() default {1, 2};
}`,
	"p/Inv.java": `package p;
import java.lang.annotation.*;
@Retention(RetentionPolicy.CLASS) @Target({ElementType.TYPE_USE, ElementType.METHOD, ElementType.PARAMETER})
public @interface Inv { String value() default ""; }`,
	"p/Sample.java": `package p;
import java.util.*;
import java.util.function.*;
@Ann(str = "top", arr = {3, 4, 5}, nested = @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME))
public class Sample<T extends Comparable<T>> implements java.io.Serializable {
    public static final int K = 42;
    public static final String S = "const";
    /** @deprecated old */ @Deprecated @Ann(e = java.lang.annotation.RetentionPolicy.RUNTIME) public List<@Inv("x") String> names;
    public sealed interface Shape permits Circle, Square {}
    public record Circle(@Ann double radius, List<String> tags) implements Shape {}
    public final class Square implements Shape {}
    @Inv public <E extends Exception> void m(@Ann(i = 9) @Inv int a, @Inv final String b) throws E, java.io.IOException {
        Runnable r = () -> System.out.println(a + b);
        r.run();
        Object o = new Object() { public String toString() { return "anon"; } };
        @Inv String local = (@Inv String) o.toString();
        try { System.out.println(local); } catch (@Inv RuntimeException ex) { throw ex; }
    }
}`,
}

func compileAttrSample(t testing.TB) map[string]*Class {
	t.Helper()
	out := jvmtest.Compile(t, attrTestSource, "-g", "-parameters")
	classes := map[string]*Class{}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		c, err := Parse(p, b)
		if err != nil {
			return err
		}
		classes[c.Name()] = c
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return classes
}

func TestAttrJavacSample(t *testing.T) {
	classes := compileAttrSample(t)
	seen := map[string]int{}
	for _, c := range classes {
		roundTripClass(t, c, seen)
	}
	for _, n := range []string{"ConstantValue", "Exceptions", "InnerClasses", "EnclosingMethod",
		"Signature", "SourceFile", "LineNumberTable", "LocalVariableTable", "LocalVariableTypeTable",
		"Deprecated", "RuntimeVisibleAnnotations", "RuntimeInvisibleAnnotations",
		"RuntimeVisibleParameterAnnotations", "RuntimeInvisibleParameterAnnotations",
		"RuntimeVisibleTypeAnnotations", "RuntimeInvisibleTypeAnnotations", "AnnotationDefault",
		"BootstrapMethods", "MethodParameters", "NestHost", "NestMembers", "Record",
		"PermittedSubclasses"} {
		if seen[n] == 0 {
			t.Errorf("javac sample has no %s attribute", n)
		}
	}

	s := classes["p/Sample"]
	if got := s.SourceFile(); got != "Sample.java" {
		t.Errorf("SourceFile() = %q", got)
	}
	if got := s.Signature(s.Attributes); got != "<T::Ljava/lang/Comparable<TT;>;>Ljava/lang/Object;Ljava/io/Serializable;" {
		t.Errorf("Signature = %q", got)
	}
	m := s.FindMethod("m", "(ILjava/lang/String;)V")
	if m == nil {
		t.Fatal("no method m")
	}
	if ex, err := s.Exceptions(m); err != nil || strings.Join(ex, ",") != "java/lang/Exception,java/io/IOException" {
		t.Errorf("Exceptions(m) = %v, %v", ex, err)
	}
	bms, err := s.BootstrapMethods()
	if err != nil || len(bms) != 2 || len(bms[0].Args) != 3 { // the lambda, the string concatenation
		t.Errorf("BootstrapMethods() = %v, %v", bms, err)
	} else if _, name, _ := s.Pool.MemberRef(s.Pool.Get(bms[0].Ref).B); name != "metafactory" {
		t.Errorf("bootstrap method is %q, want metafactory", name)
	}
	ics, err := s.InnerClasses()
	if err != nil || len(ics) < 4 {
		t.Errorf("InnerClasses() = %v, %v", ics, err)
	}

	// The class annotation: check the whole tree.
	v, err := s.FindAttr(s.Attributes, "RuntimeVisibleAnnotations")
	if err != nil {
		t.Fatal(err)
	}
	an := v.(*Annotations).Annotations[0]
	if got := s.Pool.Utf8(an.Type); got != "Lp/Ann;" {
		t.Errorf("annotation type %q", got)
	}
	els := map[string]ElementValue{}
	for _, e := range an.Elements {
		els[s.Pool.Utf8(e.Name)] = e.Value
	}
	if e := els["str"]; e.Tag != 's' || s.Pool.Utf8(e.Index) != "top" {
		t.Errorf("str = %+v", e)
	}
	if e := els["arr"]; e.Tag != '[' || len(e.Values) != 3 || s.Pool.Int(e.Values[2].Index) != 5 {
		t.Errorf("arr = %+v", e)
	}
	if e := els["nested"]; e.Tag != '@' || e.Annotation == nil ||
		s.Pool.Utf8(e.Annotation.Type) != "Ljava/lang/annotation/Retention;" ||
		e.Annotation.Elements[0].Value.Tag != 'e' ||
		s.Pool.Utf8(e.Annotation.Elements[0].Value.EnumConst) != "RUNTIME" {
		t.Errorf("nested = %+v", e)
	}

	// Annotation presence by descriptor, visible and invisible.
	f := s.Fields[2]
	if s.MemberName(f) != "names" {
		t.Fatalf("field 2 is %s", s.MemberName(f))
	}
	for desc, want := range map[string]bool{"Ljava/lang/Deprecated;": true, "Lp/Ann;": true, "Lp/Inv;": false} {
		if got, err := s.HasAnnotation(f.Attributes, desc); got != want || err != nil {
			t.Errorf("HasAnnotation(names, %s) = %v, %v", desc, got, err)
		}
	}
	if got, _ := s.HasAnnotation(m.Attributes, "Lp/Inv;"); !got {
		t.Errorf("HasAnnotation misses m's invisible @Inv")
	}

	// AnnotationDefault of every element_value kind.
	ann := classes["p/Ann"]
	tags := ""
	for _, am := range ann.Methods {
		v, err := ann.FindAttr(am.Attributes, "AnnotationDefault")
		if err != nil || v == nil {
			t.Fatalf("%s: AnnotationDefault %v, %v", ann.MemberName(am), v, err)
		}
		tags += string(v.(*AnnotationDefault).Value.Tag)
	}
	if tags != "BCDFIJSZsec@[" {
		t.Errorf("AnnotationDefault tags %q, want BCDFIJSZsec@[", tags)
	}

	// Record components with their own attributes.
	circle := classes["p/Sample$Circle"]
	v, err = circle.FindAttr(circle.Attributes, "Record")
	if err != nil {
		t.Fatal(err)
	}
	comps := v.(*Record).Components
	if len(comps) != 2 || circle.Pool.Utf8(comps[0].Name) != "radius" ||
		circle.Signature(comps[1].Attributes) != "Ljava/util/List<Ljava/lang/String;>;" {
		t.Errorf("Record components wrong: %+v", comps)
	}
	if ok, err := circle.HasAnnotation(comps[0].Attributes, "Lp/Ann;"); !ok || err != nil {
		t.Errorf("radius component lacks @Ann: %v", err)
	}
}

// TestAttrModule decodes a JDK module-info and checks the tree.
func TestAttrModule(t *testing.T) {
	c := jdkClass(t, "module-info")
	v, err := c.FindAttr(c.Attributes, "Module")
	if err != nil {
		t.Fatal(err)
	}
	m := v.(*Module)
	if got := c.Pool.Utf8(c.Pool.Get(m.Name).A); got != "java.base" {
		t.Errorf("module name %q", got)
	}
	exported := false
	for _, e := range m.Exports {
		if c.Pool.Utf8(c.Pool.Get(e.Package).A) == "java/lang" && len(e.To) == 0 {
			exported = true
		}
	}
	if !exported || len(m.Uses) == 0 || len(m.Provides) == 0 {
		t.Errorf("java.base module: exports java/lang %v, %d uses, %d provides", exported, len(m.Uses), len(m.Provides))
	}
	v, err = c.FindAttr(c.Attributes, "ModulePackages")
	if err != nil || v == nil || len(v.(*ModulePackages).Packages) < len(m.Exports) {
		t.Errorf("ModulePackages = %v, %v", v, err)
	}
}

// TestAttrIntrinsicCandidate is the JDK weaver's use: find the intrinsics.
func TestAttrIntrinsicCandidate(t *testing.T) {
	c := jdkClass(t, "java/lang/Object")
	const desc = "Ljdk/internal/vm/annotation/IntrinsicCandidate;"
	var intrinsics []string
	for _, m := range c.Methods {
		ok, err := c.HasAnnotation(m.Attributes, desc)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			intrinsics = append(intrinsics, c.MemberName(m)+c.MemberDesc(m))
		}
	}
	// JDK 17's Object has six: <init>, getClass, hashCode, clone,
	// notify, notifyAll.
	got := strings.Join(intrinsics, " ")
	if len(intrinsics) != 6 || !strings.Contains(got, "hashCode()I") || !strings.Contains(got, "getClass()") {
		t.Errorf("Object's intrinsic candidates: %s", got)
	}
	if strings.Contains(got, "toString") {
		t.Errorf("Object.toString is not an intrinsic candidate, got %s", got)
	}
}

// TestAttrTruncated cuts every modelled attribute of the sample short at
// every length: decoding must fail with an AttrError naming the attribute,
// never panic, never succeed.
func TestAttrTruncated(t *testing.T) {
	classes := compileAttrSample(t)
	checked := 0
	var check func(c *Class, attrs []Attribute)
	check = func(c *Class, attrs []Attribute) {
		for i := range attrs {
			name := c.Pool.Utf8(attrs[i].Name)
			if name == "Code" {
				check(c, codeAttributes(t, attrs[i].Info))
				continue
			}
			if !IsModelledAttr(name) || name == "SourceDebugExtension" {
				continue
			}
			info := attrs[i].Info
			for n := 0; n < len(info); n++ {
				short := Attribute{Name: attrs[i].Name, Info: info[:n:n]}
				_, err := DecodeAttr(c, &short)
				var ae *AttrError
				if !errors.As(err, &ae) || ae.Attr != name || ae.Class != c.Name() || ae.Offset > n {
					t.Fatalf("%s %s cut to %d bytes: err = %v", c.Name(), name, n, err)
				}
			}
			long := Attribute{Name: attrs[i].Name, Info: append(append([]byte{}, info...), 0)}
			if _, err := DecodeAttr(c, &long); err == nil || !strings.Contains(err.Error(), "trailing") {
				t.Fatalf("%s %s with a trailing byte: err = %v", c.Name(), name, err)
			}
			checked++
		}
	}
	for _, c := range classes {
		check(c, c.Attributes)
		for _, m := range append(append([]*Member{}, c.Fields...), c.Methods...) {
			check(c, m.Attributes)
		}
	}
	if checked < 30 {
		t.Errorf("only %d attributes checked", checked)
	}
}

// TestAttrErrors checks messages name the class, attribute and offset, and
// that huge counts do not allocate.
func TestAttrErrors(t *testing.T) {
	c := &Class{Pool: NewPool()}
	c.This = c.Pool.AddClass("x/Y")
	for _, tc := range []struct {
		name string
		info []byte
		want string
	}{
		{"InnerClasses", []byte{0xFF, 0xFF, 0, 0}, "x/Y: InnerClasses attribute: offset 0: count 65535 exceeds the remaining 2 bytes"},
		{"RuntimeVisibleAnnotations", []byte{0, 1, 0, 5, 0, 1, 0, 6, 'X', 0, 0}, "x/Y: RuntimeVisibleAnnotations attribute: offset 8: unknown element_value tag 'X'"},
		{"RuntimeVisibleTypeAnnotations", []byte{0, 1, 0x99, 0, 0, 0, 0, 0, 0}, "offset 2: unknown type annotation target_type 0x99"},
		{"MethodParameters", []byte{200, 0, 0}, "offset 0: parameter count 200 exceeds the remaining 2 bytes"},
		{"ConstantValue", []byte{0, 1, 2}, "ConstantValue attribute: offset 2: 1 bytes of trailing data"},
		{"Module", []byte{0, 1}, "Module attribute: offset 2: truncated"},
	} {
		a := Attribute{Name: c.Pool.AddUtf8(tc.name), Info: tc.info}
		_, err := DecodeAttr(c, &a)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %x: err = %v, want %q", tc.name, tc.info, err, tc.want)
		}
	}
	// Deep nesting is refused, not recursed into.
	deep := []byte{0, 1, 0, 5, 0, 1, 0, 6}
	for i := 0; i < 10000; i++ {
		deep = append(deep, '[', 0, 1)
	}
	a := Attribute{Name: c.Pool.AddUtf8("RuntimeVisibleAnnotations"), Info: deep}
	if _, err := DecodeAttr(c, &a); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep nesting: err = %v", err)
	}
	// Unknown attributes stay raw.
	a = Attribute{Name: c.Pool.AddUtf8("com.example.Custom"), Info: []byte{1, 2, 3}}
	if v, err := DecodeAttr(c, &a); v != nil || err != nil {
		t.Errorf("unknown attribute decoded: %v, %v", v, err)
	}
	// Encoding refuses counts that do not fit.
	if _, err := EncodeAttr(c, &MethodParameters{Params: make([]MethodParameter, 256)}); err == nil {
		t.Error("EncodeAttr accepted 256 method parameters")
	}
}

// FuzzDecodeAttr feeds arbitrary bytes to every attribute decoder: no
// panic, and whatever decodes must re-encode to the same bytes.
func FuzzDecodeAttr(f *testing.F) {
	classes := compileAttrSample(f)
	names := make([]string, 0, len(attrDecoders))
	for n := range attrDecoders {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, c := range classes {
		for _, m := range append(append([]*Member{}, c.Fields...), c.Methods...) {
			for _, a := range append(m.Attributes, c.Attributes...) {
				if n := sort.SearchStrings(names, c.Pool.Utf8(a.Name)); n < len(names) && names[n] == c.Pool.Utf8(a.Name) {
					f.Add(uint8(n), a.Info)
				}
			}
		}
	}
	c := &Class{Pool: NewPool()}
	c.This = c.Pool.AddClass("fuzz/Attr")
	idx := make([]uint16, len(names))
	for i, n := range names {
		idx[i] = c.Pool.AddUtf8(n)
	}
	f.Fuzz(func(t *testing.T, which uint8, info []byte) {
		a := Attribute{Name: idx[int(which)%len(idx)], Info: info}
		v, err := DecodeAttr(c, &a)
		if err != nil {
			var ae *AttrError
			if !errors.As(err, &ae) || ae.Class != "fuzz/Attr" || ae.Offset < 0 || ae.Offset > len(info) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		enc, err := EncodeAttr(c, v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(enc.Info, info) {
			t.Fatalf("%s re-encodes differently:\n got %x\nwant %x", names[int(which)%len(idx)], enc.Info, info)
		}
	})
}
