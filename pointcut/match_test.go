package pointcut

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
)

// residueString renders a residue compactly: this instanceof T, etc.
func residueString(r *advice.Residue) string {
	if r == nil {
		return ""
	}
	switch r.Op {
	case advice.InstanceOf:
		v := r.Value.Kind.String()
		if r.Value.Kind == advice.Arg {
			v = fmt.Sprintf("arg%d", r.Value.Index)
		}
		return v + " instanceof " + r.Type
	case advice.Not:
		return "!(" + residueString(r.Children[0]) + ")"
	case advice.HasAnnotation:
		v := r.Value.Kind.String()
		if r.Value.Kind == advice.Arg {
			v = fmt.Sprintf("arg%d", r.Value.Index)
		}
		return v + " @" + r.Type
	}
	var parts []string
	for _, c := range r.Children {
		parts = append(parts, residueString(c))
	}
	op := " && "
	if r.Op == advice.Or {
		op = " || "
	}
	return "(" + strings.Join(parts, op) + ")"
}

func valuesString(vs []advice.Value) string {
	var parts []string
	for _, v := range vs {
		s := v.Kind.String()
		if v.Kind == advice.Arg {
			s = fmt.Sprintf("arg%d", v.Index)
		}
		parts = append(parts, s+":"+v.Desc)
	}
	return strings.Join(parts, " ")
}

var (
	callPut   = &advice.Shadow{Kind: advice.MethodCall, Within: "app/Main", Code: mainM, Member: advice.Member{Owner: "java/util/Map", Name: "put", Desc: putDesc, Access: pub | 0x400, AccessKnown: true}, StaticThis: true}
	callPutHM = &advice.Shadow{Kind: advice.MethodCall, Within: "app/Sub", Code: advice.Member{Owner: "app/Sub", Name: "run", Desc: "(I)V"},
		Member: advice.Member{Owner: "java/util/HashMap", Name: "put", Desc: putDesc, Access: pub, AccessKnown: true}}
	execPut   = &advice.Shadow{Kind: advice.MethodExecution, Within: "java/util/HashMap", Code: mapPut, Member: mapPut}
	execMain  = &advice.Shadow{Kind: advice.MethodExecution, Within: "app/Main", Code: mainM, Member: mainM, StaticThis: true}
	newMap    = &advice.Shadow{Kind: advice.ConstructorCall, Within: "app/Main$Inner", Code: advice.Member{Owner: "app/Main$Inner", Name: "go", Desc: "()V"}, Member: mapCtor, StaticTarget: true}
	execCtor  = &advice.Shadow{Kind: advice.ConstructorExecution, Within: "app/Main", Code: mainCtor, Member: mainCtor}
	newInts   = &advice.Shadow{Kind: advice.ArrayConstruction, Within: "app/Main", Code: mainM, Member: int2D, StaticThis: true, StaticTarget: true}
	callFmt   = &advice.Shadow{Kind: advice.MethodCall, Within: "app/Main", Code: mainM, Member: format, StaticThis: true, StaticTarget: true}
	callClone = &advice.Shadow{Kind: advice.MethodCall, Within: "app/Main", Code: mainM, StaticThis: true,
		Member: advice.Member{Owner: "[I", Name: "clone", Desc: "()Ljava/lang/Object;", Access: pub, AccessKnown: true}}
)

var allShadows = map[string]*advice.Shadow{"callPut": callPut, "callPutHM": callPutHM, "execPut": execPut, "execMain": execMain,
	"newMap": newMap, "execCtor": execCtor, "newInts": newInts, "callFmt": callFmt, "callClone": callClone}

