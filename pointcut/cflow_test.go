package pointcut

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// At a shadow of a cflow's pointcut, Match adds the cflow's entry and exit
// (cflow first, around all other advice; cflowbelow last, inside it); at
// the advised shadow the cflow is an InCflow residue on the same key.
func TestCflowMatch(t *testing.T) {
	p := mustResolve(t, `aspect A {
    before(): call(* java.util.Map.put(..)) && cflow(execution(* app.Main.main(..))) { a.B.c(); }
    after(): execution(* app.Main.main(..)) && cflowbelow(execution(* app.Main.main(..))) { a.B.d(); }
}`)
	if !p.ShadowKinds().Has(advice.MethodExecution) || !p.ShadowKinds().Has(advice.MethodCall) {
		t.Errorf("shadow kinds %b miss the cflow's", p.ShadowKinds())
	}
	got := p.Match(execMain, testHier())
	var kinds []string
	for _, a := range got {
		k := a.Advice.Kind.String()
		if e := a.Advice.Cflow; e != nil {
			k = "enter"
			if !e.Enter {
				k = "exit"
			}
			if e.Below {
				k += "-below"
			}
			if e.Key == 0 {
				t.Errorf("key 0: %+v", e)
			}
		}
		kinds = append(kinds, k)
	}
	// Before advice runs in list order, after advice in reverse.
	if s := strings.Join(kinds, " "); s != "enter exit after enter-below exit-below" {
		t.Fatalf("at main's execution: %s", s)
	}
	cflowKey, belowKey := got[0].Advice.Cflow.Key, got[3].Advice.Cflow.Key
	if cflowKey == belowKey {
		t.Errorf("cflow and cflowbelow of one pointcut share key %d", cflowKey)
	}
	if r := got[2].Residue; r == nil || r.Op != advice.InCflow || r.Cflow != belowKey {
		t.Errorf("after advice residue %+v, want InCflow %d", r, belowKey)
	}
	put := p.Match(callPut, testHier())
	if len(put) != 1 || put[0].Residue == nil || put[0].Residue.Op != advice.InCflow || put[0].Residue.Cflow != cflowKey {
		t.Errorf("at the put call: %+v", put)
	}
	if n := len(p.Match(callFmt, testHier())); n != 0 {
		t.Errorf("a shadow neither pointcut matches got %d advice", n)
	}
	// Keys come from the text: the same aspect resolved again agrees (the
	// JDK and the application are woven separately); another aspect does not.
	q := mustResolve(t, `aspect A {
    before(): call(* java.util.Map.put(..)) && cflow(execution(* app.Main.main(..))) { a.B.c(); }
}`)
	if k := q.Match(execMain, testHier())[0].Advice.Cflow.Key; k != cflowKey {
		t.Errorf("key %d, then %d for the same cflow", cflowKey, k)
	}
	r := mustResolve(t, `aspect Other {
    before(): call(* java.util.Map.put(..)) && cflow(execution(* app.Main.main(..))) { a.B.c(); }
}`)
	if k := r.Match(execMain, testHier())[0].Advice.Cflow.Key; k == cflowKey {
		t.Errorf("two aspects share cflow key %d", k)
	}
}

// Formals bound inside a cflow are pushed at its entries and read from its
// innermost entry at the advised shadow; if() receives bound values,
// wherever the pointcut binds them.
func TestCflowBindingAndIf(t *testing.T) {
	p := mustResolve(t, `aspect A {
    before(java.util.Map m, Object k): call(* java.util.Map.put(..)) && if(a.F.ok(k, m)) && args(k, ..)
        && cflow(execution(* java.util.HashMap.put(..)) && this(m)) { a.B.c(m, k); }
    before(): execution(* app.Main.main(..)) && if(true) { a.B.t(); }
    before(): execution(* app.Main.main(..)) && if(false) { a.B.f(); }
}`)
	entry := p.Match(execPut, testHier())
	if len(entry) != 2 || entry[0].Advice.Cflow == nil || valuesString(entry[0].Args) != "this:Ljava/lang/Object;" {
		t.Fatalf("at HashMap.put's execution: %+v", entry)
	}
	if r := entry[0].Residue; r == nil || r.Op != advice.InstanceOf || r.Type != "java/util/Map" {
		// this(Map) at HashMap is statically true: no residue expected.
		if r != nil {
			t.Errorf("entry residue %+v", r)
		}
	}
	key := entry[0].Advice.Cflow.Key
	got := p.Match(callPut, testHier())
	if len(got) != 1 {
		t.Fatalf("at the put call: %+v", got)
	}
	a := got[0]
	if len(a.Args) != 2 || a.Args[0].Kind != advice.CflowValue || a.Args[0].Cflow != key || a.Args[0].Index != 0 ||
		a.Args[1].Kind != advice.Arg || a.Args[1].Index != 0 {
		t.Errorf("advice values %+v", a.Args)
	}
	r := a.Residue
	if r == nil || r.Op != advice.And || len(r.Children) != 2 {
		t.Fatalf("residue %+v", r)
	}
	ifr, in := r.Children[0], r.Children[1]
	if ifr.Op != advice.If || ifr.Method.Owner != "a/F" || ifr.Method.Desc != "(Ljava/lang/Object;Ljava/util/Map;)Z" ||
		len(ifr.Args) != 2 || ifr.Args[0].Kind != advice.Arg || ifr.Args[1].Kind != advice.CflowValue {
		t.Errorf("if residue %+v", ifr)
	}
	if in.Op != advice.InCflow || in.Cflow != key {
		t.Errorf("cflow residue %+v", in)
	}
	main := p.Match(execMain, testHier())
	if len(main) != 1 || main[0].Verdict != advice.Always || main[0].Advice.Method.Name != "t" {
		t.Errorf("if(true) / if(false) at main: %+v", main)
	}
}

