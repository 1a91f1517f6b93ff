package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// Around advice parses with its return type, binds proceed as a
// weft.rt.Proceed, and its method must return the declared type.
func TestAroundBinding(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{
		"weft/rt/Proceed.java": `package weft.rt; public abstract class Proceed { }`,
		"ar/A.java": `package ar;
import weft.rt.Proceed;
public class A {
    public static Object obj(Proceed p, int x) { return null; }
    public static int prim(Proceed p) { return 0; }
    public static void none(Proceed p) {}
    public static String str(Object p) { return null; }
}
`,
	})
	ok := []struct{ advice, desc, values, ret string }{
		{`Object around(int x): call(* *(int)) && args(x) { ar.A.obj(proceed, x); }`,
			"(Lweft/rt/Proceed;I)Ljava/lang/Object;", "proceed:Lweft/rt/Proceed; arg0:I", "Ljava/lang/Object;"},
		{`int around(): execution(int *(..)) { ar.A.prim(proceed); }`, "(Lweft/rt/Proceed;)I", "proceed:Lweft/rt/Proceed;", "I"},
		{`void around(): set(* *) { ar.A.none(proceed); }`, "(Lweft/rt/Proceed;)V", "proceed:Lweft/rt/Proceed;", "V"},
		{`java.lang.String around(): call(String *(..)) { ar.A.str(proceed); }`, "(Ljava/lang/Object;)Ljava/lang/String;", "proceed:Ljava/lang/Object;", "Ljava/lang/String;"},
	}
	for _, tt := range ok {
		p, err := resolveCP(t, dir, tt.advice)
		if err != nil {
			t.Errorf("%s: %v", tt.advice, err)
			continue
		}
		a := p.Advice()[0]
		if a.Kind != advice.Around || a.Method.Desc != tt.desc || a.AroundType != tt.ret {
			t.Errorf("%s: bound %v %s returning %s, want %s returning %s", tt.advice, a.Kind, a.Method.Desc, a.AroundType, tt.desc, tt.ret)
		}
		if got := valuesString(a.Args); got != tt.values {
			t.Errorf("%s: values %s, want %s", tt.advice, got, tt.values)
		}
	}
	bad := []struct {
		advice string
		want   []string
	}{
		{`Object around(): call(* *(..)) { ar.A.obj(proceed, proceed); }`,
			[]string{"t.weft:2:34:", "(parameter 2 is int, cannot take weft.rt.Proceed)"}},
		{`int around(): call(* *(..)) { ar.A.none(proceed); }`,
			[]string{"t.weft:2:31: advice at line 2: no advice method fits: want public static int none(weft.rt.Proceed) in ar.A",
				"hint: found none(Lweft/rt/Proceed;)V (returns void, not int)"}},
		{`Object around(): call(* *(..)) { ar.A.prim(proceed); }`,
			[]string{"t.weft:2:34:", "(returns int, not java.lang.Object)"}},
		{`Object around(): call(* *(..)) { ar.A.obj(proceed); }`,
			[]string{"t.weft:2:34:", "(takes 2 parameters, the call passes 1)"}},
		{`Object around(): call(* *(..)) { ar.A.obj(thisJoinPointStaticPart, joinPointId); }`,
			[]string{"t.weft:2:34:", "(parameter 1 is weft.rt.Proceed, cannot take weft.rt.JoinPointStaticPart)"}},
	}
	for _, tt := range bad {
		_, err := resolveCP(t, dir, tt.advice)
		if err == nil || !contains(err.Error(), tt.want...) {
			t.Errorf("%s: got %v\nwant %q", tt.advice, err, tt.want)
		}
	}
}

// Errors of around advice and proceed, at file:line:col with a hint.
func TestAroundErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"Object around(): call(* *(..)) { return proceed(); }",
			[]string{"t.weft:2:41: unexpected token \"proceed\"", "hint: around advice is `Type around(Formals): Pointcut { pkg.Advice.m(proceed, ...); }`"}},
		{"around(): call(* *(..)) { a.B.c(); }",
			[]string{"t.weft:2:1: around advice needs a return type", "hint: write Object around(...)"}},
		{"before(): call(* *(..)) { a.B.c(proceed); }",
			[]string{"t.weft:2:33: proceed is only available in around advice", "hint: only around advice has the rest of the join point to proceed to"}},
		{"after() returning: call(* *(..)) { a.B.c(joinPointId, proceed); }",
			[]string{"t.weft:2:55: proceed is only available in around advice"}},
		{"Object around(): call(* *(..)) { a.B.proceed(); }",
			[]string{"t.weft:2:34: the advice body cannot call proceed itself", "hint: the body calls a method of your advice class; pass it proceed"}},
		{"Map around(): call(* *(..)) { a.B.c(proceed); }",
			[]string{"t.weft:2:1: around advice's return type:", "hint: write the fully qualified name: java.util.Map"}},
		{"Object around(Object o): call(* *(..)) { a.B.c(proceed, o); }",
			[]string{"t.weft:2:15: formal o is not bound by the pointcut"}},
		{"Object around(): call(* *(..)) { a.B.c(procede); }",
			[]string{"t.weft:2:40: unknown name procede in the advice call", "arrayDims, proceed"}},
	}
	for _, tt := range tests {
		got := resolveErr("aspect A {\n" + tt.src + "\n}\n")
		if !contains(got, tt.want...) {
			t.Errorf("%s: got\n%s\nwant it to contain %q", tt.src, got, tt.want)
		}
	}
}

// AspectJ's precedence within an aspect: before and around advice declared
// earlier, after advice declared later take precedence.
func TestAroundPrecedence(t *testing.T) {
	src := `aspect A {
    after(): call(* *(..)) { a.B.a1(); }
    Object around(): call(* *(..)) { a.B.r1(proceed); }
    before(): call(* *(..)) { a.B.b1(); }
    after(): call(* *(..)) { a.B.a2(); }
}
aspect C {
    before(): call(* *(..)) { a.B.b1(); }
    after(): call(* *(..)) { a.B.a1(); }
    before(): call(* *(..)) { a.B.b2(); }
    Object around(): call(* *(..)) { a.B.r1(proceed); }
}
`
	f, err := ParseFile("t.weft", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Resolve([]*File{f}, "")
	if err != nil {
		t.Fatal(err)
	}
	s := &advice.Shadow{Kind: advice.MethodCall, Within: "p/X", Member: advice.Member{Owner: "p/Y", Name: "m", Desc: "()V"}}
	var got []string
	for _, a := range p.Match(s, nil) {
		got = append(got, a.Advice.Aspect+"."+a.Advice.Method.Name)
	}
	// A: a2 > r1 > b1 > a1 (a total order). C: b1 before a1 before b2
	// is circular (ajc rejects it), so the declaration-order fallback.
	want := "A.a2 A.r1 A.b1 A.a1 C.b1 C.b2 C.r1 C.a1"
	if s := join(got); s != want {
		t.Errorf("order %s, want %s", s, want)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