// Each pointcut against every test shadow: the expected results name the
// shadows that match, with their residue and the advice call's arguments.
func TestMatch(t *testing.T) {
	h := testHier()
	tests := []struct {
		advice string
		want   map[string]string // shadow → "verdict residue | args"
	}{
		{`before(): call(* *(..))`, map[string]string{"callPut": "always", "callPutHM": "always", "callFmt": "always", "callClone": "always"}},
		{`before(): execution(* *(..))`, map[string]string{"execPut": "always", "execMain": "always"}},
		{`before(): execution(new(..))`, map[string]string{"execCtor": "always"}},
		{`before(): call(*.new(..))`, map[string]string{"newMap": "always"}},
		{`before(): call(*[].new(..))`, map[string]string{"newInts": "always"}},
		{`before(): call(* java.util.Map.put(..))`, map[string]string{"callPut": "always", "callPutHM": "always"}},
		{`before(): within(app.Main)`, map[string]string{"callPut": "always", "execMain": "always", "newMap": "always",
			"execCtor": "always", "newInts": "always", "callFmt": "always", "callClone": "always"}},
		{`before(): within(app.Main.Inner)`, map[string]string{"newMap": "always"}},
		{`before(): within(java..*) && execution(* put(..))`, map[string]string{"execPut": "always"}},
		// A method's execution is not within its code; a constructor's is
		// (checked against ajc 1.9.5).
		{`before(): withincode(static * app.Main.main(String[]))`, map[string]string{"callPut": "always",
			"newInts": "always", "callFmt": "always", "callClone": "always"}},
		{`before(): withincode(app.Main.new())`, map[string]string{"execCtor": "always"}},
		{`before(): call(* *(..)) && !withincode(* main(..))`, map[string]string{"callPutHM": "always"}},
		// this/target: static types decide, else a runtime test.
		{`before(): this(Object)`, map[string]string{"callPutHM": "always", "execPut": "always", "newMap": "always", "execCtor": "always"}},
		{`before(): this(app.Main)`, map[string]string{"callPutHM": "always", "execCtor": "always"}},
		{`before(): this(app.Sub)`, map[string]string{"callPutHM": "always", "execCtor": "maybe this instanceof app/Sub"}},
		{`before(): this(String)`, nil},
		{`before(): target(java.util.HashMap)`, map[string]string{"callPut": "maybe target instanceof java/util/HashMap",
			"callPutHM": "always", "execPut": "always"}},
		{`before(): target(java.util.List)`, map[string]string{"callPut": "maybe target instanceof java/util/List",
			"callPutHM": "maybe target instanceof java/util/List", "execPut": "maybe target instanceof java/util/List",
			"execCtor": "maybe target instanceof java/util/List"}},
		{`before(): target(*)`, map[string]string{"callPut": "always", "callPutHM": "always", "execPut": "always", "execCtor": "always", "callClone": "always"}},
		{`before(): target(Cloneable) && call(* clone())`, map[string]string{"callClone": "always"}},
		// args: boxing, widening, subtypes, `..`, array dimensions.
		{`before(): args(Object, Object)`, map[string]string{"callPut": "always", "callPutHM": "always", "execPut": "always", "newInts": "always", "callFmt": "always"}},
		{`before(): args(String, ..) && call(* *(..))`, map[string]string{"callPut": "maybe arg0 instanceof java/lang/String",
			"callPutHM": "maybe arg0 instanceof java/lang/String", "callFmt": "always"}},
		{`before(): args(.., Object[])`, map[string]string{"execMain": "always", "callFmt": "always",
			"callPut": "maybe arg1 instanceof [Ljava/lang/Object;", "callPutHM": "maybe arg1 instanceof [Ljava/lang/Object;",
			"execPut": "maybe arg1 instanceof [Ljava/lang/Object;"}},
		{`before(): args(int)`, map[string]string{"newMap": "always"}},
		{`before(): args(long)`, map[string]string{"newMap": "always"}},
		{`before(): args(Integer)`, map[string]string{"newMap": "always"}},
		{`before(): args(short)`, nil},
		{`before(): args(int, int)`, map[string]string{"newInts": "always"}},
		{`before(): args()`, map[string]string{"execCtor": "always", "callClone": "always"}},
		{`before(): args(*, ..) && call(* *(..))`, map[string]string{"callPut": "always", "callPutHM": "always", "callFmt": "always"}},
		// !, ||, && with residues.
		{`before(): call(* put(..)) && !args(String, *)`, map[string]string{"callPut": "maybe !(arg0 instanceof java/lang/String)",
			"callPutHM": "maybe !(arg0 instanceof java/lang/String)"}},
		{`before(): call(* put(..)) && (args(String, *) || args(*, Integer))`, map[string]string{
			"callPut":   "maybe (arg0 instanceof java/lang/String || arg1 instanceof java/lang/Integer)",
			"callPutHM": "maybe (arg0 instanceof java/lang/String || arg1 instanceof java/lang/Integer)"}},
		{`before(): call(* put(..)) && args(String, Integer) && target(java.util.HashMap)`, map[string]string{
			"callPut":   "maybe (arg0 instanceof java/lang/String && arg1 instanceof java/lang/Integer && target instanceof java/util/HashMap)",
			"callPutHM": "maybe (arg0 instanceof java/lang/String && arg1 instanceof java/lang/Integer)"}},
		{`before(): call(* put(..)) || this(String)`, map[string]string{"callPut": "always", "callPutHM": "always"}},
	}
	for _, tt := range tests {
		p := mustResolve(t, "aspect A {\n"+tt.advice+" { a.B.c(); }\n}\n")
		for name, s := range allShadows {
			got := ""
			if as := p.Match(s, h); len(as) > 0 {
				a := as[0]
				got = "always"
				if a.Verdict == advice.Maybe {
					got = "maybe " + residueString(a.Residue)
				}
			}
			if got != tt.want[name] {
				t.Errorf("%s at %s: got %q, want %q", tt.advice, name, got, tt.want[name])
			}
		}
	}
}

