package pointcut

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Type pattern semantics from AspectJ's programming guide (quick reference
// "Type patterns" and the semantics appendix), as matching and
// non-matching cases on descriptors.
func TestTypePatterns(t *testing.T) {
	h := testHier()
	tests := []struct {
		pattern string
		yes, no []string
	}{
		// `*` alone: every type, primitives, void and arrays.
		{"*", []string{"Ljava/lang/String;", "I", "V", "[[I", "Lapp/Main$Inner;"}, nil},
		// `*` never crosses a '.'.
		{"java.*.String", []string{"Ljava/lang/String;"}, []string{"Ljava/lang/reflect/String;", "Ljava/String;"}},
		{"java.util.*", []string{"Ljava/util/HashMap;", "Ljava/util/Map;"},
			[]string{"Ljava/util/concurrent/ConcurrentHashMap;", "Ljava/util/Map$Entry;", "Ljava/utilx/A;"}},
		{"java.util.*Map", []string{"Ljava/util/HashMap;", "Ljava/util/Map;", "Ljava/util/LinkedHashMap;"},
			[]string{"Ljava/util/HashSet;", "Ljava/util/concurrent/ConcurrentHashMap;"}},
		{"*Exception", []string{"Ljava/lang/RuntimeException;", "LMyException;"}, []string{"Ljava/io/IOException;"}},
		{"Str*", []string{"Ljava/lang/String;", "Ljava/lang/StringBuilder;"}, []string{"Lapp/String;"}},
		// `..`: any sequence that starts and ends with '.'.
		{"java..*", []string{"Ljava/util/HashMap;", "Ljava/lang/String;", "Ljava/util/concurrent/ConcurrentHashMap;", "Ljava/util/Map$Entry;"},
			[]string{"Ljavax/swing/JFrame;", "I", "Ljava;"}},
		{"java..Map", []string{"Ljava/util/Map;"}, []string{"Ljava/util/HashMap;"}},
		{"*..*", []string{"Ljava/lang/String;", "Ljava/util/Map$Entry;"}, []string{"LMain;"}},
		{"app..*", []string{"Lapp/Main;", "Lapp/Main$Inner;"}, []string{"Lapplication/Main;"}},
		// java.lang types unqualified; qualified names as written.
		{"String", []string{"Ljava/lang/String;", "LString;"}, []string{"Lapp/String;", "[Ljava/lang/String;"}},
		{"java.lang.String", []string{"Ljava/lang/String;"}, []string{"Lapp/String;"}},
		// nested types: '$' is a separator like '.'.
		{"java.util.Map.Entry", []string{"Ljava/util/Map$Entry;"}, []string{"Ljava/util/Map;"}},
		{"java.util.Map.*", []string{"Ljava/util/Map$Entry;"}, []string{"Ljava/util/Map;"}},
		{"java.util.Map$Entry", []string{"Ljava/util/Map$Entry;"}, nil},
		// `+`: the type and all its subtypes.
		{"java.util.Map+", []string{"Ljava/util/Map;", "Ljava/util/HashMap;", "Ljava/util/LinkedHashMap;", "Ljava/util/concurrent/ConcurrentHashMap;"},
			[]string{"Ljava/util/ArrayList;", "Ljava/lang/String;", "[Ljava/util/HashMap;", "Lunknown/Cls;"}},
		{"java.util.*Map+", []string{"Ljava/util/LinkedHashMap;", "Ljava/util/concurrent/ConcurrentHashMap;"}, []string{"Ljava/util/ArrayList;"}},
		{"java.util.AbstractMap+", []string{"Ljava/util/HashMap;"}, []string{"Ljava/util/Map;"}},
		{"Object+", []string{"Ljava/lang/String;", "[I", "Lunknown/Cls;"}, []string{"I", "V"}},
		{"java.io.Serializable+", []string{"Ljava/lang/String;", "[I", "[Ljava/util/HashMap;"}, []string{"Ljava/util/ArrayList;"}},
		{"Comparable+", []string{"Ljava/lang/Integer;"}, []string{"Ljava/util/HashMap;"}},
		// arrays: dimensions must agree, except that `*` is any type.
		{"int[]", []string{"[I"}, []string{"I", "[[I", "[J", "[Ljava/lang/Integer;"}},
		{"int[][]", []string{"[[I"}, []string{"[I"}},
		{"String[]", []string{"[Ljava/lang/String;"}, []string{"[Ljava/lang/Object;", "Ljava/lang/String;"}},
		{"Object[]", []string{"[Ljava/lang/Object;"}, []string{"[Ljava/lang/String;", "[I"}},
		{"Object+[]", []string{"[Ljava/lang/String;", "[[I", "[Ljava/lang/Object;"}, []string{"[I", "Ljava/lang/Object;"}},
		{"java.util.Map+[]", []string{"[Ljava/util/HashMap;"}, []string{"Ljava/util/HashMap;", "[[Ljava/util/HashMap;"}},
		{"*[]", []string{"[I", "[[I", "[Ljava/lang/String;"}, []string{"I", "Ljava/lang/String;"}},
		{"*[][]", []string{"[[I", "[[[J"}, []string{"[I"}},
		// primitives and void are exact names.
		{"int", []string{"I"}, []string{"J", "Ljava/lang/Integer;", "[I"}},
		{"void", []string{"V"}, []string{"I"}},
		{"Integer", []string{"Ljava/lang/Integer;"}, []string{"I"}},
		// !, &&, ||, parentheses.
		{"!String", []string{"Ljava/lang/Integer;", "I"}, []string{"Ljava/lang/String;"}},
		{"java.util.Map+ && !java.util.HashMap", []string{"Ljava/util/LinkedHashMap;", "Ljava/util/Map;"}, []string{"Ljava/util/HashMap;"}},
		{"java.util.List+ || java.util.Map+", []string{"Ljava/util/ArrayList;", "Ljava/util/HashMap;"}, []string{"Ljava/lang/String;"}},
		{"!(int || long)", []string{"S", "Ljava/lang/Object;"}, []string{"I", "J"}},
		{"(java.util.*)", []string{"Ljava/util/HashMap;"}, []string{"Ljava/lang/String;"}},
	}
	for _, tt := range tests {
		p, _ := compileTypeText(t, tt.pattern)
		for _, d := range tt.yes {
			if !p.match(d, h) {
				t.Errorf("%s should match %s", tt.pattern, classfile.Type(d).JavaName())
			}
		}
		for _, d := range tt.no {
			if p.match(d, h) {
				t.Errorf("%s should not match %s", tt.pattern, classfile.Type(d).JavaName())
			}
		}
	}
}