func TestCflowIfErrors(t *testing.T) {
	tests := []struct{ decl, want string }{
		{`before(int x): call(* *(..)) && args(x) && cflow(execution(* *(int)) && args(x)) { a.B.c(x); }`,
			"t.weft:2:78: formal x is bound twice (first at t.weft:2:38)"},
		{`before(int x): call(* *(..)) && (cflow(execution(* *(int)) && args(x)) || within(app.Main)) { a.B.c(x); }`,
			"t.weft:2:68: formal x cannot be bound under ||"},
		{`before(int x): call(* *(..)) && !cflow(execution(* *(int)) && args(x)) { a.B.c(x); }`,
			"formal x cannot be bound under !"},
		{`before(int x): call(* *(..)) && args(x) && cflow(execution(* *(..)) && if(a.B.ok(x))) { a.B.c(x); }`,
			"t.weft:2:72: if() inside cflow() or cflowbelow() is not supported"},
		{`before(): call(* *(..)) && if(ok) { a.B.c(); }`,
			"t.weft:2:31: if() takes a call of a static boolean method"},
		{`before(): call(* *(..)) && if(ok()) { a.B.c(); }`,
			"t.weft:2:31: if() must call a static method of a class"},
		{`before(int x): call(* *(..)) && args(x) && if(a.B.ok(y)) { a.B.c(x); }`,
			"t.weft:2:54: unknown name y in if()\n"},
		{`before(): call(* *(..)) && if(a.B.ok(proceed)) { a.B.c(); }`,
			"if() cannot pass proceed"},
		{`after() returning(Object r): call(* *(..)) && if(a.B.ok(r)) { a.B.c(r); }`,
			"if() cannot pass the returning or throwing formal r"},
		{`before(int x): call(* *(..)) && if(x > 3) { a.B.c(); }`,
			"t.weft:2:38: in if(...): unexpected token \">\""},
		{`before(): call(* *(..)) && cflow(call(* *(..)) &&) { a.B.c(); }`,
			"t.weft:2:48: in cflow(...): unexpected token \"&&\""},
		{`before(): call(* *(..)) && cflow(nope()) { a.B.c(); }`,
			"t.weft:2:34: unknown designator or pointcut nope"},
	}
	for _, tt := range tests {
		got := resolveErr("aspect A {\n" + tt.decl + "\n}\n")
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s:\ngot  %s\nwant %q", tt.decl, got, tt.want)
		}
	}
}

// With the advice class path, the if() method is checked: public, static,
// boolean, parameters that take the values passed.
func TestIfMethodChecked(t *testing.T) {
	cp := jvmtest.Compile(t, map[string]string{"a/F.java": `package a;
public class F {
    public static boolean ok(Object o) { return true; }
    public static int count(Object o) { return 0; }
    public boolean inst(Object o) { return true; }
    public static boolean two(Object a, Object b) { return true; }
    public static boolean str(String s) { return true; }
    public static void c(Object o) {}
}`})
	if _, err := resolveCP(t, cp, `before(Object o): call(* *(..)) && target(o) && if(a.F.ok(o)) { a.F.c(o); }`); err != nil {
		t.Errorf("a fitting if() method: %v", err)
	}
	for _, tt := range []struct{ call, want string }{
		{"a.F.count(o)", "t.weft:2:52: if(): no method fits: want public static boolean count(java.lang.Object) in a.F"},
		{"a.F.count(o)", "hint: found count(Ljava/lang/Object;)I (returns int, not boolean)"},
		{"a.F.inst(o)", "not static"},
		{"a.F.two(o)", "takes 2 parameters, if() passes 1"},
		{"a.F.str(o)", "parameter 1 is java.lang.String, cannot take java.lang.Object"},
		{"a.F.none(o)", "hint: no method named none in a.F"},
		{"a.G.ok(o)", "t.weft:2:52: if(): a.G not found"},
	} {
		_, err := resolveCP(t, cp, `before(Object o): call(* *(..)) && target(o) && if(`+tt.call+`) { a.F.c(o); }`)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("if(%s): got %v\nwant %q", tt.call, err, tt.want)
		}
	}
}