// Formals bound by this, target, args and returning become the advice
// call's arguments, with the advice parameter's descriptor.
func TestBinding(t *testing.T) {
	checkBindTable(t, []adviceCase{
		{`before(java.util.Map m, Object k, Object v): call(* put(..)) && target(m) && args(k, v) { a.B.c(v, k, m); }`,
			callPutHM, " | arg1:Ljava/lang/Object; arg0:Ljava/lang/Object; target:Ljava/util/Map;"},
		{`before(String k): call(* put(..)) && args(k, ..) { a.B.c(k, joinPointId); }`,
			callPut, "arg0 instanceof java/lang/String | arg0:Ljava/lang/String; joinPointId:I"},
		{`before(Object last): args(.., last) { a.B.c(last); }`, callFmt, " | arg1:Ljava/lang/Object;"},
		{`before(Object last): args(.., last) { a.B.c(last); }`, callPut, " | arg1:Ljava/lang/Object;"},
		{`before(int d1, int d2): args(d1, d2) && call(int[][].new(..)) { a.B.c(d2, arrayDims, d1); }`,
			newInts, " | arg1:I arrayDims:[I arg0:I"},
		{`before(app.Main m): this(m) { a.B.c(m, thisJoinPointStaticPart, thisEnclosingJoinPointStaticPart); }`,
			execCtor, " | this:Lapp/Main; thisJoinPointStaticPart:Lweft/rt/JoinPointStaticPart; thisEnclosingJoinPointStaticPart:Lweft/rt/JoinPointStaticPart;"},
		{`after() returning(Object o): call(*.new(..)) { a.B.c(o); }`, newMap, " | returned:Ljava/lang/Object;"},
		{`after() returning(java.util.Map o): call(*.new(..)) { a.B.c(o); }`, newMap, " | returned:Ljava/util/Map;"},
		{`after() throwing(Throwable e): call(* put(..)) { a.B.c(e); }`, callPut, " | thrown:Ljava/lang/Throwable;"},
		// through named pointcuts, which add their own type tests
		{`pointcut puts(java.util.Map m, Object k): call(* put(..)) && target(m) && args(k, *);
		  before(java.util.HashMap m): puts(m, String) { a.B.c(m); }`,
			callPut, "(target instanceof java/util/HashMap && arg0 instanceof java/lang/String) | target:Ljava/util/HashMap;"},
	})
}