// Without a hierarchy, `+` sees only the type itself (and Object+ still
// matches every reference type).
func TestPlusWithoutHierarchy(t *testing.T) {
	p, _ := compileTypeText(t, "java.util.Map+")
	if p.match("Ljava/util/HashMap;", nil) {
		t.Error("Map+ matched HashMap with no hierarchy")
	}
	if !p.match("Ljava/util/Map;", nil) {
		t.Error("Map+ did not match Map")
	}
	p, _ = compileTypeText(t, "Object+")
	if !p.match("Lany/Thing;", nil) {
		t.Error("Object+ did not match a class")
	}
}

func TestUnqualifiedTypeWarns(t *testing.T) {
	_, c := compileTypeText(t, "IOException")
	if len(c.warns) != 1 || !contains(c.warns[0].Error(), "not qualified", "java.io.IOException") {
		t.Errorf("want a warning about IOException, got %v", c.warns)
	}
	_, c = compileTypeText(t, "String || int || Foo*")
	if len(c.warns) != 0 {
		t.Errorf("unexpected warnings: %v", c.warns)
	}
}

var (
	putDesc  = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"
	mapPut   = advice.Member{Owner: "java/util/HashMap", Name: "put", Desc: putDesc, Access: pub, AccessKnown: true}
	lhmPut   = advice.Member{Owner: "java/util/LinkedHashMap", Name: "put", Desc: putDesc, Access: pub, AccessKnown: true}
	format   = advice.Member{Owner: "java/lang/String", Name: "format", Desc: "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;", Access: pub | classfile.AccStatic | classfile.AccVarargs, AccessKnown: true}
	mainM    = advice.Member{Owner: "app/Main", Name: "main", Desc: "([Ljava/lang/String;)V", Access: pub | classfile.AccStatic, AccessKnown: true}
	secret   = advice.Member{Owner: "app/Main", Name: "secret", Desc: "()V", Access: classfile.AccPrivate, AccessKnown: true}
	mainCtor = advice.Member{Owner: "app/Main", Name: "<init>", Desc: "()V", Access: pub, AccessKnown: true}
	mapCtor  = advice.Member{Owner: "java/util/HashMap", Name: "<init>", Desc: "(I)V", Access: pub, AccessKnown: true}
	read     = advice.Member{Owner: "app/IO", Name: "read", Desc: "()I", Access: pub, AccessKnown: true, Exceptions: []string{"java/io/IOException"}}
	both     = advice.Member{Owner: "app/IO", Name: "both", Desc: "()V", Access: pub, AccessKnown: true, Exceptions: []string{"java/lang/RuntimeException", "java/io/IOException"}}
	boolsM   = advice.Member{Owner: "app/A", Name: "add", Desc: "([ZZ)[Z", Access: pub | classfile.AccStatic, AccessKnown: true}
	clinit   = advice.Member{Owner: "app/Main", Name: "<clinit>", Desc: "()V", Access: classfile.AccStatic, AccessKnown: true}
	manyInts = advice.Member{Owner: "app/Main", Name: "many", Desc: "(" + strings.Repeat("I", 120) + ")V", Access: pub, AccessKnown: true}
	unknown  = advice.Member{Owner: "app/Main", Name: "run", Desc: "()V"} // unresolved call: modifiers unknown
	int2D    = advice.Member{Owner: "[[I", Name: "<init>", Desc: "(II)V"}
	str1D    = advice.Member{Owner: "[Ljava/lang/String;", Name: "<init>", Desc: "(I)V"}
)

