package pointcut

import (
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
)

// annHier is testHier with annotations.
type annHier struct {
	*memHier
	classes map[string][]string
	members map[string][]string                          // class.name+desc
	params  map[string][][]string                        // class.name+desc
	values  map[string]map[string]advice.AnnotationValue // class.name+desc/param/annotation
	defs    map[string]advice.AnnotationValue            // annotation.element
}

func (h *annHier) AnnotationValues(site advice.AnnotationSite, param int, ann string) (map[string]advice.AnnotationValue, bool) {
	v, ok := h.values[site.Class+"."+site.Name+site.Desc+"/"+strconv.Itoa(param)+"/"+ann]
	return v, ok
}

func (h *annHier) ElementDefault(ann, name string) (advice.AnnotationValue, bool) {
	v, ok := h.defs[ann+"."+name]
	return v, ok
}

func (h *annHier) ClassAnnotations(class string) ([]string, bool) {
	_, ok := h.memHier.classes[class]
	return h.classes[class], ok
}

func (h *annHier) MemberAnnotations(class, name, desc string) ([]string, [][]string, bool) {
	k := class + "." + name + desc
	return h.members[k], h.params[k], true
}

const (
	timed  = "Lapp/Timed;"
	marked = "Lapp/Marked;"
	nn     = "Lapp/NotNull;"
)

func annTestHier() *annHier {
	h := &annHier{memHier: testHier(), classes: map[string][]string{}, members: map[string][]string{}, params: map[string][][]string{}}
	h.classes["app/Main"] = []string{marked}
	h.classes["app/IO"] = []string{timed}
	h.memHier.methods["app/Main.run(I)V"] = advice.Member{Owner: "app/Main", Name: "run", Desc: "(I)V", Access: pub, AccessKnown: true}
	h.members["app/Main.run(I)V"] = []string{timed}
	h.params["app/Main.run(I)V"] = [][]string{{nn}}
	h.members["app/Main.f:I"] = nil
	h.members["app/Main.g"+"Ljava/lang/String;"] = []string{timed}
	str := func(s string) advice.AnnotationValue { return advice.AnnotationValue{Tag: 's', Text: s} }
	h.values = map[string]map[string]advice.AnnotationValue{
		"app/Main./-1/" + marked:                   {"value": str("main")},
		"app/Main.run(I)V/-1/" + timed:             {"value": str("run"), "ms": {Tag: 'I', Text: "5"}},
		"app/Main.run(I)V/0/" + nn:                 {"strict": {Tag: 'Z', Text: "true"}},
		"app/Main.gLjava/lang/String;/-1/" + timed: nil,
	}
	h.defs = map[string]advice.AnnotationValue{timed + ".value": str(""), timed + ".ms": {Tag: 'I', Text: "0"},
		timed + ".unit": {Tag: 'e', Text: "Lapp/Unit;MS"}, nn + ".strict": {Tag: 'Z', Text: "false"}}
	return h
}

var (
	runM     = advice.Member{Owner: "app/Main", Name: "run", Desc: "(I)V", Access: pub, AccessKnown: true}
	execRun  = &advice.Shadow{Kind: advice.MethodExecution, Within: "app/Main", Code: runM, Member: runM}
	execSub  = &advice.Shadow{Kind: advice.MethodExecution, Within: "app/Sub", Code: advice.Member{Owner: "app/Sub", Name: "run", Desc: "(I)V", Access: pub, AccessKnown: true}, Member: advice.Member{Owner: "app/Sub", Name: "run", Desc: "(I)V", Access: pub, AccessKnown: true}}
	callRun  = &advice.Shadow{Kind: advice.MethodCall, Within: "app/IO", Code: advice.Member{Owner: "app/IO", Name: "go", Desc: "()V"}, Member: advice.Member{Owner: "app/Sub", Name: "run", Desc: "(I)V"}}
	inInner  = &advice.Shadow{Kind: advice.MethodCall, Within: "app/Main$Inner", Code: advice.Member{Owner: "app/Main$Inner", Name: "go", Desc: "()V"}, Member: advice.Member{Owner: "app/Sub", Name: "run", Desc: "(I)V"}}
	getG     = &advice.Shadow{Kind: advice.FieldGet, Within: "app/IO", Code: advice.Member{Owner: "app/IO", Name: "go", Desc: "()V"}, Member: advice.Member{Owner: "app/Main", Name: "g", Desc: "Ljava/lang/String;", AccessKnown: true}, StaticTarget: true}
	inRunArr = &advice.Shadow{Kind: advice.ArrayConstruction, Within: "app/Main", Code: runM, Member: int2D}
)

