package pointcut

import (
	"strings"
	"testing"
)

// Every error: file:line:col, the source line, a caret under the column,
// and a hint where one is obvious.
func TestErrorMessages(t *testing.T) {
	tests := []struct {
		name, decl string
		want       []string // substrings of the error text
	}{
		{"unknown designator", `before(): calls(java.util.Map) { a.B.c(); }`,
			[]string{"t.weft:2:11: unknown designator or pointcut calls", "hint: designators are call, execution, get, set, handler, staticinitialization, initialization, preinitialization, within, withincode, this, target, args"}},
		{"unknown designator with a signature", `before(): calls(* *(..)) { a.B.c(); }`,
			[]string{"t.weft:2:11: unknown designator calls (or a malformed pointcut reference: unexpected token \"*\" (expected \")\") at 2:19)", "hint: designators are call, execution"}},
		{"leaf with an argument", `before(): execution(* *(..)) && leaf(Foo) { a.B.c(); }`,
			[]string{"t.weft:2:33: leaf() takes no arguments", "hint: write leaf(): it tests the code holding the join point"}},
		{"constructor without parameters", `before(): call(Foo.new) { a.B.c(); }`,
			[]string{"t.weft:2:23:", "hint: a constructor pattern needs a parameter list: write T.new(..)"}},
		{"method without parameters", `before(): call(* foo) { a.B.c(); }`,
			[]string{"t.weft:2:21:", "hint: a method pattern needs a parameter list"}},
		{"formal not bound", `before(Object o): call(* *(..)) { a.B.c(o); }`,
			[]string{"t.weft:2:8: formal o is not bound by the pointcut", "hint: bind it with this(o), target(o) or args(.., o, ..)"}},
		{"formal bound twice", `before(Object o): call(* *(..)) && args(o) && target(o) { a.B.c(o); }`,
			[]string{"t.weft:2:54: formal o is bound twice (first at t.weft:2:41)", "hint: a formal is bound once"}},
		{"returning formal bound again", `after() returning(Object o): call(* *(..)) && args(o) { a.B.c(o); }`,
			[]string{"formal o is bound twice"}},
		{"binding under ||", `before(Object o): args(o) || target(o) { a.B.c(o); }`,
			[]string{"t.weft:2:24: formal o cannot be bound under ||"}},
		{"binding under !", `before(Object o): call(* *(..)) && !args(o) { a.B.c(o); }`,
			[]string{"formal o cannot be bound under !"}},
		{"unknown name in body", `before(): call(* *(..)) { a.B.c(foo); }`,
			[]string{"t.weft:2:33: unknown name foo in the advice call", "thisJoinPointStaticPart, thisEnclosingJoinPointStaticPart, joinPointId, arrayDims"}},
		{"bytecodes in before advice", `before(): execution(* *(..)) { a.B.c(bytecodes); }`,
			[]string{"t.weft:2:38: bytecodes is the count of instructions an execution ran, known at its exit: not in before advice",
				"hint: pass it to after advice at an execution"}},
		{"preciseBytecodes in around advice", `Object around(): execution(* *(..)) { a.B.c(proceed, preciseBytecodes); }`,
			[]string{"preciseBytecodes is the count of instructions an execution ran, known at its exit: not in around advice"}},
		{"eachArg twice", `before(): call(* *(..)) { a.B.c(eachArg, eachArg); }`,
			[]string{"t.weft:2:42: eachArg is passed once, and not to around advice", "hint: pass eachArg once, to before or after advice"}},
		{"eachArg in around advice", `Object around(): call(* *(..)) { a.B.c(proceed, eachArg); }`,
			[]string{"eachArg is passed once, and not to around advice"}},
		{"unknown pointcut", `pointcut p(): call(* *(..)); before(): q() { a.B.c(); }`,
			[]string{"unknown designator or pointcut q", "pointcuts of aspect A: p"}},
		{"pointcut arity", `pointcut p(Object o): args(o); before(): p() { a.B.c(); }`,
			[]string{"pointcut p takes 1 arguments, not 0"}},
		{"pointcut recursion", `pointcut p(): p(); before(): p() { a.B.c(); }`,
			[]string{"pointcut p refers to itself"}},
		{"pointcut formal unbound", `pointcut p(Object o): call(* *(..)); before(): p(*) { a.B.c(); }`,
			[]string{"formal o is not bound by the pointcut p"}},
		{"wildcard in this", `before(): this(java.util.*) { a.B.c(); }`,
			[]string{"this(): a wildcard is not allowed here"}},
		{"type pattern in target", `before(): target(java.util.Map+) { a.B.c(); }`,
			[]string{"target() takes a type name or a formal, not a type pattern"}},
		{"unqualified unknown type in args", `before(): args(HashMap) { a.B.c(); }`,
			[]string{"args(): unknown type HashMap", "java.util.HashMap"}},
		{"ellipsis before name", `before(): call(* java..put(..)) { a.B.c(); }`,
			[]string{"`..` cannot stand right before the member name", "hint: write pkg..*.put(..)"}},
		{"constructor with return type", `before(): call(* Foo.new(..)) { a.B.c(); }`,
			[]string{"a constructor pattern has no return type"}},
		{"varargs not last", `before(): call(* *(String..., int)) { a.B.c(); }`,
			[]string{"`...` is allowed only on the last parameter"}},
		{"missing semicolon", `pointcut p(): call(* *(..)) before(): p() { a.B.c(); }`,
			[]string{"t.weft:2:"}},
		{"before with returning", `before() returning: call(* *(..)) { a.B.c(); }`,
			[]string{"before advice cannot have a returning clause"}},
		{"advice class unqualified", `before(): call(* *(..)) { c(); }`,
			[]string{"the advice body must call a static method of a class"}},
		{"duplicate pointcut", `pointcut p(): call(* *(..)); pointcut p(): call(* *(..));`,
			[]string{"pointcut p is declared twice in aspect A (first at t.weft:2:1)"}},
		{"bad formal type", `before(Strin s): call(* *(..)) && args(s) { a.B.c(s); }`,
			[]string{"formal s: unknown type Strin"}},
		{"operator without operand", `before(): within(java.util.* &&) { a.B.c(); }`,
			[]string{"t.weft:2:32: in within(...): unexpected token \")\" (expected a type pattern)"}},
		{"unclosed parenthesis", `before(): within((java.util.*) { a.B.c(); }`,
			[]string{"t.weft:2:17: missing `)`: this `(` is not closed"}},
		{"type pattern too deep", `before(): within(` + strings.Repeat("(", 300) + "A" + strings.Repeat(")", 300) + `) { a.B.c(); }`,
			[]string{"type pattern nested too deeply"}},
		{"array construction has no execution", `before(): execution(int[].new(..)) { a.B.c(); }`,
			[]string{"arrays have no constructor to execute"}},
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

func TestReservedDesignators(t *testing.T) {
	for _, d := range []string{"adviceexecution()"} {
		src := "aspect A {\nbefore(): " + d + " { a.B.c(); }\n}\n"
		got := resolveErr(src)
		name := d[:strings.IndexByte(d, '(')]
		if !contains(got, "t.weft:2:11: "+name+"() is not supported yet", "hint: supported designators:") {
			t.Errorf("%s: got %s", d, got)
		}
	}
}

// The exact layout: position, source line, caret, hint.
func TestErrorLayout(t *testing.T) {
	src := "aspect A {\n\tbefore(): call(Foo.new) { a.B.c(); }\n}\n"
	_, err := ParseFile("t.weft", []byte(src))
	want := "t.weft:2:24: in call(...): unexpected token \")\" (expected \"(\" ...)\n" +
		"    \tbefore(): call(Foo.new) { a.B.c(); }\n" +
		"    \t                      ^\n" +
		"    hint: a constructor pattern needs a parameter list: write T.new(..)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// Several errors, syntax and semantic, are all reported, in order.
func TestSeveralErrors(t *testing.T) {
	src := `aspect A {
    before(): call(Foo.new) { a.B.c(); }
    pointcut ok(): call(* *(..));
    before(): call(* *(..) { a.B.c(); }
    before(): adviceexecution() { a.B.c(); }
}
aspect B {
    before(): nothere() { a.B.c(); }
    before(Object o): call(* *(..)) { a.B.c(o); }
    before(): call(* *(..)) { a.B.c(what); }
}
`
	f, err := ParseFile("t.weft", []byte(src))
	list, ok := err.(ErrorList)
	if !ok || len(list) != 3 {
		t.Fatalf("ParseFile: want 3 errors, got %v", err)
	}
	for i, line := range []int{2, 4, 5} {
		if list[i].Pos.Line != line {
			t.Errorf("syntax error %d at line %d, want %d", i, list[i].Pos.Line, line)
		}
	}
	if len(f.Aspects) != 2 || len(f.Aspects[0].Pointcuts) != 1 || len(f.Aspects[1].Advice) != 3 {
		t.Fatalf("declarations that parsed are kept: %+v", f.Aspects)
	}
	_, err = Resolve([]*File{f}, "")
	list, ok = err.(ErrorList)
	if !ok || len(list) != 3 {
		t.Fatalf("Resolve: want 3 errors, got %v", err)
	}
	for i, line := range []int{8, 9, 10} {
		if list[i].Pos.Line != line {
			t.Errorf("semantic error %d at line %d, want %d", i, list[i].Pos.Line, line)
		}
	}
	if !strings.Contains(err.Error(), "(3 errors)") {
		t.Errorf("no count in %s", err)
	}
}

func TestFileLevelErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"pointcut p(): call(* *(..));", "t.weft:1:1: expected `aspect`, found `pointcut`"},
		{"aspect { }", "t.weft:1:8: expected the aspect's name, found `{`"},
		{"aspect A before(): call(* *(..)) { a.B.c(); }", "t.weft:1:10: expected `{` after `aspect A`"},
		{"aspect A {\n  before(): call(* *(..)) { a.B.c(); }\n", "missing `}` at the end of aspect A"},
		{"aspect A {\n /* never closed \n}", "t.weft:2:2: unterminated comment"},
		{"aspect A {\n before(): call(* *(..)) { a.B.c(); }\naspect B { }", "t.weft:3:1: missing `}` at the end of aspect A"},
		{"aspect A { } aspect A { }", "t.weft:1:14: aspect A is declared twice (first at t.weft:1:1)"},
		{"aspect A { before(): call(* *(..)) { a.B.c(); } ; }", "declarations start with `pointcut`, `before`, `after` or `declare`"},
	}
	for _, tt := range tests {
		if got := resolveErr(tt.src); !strings.Contains(got, tt.want) {
			t.Errorf("%q: got\n%s\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestParseValid(t *testing.T) {
	src := `// a comment
aspect AllocTracker {
    /* block
       comment */
    pointcut allocs(): call(*.new(..)) && !within(example.tracker..*);
    pointcut arrays(): call(*[].new(..)) && !within(example.tracker..*);
    pointcut puts(java.util.Map m, Object k): call(* java.util.Map+.put(..)) && target(m) && args(k, *);
    before(): execution(* java.util.HashMap.put(..)) { example.tracker.Tracker.onPut(thisJoinPointStaticPart); }
    after() returning(Object o): allocs() { example.tracker.Tracker.onNew(o, thisJoinPointStaticPart); }
    after() returning(Object a): arrays() { example.tracker.Tracker.onArray(a, arrayDims, thisJoinPointStaticPart); }
    before(java.util.Map m): puts(m, String) { example.tracker.Tracker.onPut(m, joinPointId); }
    after() throwing(java.io.IOException e): call(public !static * (java.io.* || java.nio..*).read*(byte[], ..) throws java.io.IOException) {
        example.tracker.Tracker.onThrow(e, thisEnclosingJoinPointStaticPart);
    }
    after(): withincode(app.Main.new(..)) || within(app.Main) && !this(app.Main) { A.b(); }
    after() returning: AllocTracker.allocs() { A.b(); }
}
`
	p := mustResolve(t, src)
	if len(p.Pointcuts) != 3 || len(p.Advice()) != 7 {
		t.Fatalf("got %d pointcuts, %d advice", len(p.Pointcuts), len(p.Advice()))
	}
	infos := p.AdviceInfo()
	if infos[3].Pointcut != "puts(m, String)" || infos[3].Formals[0] != "java.util.Map m" {
		t.Errorf("advice 3: %+v", infos[3])
	}
	if p.Pointcuts[2].Expr != "call(* java.util.Map+.put(..)) && target(m) && args(k, *)" {
		t.Errorf("pointcut text: %q", p.Pointcuts[2].Expr)
	}
	a := p.Advice()[4]
	if a.Kind.String() != "afterThrowing" || a.ThrowType != "Ljava/io/IOException;" ||
		a.Method.Desc != "(Ljava/io/IOException;Lweft/rt/JoinPointStaticPart;)V" || a.Line != 12 {
		t.Errorf("advice 4: %+v", a)
	}
	if w := p.Warnings; len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
}