// Signature pattern semantics: names, parameter lists with `..`, varargs,
// modifiers and !modifiers, throws patterns, constructors and arrays.
func TestSignaturePatterns(t *testing.T) {
	h := testHier()
	tests := []struct {
		sig     string
		yes, no []advice.Member
	}{
		{"* *(..)", []advice.Member{mapPut, format, mainM, secret}, []advice.Member{mainCtor, int2D, clinit}},
		{"* java.util.HashMap.put(..)", []advice.Member{mapPut}, []advice.Member{lhmPut, format}},
		{"* put(..)", []advice.Member{mapPut, lhmPut}, []advice.Member{format}},
		{"* p*(..)", []advice.Member{mapPut}, []advice.Member{mainM}},
		{"* java.util.*.put(..)", []advice.Member{mapPut}, nil},
		{"* java..*.put(..)", []advice.Member{mapPut}, nil},
		{"* java.*.put(..)", nil, []advice.Member{mapPut}},
		// parameter lists
		{"* put(Object, Object)", []advice.Member{mapPut}, nil},
		{"* put(*, *)", []advice.Member{mapPut}, nil},
		{"* put(*)", nil, []advice.Member{mapPut}},
		{"* put()", nil, []advice.Member{mapPut}},
		{"* put(.., Object)", []advice.Member{mapPut}, nil},
		{"* put(Object, ..)", []advice.Member{mapPut}, nil},
		{"* put(Object, .., Object)", []advice.Member{mapPut}, nil},
		{"* put(.., Object, .., Object, ..)", []advice.Member{mapPut}, nil},
		{"* put(String, ..)", nil, []advice.Member{mapPut}},
		{"* *()", []advice.Member{secret}, []advice.Member{mapPut}},
		// many `..` cost polynomial time, not exponential
		{"* *(.., .., .., .., .., .., .., .., .., .., .., String)", nil, []advice.Member{manyInts}},
		{"* *(.., int, .., int, .., .., int)", []advice.Member{manyInts}, nil},
		// return types
		{"Object *(..)", []advice.Member{mapPut}, []advice.Member{mainM, format}},
		{"void *(..)", []advice.Member{mainM, secret}, []advice.Member{mapPut}},
		{"* *(..)", []advice.Member{boolsM}, nil},
		{"boolean[] *(boolean[], ..)", []advice.Member{boolsM}, nil},
		{"int[] *(..)", nil, []advice.Member{boolsM}},
		{"!void *(..)", []advice.Member{mapPut, format}, []advice.Member{mainM}},
		{"String java.lang.String.format(String, Object...)", []advice.Member{format}, nil},
		// varargs are distinct from arrays (AspectJ 5 notebook)
		{"* format(String, Object[])", nil, []advice.Member{format}},
		{"* main(String...)", nil, []advice.Member{mainM}},
		{"* main(String[])", []advice.Member{mainM}, nil},
		{"* *(..,Object...)", []advice.Member{format}, []advice.Member{mapPut}},
		// modifiers
		{"public * *(..)", []advice.Member{mapPut, format, mainM}, []advice.Member{secret, unknown}},
		{"!public * *(..)", []advice.Member{secret}, []advice.Member{mapPut, unknown}},
		{"public static * *(..)", []advice.Member{format, mainM}, []advice.Member{mapPut}},
		{"public !static * *(..)", []advice.Member{mapPut}, []advice.Member{format}},
		{"private * *(..)", []advice.Member{secret}, []advice.Member{mainM}},
		{"* run()", []advice.Member{unknown}, nil},
		// throws: an item matches if some declared exception matches; a !
		// item if none does; `throws (!T)` is a type pattern.
		{"* *(..) throws java.io.IOException", []advice.Member{read, both}, []advice.Member{mapPut}},
		{"* *(..) throws java.lang.Exception+", []advice.Member{read, both}, []advice.Member{mapPut}},
		{"* *(..) throws !java.io.IOException", []advice.Member{mapPut, secret}, []advice.Member{read, both}},
		{"* *(..) throws (!java.io.IOException)", []advice.Member{both}, []advice.Member{read, mapPut}},
		{"* *(..) throws java.io.IOException, !RuntimeException", []advice.Member{read}, []advice.Member{both}},
		{"* *(..) throws IOException", nil, []advice.Member{read}}, // unqualified: only the unnamed package
		// constructors
		{"app.Main.new()", []advice.Member{mainCtor}, []advice.Member{mainM, mapCtor}},
		{"app.Main.new(..)", []advice.Member{mainCtor}, nil},
		{"app..*.new(..)", []advice.Member{mainCtor}, []advice.Member{mapCtor}},
		{"*.new(..)", []advice.Member{mainCtor, mapCtor}, []advice.Member{mapPut, int2D}},
		{"new(..)", []advice.Member{mainCtor, mapCtor}, []advice.Member{mapPut, int2D}},
		{"java.util.Map+.new(int)", []advice.Member{mapCtor}, []advice.Member{mainCtor}},
		{"public java.util.HashMap.new(*)", []advice.Member{mapCtor}, nil},
		// array construction: the declaring type is the array type and the
		// parameters are the dimensions.
		{"int[][].new(..)", []advice.Member{int2D}, []advice.Member{str1D, mainCtor}},
		{"int[][].new(int, int)", []advice.Member{int2D}, nil},
		{"int[][].new(int)", nil, []advice.Member{int2D}},
		{"int[].new(..)", nil, []advice.Member{int2D}},
		{"*[].new(..)", []advice.Member{int2D, str1D}, []advice.Member{mainCtor}},
		{"String[].new(int)", []advice.Member{str1D}, []advice.Member{int2D}},
		{"Object+[].new(..)", []advice.Member{str1D, int2D}, nil},
		{"public *[].new(..)", []advice.Member{int2D}, nil},
	}
	for _, tt := range tests {
		s, _ := parseSig(t, tt.sig)
		h := plainHier{h} // signatures through supertypes: TestSignaturesThroughSupertypes
		for _, m := range tt.yes {
			if !s.matchMember(&m, m.Owner[0] == '[', h) {
				t.Errorf("%s should match %s.%s%s", tt.sig, m.Owner, m.Name, m.Desc)
			}
		}
		for _, m := range tt.no {
			if s.matchMember(&m, m.Owner[0] == '[', h) {
				t.Errorf("%s should not match %s.%s%s", tt.sig, m.Owner, m.Name, m.Desc)
			}
		}
	}
}