// Annotation patterns and designators, matched statically through an
// AnnotationHierarchy, with their run-time residues and bindings.
func TestAnnotationMatching(t *testing.T) {
	h := annTestHier()
	tests := []struct {
		pc      string
		s       *advice.Shadow
		want    advice.Verdict
		residue string
	}{
		{"execution(@app.Timed * *(..))", execRun, advice.Always, ""},
		{"execution(@app.Timed * *(..))", execSub, advice.Never, ""}, // method annotations are not inherited
		{"execution(!@app.Timed * app..*.*(..))", execRun, advice.Never, ""},
		{"execution(!@app.Timed * app..*.*(..))", execSub, advice.Always, ""},
		{"execution(@(app.Other || app.Timed) * *(..))", execRun, advice.Always, ""},
		{"execution(@app.Timed @app.Other * *(..))", execRun, advice.Never, ""},
		{"execution(@app.Timed public * *(int))", execRun, advice.Always, ""},
		{"call(@app.Timed * *(..))", callRun, advice.Always, ""}, // Sub inherits Main.run: its declaration's annotations
		{"execution(* *(@app.NotNull (*)))", execRun, advice.Always, ""},
		{"execution(* *(@app.NotNull (int)))", execRun, advice.Always, ""},
		{"execution(* *(@app.NotNull (long)))", execRun, advice.Never, ""},
		{"execution(* *(@app.NotNull *))", execRun, advice.Never, ""}, // int has no annotations
		{"execution(* *(!@app.NotNull (*)))", execRun, advice.Never, ""},
		{"execution(* (@app.Marked *).*(..))", execRun, advice.Always, ""},
		{"execution(* (@app.Marked *).*(..))", execSub, advice.Always, ""},           // its Main.run signature
		{"execution(@app.Timed * (@app.Marked *).*(..))", execSub, advice.Never, ""}, // only the subject has annotations
		{"within(@app.Marked *)", execRun, advice.Always, ""},
		{"within(@app.Marked *)", inInner, advice.Always, ""}, // lexically within
		{"within(!@app.Marked app.*)", callRun, advice.Always, ""},
		{"within(@app.Marked *)", callRun, advice.Never, ""},
		{"get(@app.Timed * *)", getG, advice.Always, ""},
		{"get(!@app.Timed * *)", getG, advice.Never, ""},
		{"@within(app.Marked)", execRun, advice.Always, ""},
		{"@within(app.Marked)", inInner, advice.Never, ""}, // the class itself only
		{"@withincode(app.Timed)", inRunArr, advice.Always, ""},
		{"@withincode(app.Timed)", execRun, advice.Never, ""},
		{"@annotation(app.Timed)", execRun, advice.Always, ""},
		{"@annotation(app.Timed)", callRun, advice.Always, ""},
		{"@annotation(app.Timed)", getG, advice.Always, ""},
		{"@annotation(app.Timed)", inRunArr, advice.Never, ""},
		{"@this(app.Marked)", execRun, advice.Maybe, "this @app/Marked"},
		{"@this(app.Marked)", execMain, advice.Never, ""}, // static
		{"@target(app.Marked)", callRun, advice.Maybe, "target @app/Marked"},
		{"@target(app.Marked)", getG, advice.Never, ""},
		{"@args(app.Marked)", execRun, advice.Never, ""}, // int
		{"@args(*)", execRun, advice.Always, ""},
		{"@args(.., app.Marked)", callPutHM, advice.Maybe, "arg1 @app/Marked"},
		{"execution(* *(..)) && !@this(app.Marked)", execRun, advice.Maybe, "!(this @app/Marked)"},
		// value patterns, defaults where the annotation gives no value
		{"execution(@app.Timed(ms=5) * *(..))", execRun, advice.Always, ""},
		{"execution(@app.Timed(ms=6) * *(..))", execRun, advice.Never, ""},
		{"execution(@app.Timed(ms!=6) * *(..))", execRun, advice.Always, ""},
		{"execution(!@app.Timed(ms=6) * app.Main.*(..))", execRun, advice.Always, ""},
		{`execution(@app.Timed("run") * *(..))`, execRun, advice.Always, ""},
		{`execution(@app.Timed(value="run", ms=5) * *(..))`, execRun, advice.Always, ""},
		{`execution(@app.Timed(value="run", ms=0) * *(..))`, execRun, advice.Never, ""},
		{`execution(@app.Timed("x") * *(..))`, execRun, advice.Never, ""},
		{`execution(@app.Timed("r\u0075n") * *(..))`, execRun, advice.Always, ""}, // Java's escapes
		{"execution(@app.Timed(unit=app.Unit.MS) * *(..))", execRun, advice.Always, ""},
		{"execution(@app.Timed(unit=app.Unit.NS) * *(..))", execRun, advice.Never, ""},
		{"execution(@app.Timed(unit!=app.Unit.NS) * *(..))", execRun, advice.Always, ""},
		{"execution(@app.Timed(ms=5) * *(..))", execSub, advice.Never, ""},
		{"execution(* *(@app.NotNull(strict=true) (*)))", execRun, advice.Always, ""},
		{"execution(* *(@app.NotNull(strict=false) (*)))", execRun, advice.Never, ""},
		{"execution(* *(@app.NotNull (*)))", execRun, advice.Always, ""}, // a blank: the parameter's type pattern
		{`within(@app.Marked("main") *)`, execRun, advice.Always, ""},
		{`within(@app.Marked("x") *)`, execRun, advice.Never, ""},
		{`execution(* (@app.Marked(value = "main") *).*(..))`, execSub, advice.Always, ""},
		{"get(@app.Timed(ms=0) * *)", getG, advice.Always, ""},
		{"get(@app.Timed(ms=5) * *)", getG, advice.Never, ""},
		{`@within(app.Marked("main"))`, execRun, advice.Always, ""},
		{`@within(app.Marked("x"))`, execRun, advice.Never, ""},
		{"@annotation(app.Timed(ms=5))", callRun, advice.Always, ""},
		{"@annotation(app.Timed(ms=6))", callRun, advice.Never, ""},
		{"@withincode(app.Timed(ms=5))", inRunArr, advice.Always, ""},
		{"@withincode(app.Timed(ms=7))", inRunArr, advice.Never, ""},
	}
	for _, tc := range tests {
		p := mustResolve(t, "aspect A { before(): "+tc.pc+" { a.B.c(); } }")
		got := p.Match(tc.s, h)
		v, res := advice.Never, ""
		if len(got) > 0 {
			v, res = got[0].Verdict, residueString(got[0].Residue)
		}
		if v != tc.want || res != tc.residue {
			t.Errorf("%s at %s %s.%s: got %v %q, want %v %q", tc.pc, tc.s.Kind, tc.s.Within, tc.s.Member.Name, v, res, tc.want, tc.residue)
		}
	}
}