// after returning(T x) and after throwing(T x): static checks, and an exit
// test when only the run time can tell.
func TestExitChecks(t *testing.T) {
	checkExitTable(t, []adviceCase{
		{`after() returning(Object o): call(* *(..))`, callPut, "always"},
		{`after() returning(String s): call(* *(..))`, callPut, "java/lang/String"},
		{`after() returning(String s): call(* *(..))`, callFmt, "always"},
		{`after() returning(Integer s): call(* format(..))`, callFmt, ""},
		{`after() returning(Object o): execution(* main(..))`, execMain, "always"}, // void: o is null
		{`after() returning(String o): execution(* main(..))`, execMain, ""},
		{`after() returning(java.util.Map m): call(*.new(..))`, newMap, "always"},
		{`after() returning(java.util.List m): call(*.new(..))`, newMap, "java/util/List"},
		{`after() returning(int[][] a): call(*[].new(..))`, newInts, "always"},
		{`after() returning(long[][] a): call(*[].new(..))`, newInts, ""},
		{`after() returning: call(* *(..))`, callPut, "always"},
		{`after() throwing(Throwable e): call(* *(..))`, callPut, "always"},
		{`after() throwing(java.io.IOException e): call(* *(..))`, callPut, "java/io/IOException"},
		{`after() throwing(String e): call(* *(..))`, callPut, ""},
	})
}

// arrayDims exists only at array construction.
func TestArrayDimsOnlyAtArrays(t *testing.T) {
	p := mustResolve(t, "aspect A {\nbefore(): call(*.new(..)) || call(*[].new(..)) { a.B.c(arrayDims); }\n}\n")
	if n := len(p.Match(newMap, nil)); n != 0 {
		t.Errorf("arrayDims advice at a constructor call")
	}
	if n := len(p.Match(newInts, nil)); n != 1 {
		t.Errorf("arrayDims advice not at array construction")
	}
}

// Precedence within an aspect: earlier before advice first, later after
// advice first; aspects in declaration order.
func TestPrecedence(t *testing.T) {
	p := mustResolve(t, `aspect First {
    before(): call(* *(..)) { a.B.b1(); }
    after(): call(* *(..)) { a.B.a1(); }
    before(): call(* *(..)) { a.B.b2(); }
    after() returning: call(* *(..)) { a.B.a2(); }
}
aspect Second {
    after(): call(* *(..)) { a.B.a3(); }
    before(): call(* *(..)) { a.B.b3(); }
}
`)
	var names []string
	for _, a := range p.Match(callPut, nil) {
		names = append(names, a.Advice.Method.Name)
	}
	if got := strings.Join(names, " "); got != "b1 b2 a2 a1 b3 a3" {
		t.Errorf("precedence order %q", got)
	}
	var decl []string
	for _, a := range p.Advice() {
		decl = append(decl, fmt.Sprintf("%s%d", a.Method.Name, a.Order))
	}
	if got := strings.Join(decl, " "); got != "b10 a11 b22 a23 a30 b31" {
		t.Errorf("declaration order %q", got)
	}
}

// Advice.Args is the template: an args(.., x) index depends on the shadow.
func TestAdviceArgsTemplate(t *testing.T) {
	p := mustResolve(t, "aspect A {\nbefore(Object a, Object b, Object c): args(a, .., b) && target(c) { a.B.c(a, b, c, joinPointId); }\n}\n")
	got := valuesString(p.Advice()[0].Args)
	want := "arg0:Ljava/lang/Object; arg-1:Ljava/lang/Object; target:Ljava/lang/Object; joinPointId:I"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