// A call's signatures include those of each supertype declaring the method
// (AspectJ): call(* java.util.Map.put(..)) matches hashMap.put(k, v) when
// the hierarchy knows Map declares put; with a plain Hierarchy only the
// static owner's signature is matched.
func TestSignaturesThroughSupertypes(t *testing.T) {
	h := testHier()
	tests := []struct {
		sig        string
		m          advice.Member
		withMethod bool
		plain      bool
	}{
		{"* java.util.Map.put(..)", mapPut, true, false},
		{"* java.util.AbstractMap.put(..)", lhmPut, true, false},
		{"* java.util.HashMap.put(..)", lhmPut, true, false},
		{"* java.util.Map+.put(..)", lhmPut, true, true},
		{"* java.util.LinkedHashMap.put(..)", lhmPut, true, true},
		{"* java.util.List.put(..)", mapPut, false, false},
		{"abstract * java.util.Map.put(..)", mapPut, true, false}, // Map.put's own modifiers
		{"abstract * java.util.HashMap.put(..)", mapPut, false, false},
		{"* Object.put(..)", mapPut, false, false}, // Object declares no put
		{"* Object.toString()", advice.Member{Owner: "java/util/HashMap", Name: "toString", Desc: "()Ljava/lang/String;", Access: pub, AccessKnown: true}, true, false},
		{"* app.Main.secret()", secret, true, true},
	}
	for _, tt := range tests {
		s, _ := parseSig(t, tt.sig)
		if got := s.matchMember(&tt.m, false, h); got != tt.withMethod {
			t.Errorf("MethodHierarchy: %s on %s.%s: got %v", tt.sig, tt.m.Owner, tt.m.Name, got)
		}
		if got := s.matchMember(&tt.m, false, plainHier{h}); got != tt.plain {
			t.Errorf("plain Hierarchy: %s on %s.%s: got %v", tt.sig, tt.m.Owner, tt.m.Name, got)
		}
	}
}