// A formal of an annotation type binds the annotation: statically known
// sites for @annotation, @within and @withincode, the value for @this,
// @target and @args (always tested at run time).
func TestAnnotationBinding(t *testing.T) {
	h := annTestHier()
	tests := []struct {
		pc, want string
	}{
		{"@annotation(t)", "@annotation app/Timed app/Main.run(I)V"},
		{"@annotation(t(ms=5))", "@annotation app/Timed app/Main.run(I)V"},
		{"call(* *(..)) && @annotation(t)", "@annotation app/Timed app/Main.run(I)V"},
		{"@within(t)", "@within app/Timed app/IO"},
		{"@target(t)", "@target app/Timed target"},
	}
	for _, tc := range tests {
		p := mustResolve(t, "aspect A { before(app.Timed t): "+tc.pc+" { a.B.c(t); } }")
		s := execRun
		if strings.Contains(tc.pc, "within") || strings.Contains(tc.pc, "target") || strings.Contains(tc.pc, "call") {
			s = callRun
		}
		got := p.Match(s, h)
		if len(got) != 1 {
			t.Errorf("%s: %d advice, want 1", tc.pc, len(got))
			continue
		}
		v := got[0].Args[0]
		desc := v.Kind.String() + " " + v.Annotation
		if v.Site != nil {
			desc += " " + v.Site.Class
			if v.Site.Name != "" {
				desc += "." + v.Site.Name + v.Site.Desc
			}
		} else {
			desc += " " + advice.Value{Kind: advice.Target}.Kind.String()
		}
		if desc != tc.want || v.Desc != timed {
			t.Errorf("%s: bound %s (%s), want %s (%s)", tc.pc, desc, v.Desc, tc.want, timed)
		}
		if strings.Contains(tc.pc, "target") && residueString(got[0].Residue) != "target @app/Timed" {
			t.Errorf("%s: residue %q, want the annotation test", tc.pc, residueString(got[0].Residue))
		}
	}
}

