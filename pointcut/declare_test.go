package pointcut

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
)

// adviceOrder is the methods of the advice applying at s, in precedence
// order.
func adviceOrder(p *Program, s *advice.Shadow) string {
	var names []string
	for _, a := range p.Match(s, nil) {
		names = append(names, a.Advice.Method.Name)
	}
	return strings.Join(names, " ")
}

// declare precedence reorders aspects at a shared join point: listed
// aspects by their place in the list, `*` standing for the aspects no
// other pattern names; the order is otherwise the command line's (each
// aspect as early as the statements allow).
func TestDeclarePrecedence(t *testing.T) {
	aspects := `aspect X { before(): call(* *(..)) { a.B.x(); } after(): call(* *(..)) { a.B.xa(); } }
aspect Y { before(): call(* *(..)) { a.B.y(); } }
aspect Z { before(): call(* *(..)) { a.B.z(); } after(): call(* *(..)) { a.B.za(); } }
aspect Q { before(): call(* *(..)) { a.B.q(); } }
`
	tests := []struct{ decl, want string }{
		{"", "x xa y z za q"},
		{"declare precedence: Z, X;", "y z za x xa q"},
		{"declare precedence: Z, *, X;", "z za y q x xa"},
		{"declare precedence: *, Y;", "x xa z za q y"},
		{"declare precedence: Q, Y;", "x xa z za q y"},      // Y waits for Q; the others keep their order
		{"declare precedence: Q || Z, X;", "y z za q x xa"}, // Q and Z share a rank
		{"declare precedence: *, X*;", "y z za q x xa"},
		{"declare precedence: *, X+;", "y z za q x xa"},
		{"declare precedence: Z, Y; declare precedence: Y, Q;", "x xa z za y q"},
	}
	for _, tt := range tests {
		src := aspects + "aspect P {\n" + tt.decl + "\n}\n"
		f, err := ParseFile("t.weft", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tt.decl, err)
		}
		p, err := Resolve([]*File{f}, "")
		if err != nil {
			t.Fatalf("%s: %v", tt.decl, err)
		}
		if got := adviceOrder(p, callPut); got != tt.want {
			t.Errorf("%s: order %q, want %q", tt.decl, got, tt.want)
		}
		if p.DeclaresErrors() || p.DeclaredKinds() != 0 {
			t.Errorf("%s: precedence alone has no errors to report", tt.decl)
		}
	}
}

// Statements that order two aspects both ways are an error where both
// advise one join point (as ajc reports them), and only there.
func TestDeclarePrecedenceConflict(t *testing.T) {
	p := mustResolve(t, `aspect X { before(): call(* java.util.Map.put(..)) { a.B.x(); } declare precedence: X, Y; }
aspect Y { before(): call(* *(..)) { a.B.y(); } declare precedence: Y, X; }
`)
	if !p.DeclaresErrors() {
		t.Error("a conflict can fail the weaving")
	}
	ds := p.Declared(callPut, nil)
	if len(ds) != 1 || !ds[0].Error || !contains(ds[0].Message, "conflicting declare precedence orderings for aspects X and Y",
		"t.weft:1", "t.weft:2") {
		t.Errorf("at a join point both advise: %+v", ds)
	}
	if ds := p.Declared(callFmt, nil); len(ds) != 0 {
		t.Errorf("at a join point only Y advises: %+v", ds)
	}
}