func TestInstanceTest(t *testing.T) {
	h := testHier()
	tests := []struct {
		static, want string
		v            advice.Verdict
	}{
		{"Ljava/lang/String;", "Ljava/lang/Object;", advice.Always},
		{"I", "Ljava/lang/Object;", advice.Always}, // boxed
		{"I", "Ljava/lang/Integer;", advice.Always},
		{"I", "Ljava/lang/Number;", advice.Never},
		{"I", "J", advice.Always}, // widening
		{"J", "I", advice.Never},
		{"Ljava/lang/Integer;", "I", advice.Always},
		{"Ljava/lang/Object;", "I", advice.Never},
		{"Ljava/lang/Object;", "Ljava/lang/String;", advice.Maybe},
		{"Ljava/util/Map;", "Ljava/util/HashMap;", advice.Maybe},
		{"Ljava/util/HashMap;", "Ljava/util/Map;", advice.Always},
		{"Ljava/util/LinkedHashMap;", "Ljava/util/AbstractMap;", advice.Always},
		{"Ljava/lang/String;", "Ljava/lang/Integer;", advice.Never}, // unrelated classes
		{"Ljava/lang/String;", "Ljava/util/Map;", advice.Never},     // final class, not implementing
		{"Ljava/util/HashMap;", "Ljava/util/List;", advice.Maybe},   // a subclass may implement List
		{"Lunknown/A;", "Lunknown/B;", advice.Maybe},                // missing classes: test at run time
		{"[I", "Ljava/lang/Cloneable;", advice.Always},
		{"[I", "[J", advice.Never},
		{"[Ljava/lang/String;", "[Ljava/lang/Object;", advice.Always},
		{"[Ljava/lang/Object;", "[Ljava/lang/String;", advice.Maybe},
		{"Ljava/lang/Object;", "[I", advice.Maybe},
		{"Ljava/lang/String;", "[I", advice.Never},
	}
	for _, tt := range tests {
		if got := instanceTest(tt.static, tt.want, h); got != tt.v {
			t.Errorf("instanceTest(%s, %s) = %v, want %v", tt.static, tt.want, got, tt.v)
		}
	}
}