// Errors of annotation patterns and designators, at file:line:col with a
// hint where one helps.
func TestAnnotationErrors(t *testing.T) {
	tests := []struct{ decl, want string }{
		{`before(): execution(@Timed * *(..)) { a.B.c(); }`,
			"t.weft:1:33: annotation type Timed not found: unknown type Timed: only primitives and java.lang types may be written without their package"},
		{`before(): @within(java.lang.String) { a.B.c(); }`, "t.weft:1:30: @within(): java.lang.String is not an annotation type"},
		{`before(): within(@java.util.List *) { a.B.c(); }`, "t.weft:1:30: java.util.List is not an annotation type"},
		{`before(): @this(java.lang.Override) { a.B.c(); }`,
			"t.weft:1:28: @this(): annotation type java.lang.Override does not have runtime retention"},
		{`before(java.lang.Override o): @annotation(o) { a.B.c(o); }`,
			"annotation type java.lang.Override does not have runtime retention: it cannot be bound"},
		{`before(String s): @annotation(s) { a.B.c(s); }`, "t.weft:1:42: @annotation(): formal s: java.lang.String is not an annotation type"},
		{`before(java.lang.Deprecated d): @annotation(d) && @within(d) { a.B.c(d); }`, "formal d is bound twice"},
		{`before(java.lang.Deprecated d): @annotation(d) || @within(java.lang.Deprecated) { a.B.c(d); }`,
			"formal d cannot be bound under ||"},
		{`before(): @foo(java.lang.Deprecated) { a.B.c(); }`, "t.weft:1:22: unknown designator @foo"},
		{`before(): @within(java.lang.*) { a.B.c(); }`, "@within() takes an annotation type or a formal, not a pattern"},
		{`before(): @annotation(java.lang.Deprecated, java.lang.Deprecated) { a.B.c(); }`,
			"@annotation() takes one annotation type or formal"},
		{`before(): @args(.., java.lang.Deprecated, ..) { a.B.c(); }`, "@args() allows one `..`"},
		{`declare warning: @this(java.lang.Deprecated) : "x";`, "t.weft:1:29: @this() cannot be used in declare warning: it is decided at run time"},
		{`before(): execution(@(java.lang.Deprecated *) * *(..)) { a.B.c(); }`, "in execution(...): unexpected token \"*\" (expected \")\")"},
		// value patterns, checked against the JDK's annotation types
		{`before(): execution(@Deprecated(since=9) * *(..)) { a.B.c(); }`,
			`t.weft:1:50: annotation java.lang.Deprecated: element since is a String: 9 is a number` + "\n  hint: write a string literal"},
		{`before(): execution(@Deprecated(nope="x") * *(..)) { a.B.c(); }`,
			"t.weft:1:44: annotation java.lang.Deprecated has no element nope\n  hint: its elements: forRemoval, since"},
		{`before(): execution(@Deprecated(forRemoval=yes) * *(..)) { a.B.c(); }`,
			"element forRemoval is a boolean: yes is a bare name\n  hint: write true or false"},
		{`before(): execution(@Deprecated(forRemoval="true") * *(..)) { a.B.c(); }`, "element forRemoval is a boolean: \"true\" is a string"},
		{`before(): execution(@SuppressWarnings("x") * *(..)) { a.B.c(); }`,
			"t.weft:1:50: annotation java.lang.SuppressWarnings: element value is an array: value patterns do not test arrays"},
		{`before(): execution(@java.lang.annotation.Retention(java.lang.annotation.ElementType.TYPE) * *(..)) { a.B.c(); }`,
			"element value is a java.lang.annotation.RetentionPolicy: java.lang.annotation.ElementType.TYPE is a constant of java.lang.annotation.ElementType"},
		{`before(): execution(@java.lang.annotation.Retention(RUNTIME) * *(..)) { a.B.c(); }`,
			"hint: write a constant with its type, java.lang.annotation.RetentionPolicy.NAME"},
		{`before(): execution(@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.LATER) * *(..)) { a.B.c(); }`,
			"enum java.lang.annotation.RetentionPolicy has no constant LATER\n  hint: its constants: CLASS, RUNTIME, SOURCE"},
		{`before(): execution(@Deprecated(since="9", since="10") * *(..)) { a.B.c(); }`, "element since is tested twice"},
		{`before(): execution(@java.lang.*(since="9") * *(..)) { a.B.c(); }`, "value patterns need an exact annotation type"},
		{`before(): execution(@Deprecated(since=) * *(..)) { a.B.c(); }`, "t.weft:1:50: in execution(...): unexpected token \")\" (expected an"},
		{`before(): within(@Deprecated(since="9" *)) { a.B.c(); }`, "t.weft:1:51: in within(...): unexpected token \"*\" (expected \",\""},
		{`before(String x): @annotation(Deprecated(x)) && args(x) { a.B.c(x); }`,
			"@annotation(): binding an annotation's value to a formal is not supported yet"},
		{`before(): @this(Deprecated(since="9")) { a.B.c(); }`, "@this(): value patterns are matched statically"},
		{`before(): @within(Deprecated(forRemoval=1)) { a.B.c(); }`, "element forRemoval is a boolean: 1 is a number"},
		{`before(): execution(@Deprecated(since='9') * *(..)) { a.B.c(); }`, "element since is a String: '9' is a char"},
		{`before(): execution(@FunctionalInterface(1) * *(..)) { a.B.c(); }`,
			"annotation java.lang.FunctionalInterface has no element value\n  hint: it is a marker annotation"},
	}
	for _, tc := range tests {
		got := resolveErr("aspect A { " + tc.decl + " }")
		for _, w := range strings.Split(tc.want, "\n  hint: ") { // the message, then the hint
			if !strings.Contains(got, w) {
				t.Errorf("%s:\ngot  %s\nwant %s", tc.decl, got, tc.want)
				break
			}
		}
	}
}

// With an advice class path, annotation types are looked up: one found
// nowhere is an error.
func TestAnnotationTypeNotFound(t *testing.T) {
	f, err := ParseFile("t.weft", []byte("aspect A { before(): @within(com.example.Missing) { a.B.c(); } }"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Resolve([]*File{f}, t.TempDir())
	if err == nil || !contains(err.Error(), "t.weft:1:30: @within(): annotation type com.example.Missing not found",
		"hint: put the annotation type's classes on --advice-cp") {
		t.Errorf("got %v", err)
	}
}