// declare warning and declare error apply where their pointcut matches;
// named pointcuts may be used, with types or * for their formals.
func TestDeclaredMessages(t *testing.T) {
	p := mustResolve(t, `aspect A {
    pointcut puts(java.util.Map m): call(* java.util.Map.put(..)) && target(m);
    pointcut inMain(): within(app.Main);
    declare warning: call(* java.util.Map.put(..)) && inMain() : "a put\tin \"Main\"\u0021";
    declare error: execution(* *(..)) && !within(java..*) : "no executions";
    declare warning: call(* nothing.*(..)) : "never";
}
`)
	if !p.DeclaresErrors() {
		t.Error("DeclaresErrors: false")
	}
	want := advice.KindSet(1<<advice.MethodCall | 1<<advice.ConstructorCall | 1<<advice.ArrayConstruction |
		1<<advice.MethodExecution | 1<<advice.ConstructorExecution)
	if k := p.DeclaredKinds(); k != want {
		t.Errorf("DeclaredKinds %b, want %b", k, want)
	}
	got := map[string]string{}
	for name, s := range allShadows {
		var msgs []string
		for _, d := range p.Declared(s, nil) {
			level := "warning"
			if d.Error {
				level = "error"
			}
			msgs = append(msgs, level+" "+d.Message)
		}
		if len(msgs) > 0 {
			got[name] = strings.Join(msgs, "; ")
		}
	}
	wantMsgs := map[string]string{
		"callPut":  "warning a put\tin \"Main\"!",
		"execMain": "error no executions",
	}
	if len(got) != len(wantMsgs) {
		t.Errorf("got %q, want %q", got, wantMsgs)
	}
	for k, v := range wantMsgs {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
	d := p.Declared(callPut, nil)[0]
	if d.Aspect != "A" || d.File != "t.weft" || d.Line != 4 || d.Column != 5 {
		t.Errorf("declaration position: %+v", d)
	}
	var kinds []string
	for _, di := range p.DeclareInfo() {
		kinds = append(kinds, di.Kind+": "+di.Text)
	}
	if got := strings.Join(kinds, " | "); got != `warning: call(* java.util.Map.put(..)) && inMain() | error: execution(* *(..)) && !within(java..*) | warning: call(* nothing.*(..))` {
		t.Errorf("DeclareInfo: %s", got)
	}
}

func TestDeclareErrors(t *testing.T) {
	tests := []struct {
		name, decl string
		want       []string
	}{
		{"this", `declare warning: call(* *(..)) && this(java.util.Map) : "m";`,
			[]string{"t.weft:2:35: this() cannot be used in declare warning: it is decided at run time",
				"hint: declare warning is decided when weaving, from the code alone: use call, execution, within and withincode"}},
		{"target", `declare error: call(* *(..)) && !target(java.util.Map) : "m";`,
			[]string{"t.weft:2:34: target() cannot be used in declare error"}},
		{"args", `declare error: call(* *(..)) && args(..) : "m";`,
			[]string{"args() cannot be used in declare error"}},
		{"through a named pointcut", `pointcut p(Object o): call(* *(..)) && args(o); declare warning: p(*) : "m";`,
			[]string{"t.weft:2:66: pointcut p uses args() (at t.weft:2:40), which cannot be used in declare warning"}},
		{"formal", `declare warning: call(* *(..)) && within(x) && args(o) : "m";`,
			[]string{"args() cannot be used in declare warning"}},
		{"cflow", `declare warning: cflow(call(* *(..))) : "m";`,
			[]string{"t.weft:2:18: cflow() cannot be used in declare warning: it is decided at run time"}},
		{"missing message", `declare warning: call(* *(..));`,
			[]string{"t.weft:2:31: unexpected token \";\"", `hint: write declare warning: Pointcut : "message";`}},
		{"message not a string", `declare warning: call(* *(..)) : message;`,
			[]string{"t.weft:2:34:", `hint: write declare warning: Pointcut : "message";`}},
		{"bad escape", `declare warning: call(* *(..)) : "a\qb";`,
			[]string{"t.weft:2:34: bad string literal: unknown escape \\q"}},
		{"parents extends", `declare parents: a.B extends a.C;`,
			[]string{"t.weft:2:22: unexpected token \"extends\" (expected \"implements\" ...)", "hint: write declare parents: TypePattern implements pkg.Interface [defaultImpl pkg.Class];"}},
		{"parents primitive", `declare parents: a.B implements int;`,
			[]string{"t.weft:2:33: the interface: declare parents names classes and interfaces, not int"}},
		{"parents delegate of two", `declare parents: a.B implements a.I, a.J defaultImpl a.C;`,
			[]string{"t.weft:2:54: defaultImpl delegates one interface, and 2 are named", "hint: declare parents once per interface"}},
		{"declare soft", `declare soft: java.io.IOException: call(* *(..));`,
			[]string{"declare soft is not supported", "hint: weft has declare precedence, declare warning, declare error and declare parents"}},
		{"precedence without list", `declare precedence;`,
			[]string{"t.weft:2:19:", "hint: write declare precedence: Aspect1, Aspect2, ...;"}},
		{"star twice", `declare precedence: *, A, *;`,
			[]string{"t.weft:2:27: `*` occurs more than once in declare precedence"}},
		{"two patterns", `declare precedence: A*, A;`,
			[]string{"t.weft:2:25: aspect A matches two patterns of declare precedence (A* and A)", "hint: an aspect has one place"}},
		{"array", `declare precedence: A[], *;`,
			[]string{"declare precedence names aspects, not arrays or members"}},
		{"cycle", `declare precedence: A, B; } aspect B { declare precedence: B, C; } aspect C { declare precedence: C, A;`,
			[]string{"t.weft:2:1: declare precedence orders aspects A, B, C in a cycle"}},
	}
	for _, tt := range tests {
		src := "aspect A {\n" + tt.decl + "\n}\n"
		got := resolveErr(src)
		if got == "" {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if !contains(got, tt.want...) {
			t.Errorf("%s: got\n%s\nwant it to contain %q", tt.name, got, tt.want)
		}
	}
}

// A name that is no aspect is a warning, as ajc's invalidAbsoluteTypeName.
func TestDeclarePrecedenceUnknownAspect(t *testing.T) {
	p := mustResolve(t, "aspect A {\ndeclare precedence: A, Nope, N*;\n}\n")
	if len(p.Warnings) != 1 || !contains(p.Warnings[0].Error(), "t.weft:2:24: no aspect named Nope", "hint: aspects: A") {
		t.Errorf("warnings: %v", p.Warnings)
	}
}

func TestUnquoteJava(t *testing.T) {
	for lit, want := range map[string]string{
		`""`: "", `"a"`: "a", `"\"q\""`: `"q"`, `"\\"`: `\`, `"\t\n\r\b\f\s\'"`: "\t\n\r\b\f '",
		`"\u0041\uu00e9"`: "Aé", `"\101\0\377\400"`: "A\x00\u00ff\x200", `"é"`: "é",
	} {
		got, err := unquoteJava(lit)
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", lit, got, err, want)
		}
	}
	for _, lit := range []string{`"\q"`, `"\u12"`, `"\uxyzw"`, `"\"`} {
		if _, err := unquoteJava(lit); err == nil {
			t.Errorf("%s: no error", lit)
		}
	}
}
