package pointcut

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/weft-aop/weft/classfile"
)

// The annotation package and the names in it ReadAtAspect reads.
const atAnnotationPkg = "Lorg/aspectj/lang/annotation/"

// atIgnored are the annotations of the package that change nothing weft
// does: advice names for tools, warning suppression, a code generation
// hint for ajc.
var atIgnored = map[string]bool{"AdviceName": true, "SuppressAjWarnings": true, "control/CodeGenerationHint": true}

// atUnsupported explains the annotations weft rejects.
var atUnsupported = map[string]string{
	"DeclareMixin":      "weft has no inter-type declarations; @DeclareParents with defaultImpl is the mixin it will support",
	"DeclareAnnotation": "weft has no declare annotation: give the annotation in the source, or match what the annotation would select by its pointcut",
	"RequiredTypes":     "weft applies an aspect unconditionally; drop @RequiredTypes or leave the aspect out when its types are missing",
}

var atAdviceKinds = map[string]AtAdviceKind{"Before": AdviceBefore, "After": AdviceAfter,
	"AfterReturning": AdviceAfterReturning, "AfterThrowing": AdviceAfterThrowing, "Around": AdviceAround}

// ajcAspectAttr marks a code-style aspect compiled by ajc.
const ajcAspectAttr = "org.aspectj.weaver.Aspect"

// ReadAtAspect reads the @AspectJ aspect c. It returns nil, nil if c is not
// annotated @org.aspectj.lang.annotation.Aspect, and nil and an
// AtAspectErrors listing every error it finds otherwise. Annotations are
// read from RuntimeVisibleAnnotations and RuntimeInvisibleAnnotations
// alike (aspectjrt's are all RUNTIME but @SuppressAjWarnings, which is
// CLASS). A code-style aspect ajc compiled is an error: its advice is
// ajc's to weave. An @Aspect class ajc wove after javac is read, marked
// AjcWoven.
func ReadAtAspect(c *classfile.Class) (*AtAspect, error) {
	r := &atReader{c: c, a: &AtAspect{
		Class:      c.Name(),
		SourceFile: c.SourceFile(),
		Super:      c.SuperName(),
		Abstract:   c.Access&classfile.AccAbstract != 0,
	}}
	r.file = r.a.Class + ".class"
	if r.a.SourceFile != "" {
		r.file = path.Join(path.Dir(r.a.Class), r.a.SourceFile)
	}
	class := site{}
	if c.Attr(c.Attributes, ajcAspectAttr) != nil {
		r.errorf(class, "write the aspect in the annotation style and compile it with javac, or weave it with AspectJ's own tools (ajc, its load-time weaver), not weft",
			"compiled by ajc as a code-style aspect (it has the %s attribute): weft reads @AspectJ aspects compiled by javac", ajcAspectAttr)
		return nil, r.errs
	}
	anns, ok := r.annotations(c.Attributes, class)
	if !ok {
		return nil, r.errs
	}
	aspect := findAt(anns, "Aspect")
	if aspect == nil {
		return nil, nil
	}
	// An @Aspect class ajc wove after javac (as libraries built with
	// AspectJ's post-compile weaving ship theirs) keeps javac's advice
	// methods and annotations: ajc adds aspectOf(), its instance field and
	// accessors, which weft.at uses or leaves alone.
	r.a.AjcWoven = r.ajcAttr() != ""
	if c.IsInterface() {
		r.errorf(class, "an aspect is a class: annotate a class @Aspect", "@Aspect on an interface")
		return nil, r.errs
	}
	r.class(anns, aspect)
	for _, m := range c.Methods {
		r.method(m)
	}
	for _, f := range c.Fields {
		r.field(f)
	}
	if len(r.errs) > 0 {
		return nil, r.errs
	}
	return r.a, nil
}

// atReader reads one aspect, collecting its errors.
type atReader struct {
	c    *classfile.Class
	a    *AtAspect
	file string // the source file's path for errors (AtAspectError.File)
	errs AtAspectErrors
}

// site is where in the aspect an error is: a member, or the class if
// member is "", and its first source line.
type site struct {
	member string
	line   int
}

func (r *atReader) errorf(s site, hint, format string, args ...any) {
	r.errs = append(r.errs, &AtAspectError{Class: r.a.Class, File: r.file, Line: s.line, Member: s.member,
		Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// syntax reports the errors of parsing an annotation string whose parsed
// part starts at byte off of text, err being parseExprText's or
// parseTypePatternsText's; what names the annotation.
func (r *atReader) syntax(s site, what, text string, off int, err error) {
	var list ErrorList
	if !errors.As(err, &list) {
		r.errorf(s, "", "%s: %v", what, err)
		return
	}
	for _, e := range list {
		end := min(max(off+e.Pos.Offset, 0), len(text))
		col := utf8.RuneCountInString(text[:end]) + 1
		r.errs = append(r.errs, &AtAspectError{Class: r.a.Class, File: r.file, Line: s.line, Member: s.member,
			Text: text, Column: col, Msg: fmt.Sprintf("syntax error in %s at column %d: %s", what, col, e.Msg), Hint: e.Hint})
	}
}

// ajcAttr returns the name of the first attribute of ajc's weaver (named
// org.aspectj.weaver.*) on the class or a member, "" if there is none.
func (r *atReader) ajcAttr() string {
	lists := [][]classfile.Attribute{r.c.Attributes}
	for _, m := range r.c.Methods {
		lists = append(lists, m.Attributes)
	}
	for _, f := range r.c.Fields {
		lists = append(lists, f.Attributes)
	}
	for _, attrs := range lists {
		for _, a := range attrs {
			if name := r.c.Pool.Utf8(a.Name); strings.HasPrefix(name, "org.aspectj.weaver.") {
				return name
			}
		}
	}
	return ""
}

// atAnnotation is an annotation of org.aspectj.lang.annotation: its name
// after the package ("Before", "control/CodeGenerationHint") and its
// elements as the class file has them. javac writes only the elements the
// source sets; every element ReadAtAspect reads defaults to "".
type atAnnotation struct {
	name  string
	elems []classfile.ElementPair
}

func findAt(anns []atAnnotation, name string) *atAnnotation {
	for i := range anns {
		if anns[i].name == name {
			return &anns[i]
		}
	}
	return nil
}

// annotations returns the annotations of org.aspectj.lang.annotation in
// attrs, visible and invisible; false after reporting a malformed
// attribute.
func (r *atReader) annotations(attrs []classfile.Attribute, s site) ([]atAnnotation, bool) {
	var out []atAnnotation
	for i := range attrs {
		name := r.c.Pool.Utf8(attrs[i].Name)
		if name != "RuntimeVisibleAnnotations" && name != "RuntimeInvisibleAnnotations" {
			continue
		}
		v, err := classfile.DecodeAttr(r.c, &attrs[i])
		if err != nil {
			r.errorf(s, "", "malformed %s attribute: %v", name, err)
			return nil, false
		}
		for _, an := range v.(*classfile.Annotations).Annotations {
			desc := r.c.Pool.Utf8(an.Type)
			if strings.HasPrefix(desc, atAnnotationPkg) && strings.HasSuffix(desc, ";") {
				out = append(out, atAnnotation{name: desc[len(atAnnotationPkg) : len(desc)-1], elems: an.Elements})
			}
		}
	}
	return out, true
}

// str returns the string element key of a ("" if the class file omits it);
// false after reporting an element that is not a string.
func (r *atReader) str(s site, a *atAnnotation, key string) (string, bool) {
	return r.elem(s, a, key, 's', "a string")
}

// classElem returns the class element key of a as a descriptor ("" if the
// class file omits it); false after reporting an element that is not a class.
func (r *atReader) classElem(s site, a *atAnnotation, key string) (string, bool) {
	return r.elem(s, a, key, 'c', "a class")
}

// elem returns the text of element key of a, whose tag must be tag (what
// says so in the error): the string for 's', the descriptor for 'c'.
func (r *atReader) elem(s site, a *atAnnotation, key string, tag byte, what string) (string, bool) {
	for _, e := range a.elems {
		if r.c.Pool.Utf8(e.Name) != key {
			continue
		}
		if e.Value.Tag != tag {
			r.errorf(s, "", "@%s: element %s is not %s (tag %q)", a.name, key, what, e.Value.Tag)
			return "", false
		}
		return r.c.Pool.Utf8(e.Value.Index), true
	}
	return "", true
}

// unsupported reports the annotations of anns that are neither handled
// (the names in handled) nor ignored.
func (r *atReader) unsupported(s site, anns []atAnnotation, handled ...string) {
outer:
	for _, a := range anns {
		for _, h := range handled {
			if a.name == h {
				continue outer
			}
		}
		if atIgnored[a.name] {
			continue
		}
		hint, known := atUnsupported[a.name]
		if !known {
			hint = "weft reads @Aspect and @DeclarePrecedence on the class, @Pointcut and advice on methods, @DeclareWarning, @DeclareError and @DeclareParents on fields"
		}
		r.errorf(s, hint, "@%s is not supported", a.name)
	}
}

// class reads the class's annotations: @Aspect's per-clause and
// @DeclarePrecedence.
func (r *atReader) class(anns []atAnnotation, aspect *atAnnotation) {
	s := site{}
	r.unsupported(s, anns, "Aspect", "DeclarePrecedence")
	if text, ok := r.str(s, aspect, "value"); ok {
		r.perClause(s, text)
	}
	if prec := findAt(anns, "DeclarePrecedence"); prec != nil {
		text, ok := r.str(s, prec, "value")
		if !ok {
			return
		}
		if strings.TrimSpace(text) == "" {
			r.errorf(s, "write @DeclarePrecedence(\"Aspect1, Aspect2, ...\")", "@DeclarePrecedence lists no aspects")
			return
		}
		if _, err := parseTypePatternsText("", text); err != nil {
			r.syntax(s, "@DeclarePrecedence", text, 0, err)
			return
		}
		r.a.Precedence = text
	}
}

// perClauses are the per-clause designators @Aspect's value may hold.
var perClauses = []struct {
	name string
	kind AtPerKind
}{{"perthis", PerThis}, {"pertarget", PerTarget}, {"percflowbelow", PerCflowBelow},
	{"percflow", PerCflow}, {"pertypewithin", PerTypeWithin}}

// ParsePerClause reads a per-clause as aop.xml's <concrete-aspect
// perclause="..."> writes it, for the aspect of internal name class:
// singleton() or a per-clause designator, as @Aspect's value.
func ParsePerClause(class, text string) (AtPerClause, error) {
	r := &atReader{a: &AtAspect{Class: class}}
	if strings.TrimSpace(text) == "" {
		return AtPerClause{}, nil
	}
	r.perClause(site{}, text)
	if len(r.errs) > 0 {
		return AtPerClause{}, r.errs
	}
	return r.a.Per, nil
}

// perClause reads @Aspect's value as AspectJ does: empty for a singleton
// (or a per-clause inherited), singleton(), or a per-clause designator
// with its pointcut or type pattern.
func (r *atReader) perClause(s site, text string) {
	trimmed := strings.TrimSpace(text)
	switch {
	case trimmed == "":
		return
	case strings.EqualFold(trimmed, "singleton()"):
		r.a.Per = AtPerClause{Kind: PerSingleton, Declared: true}
		return
	}
	start := strings.Index(text, trimmed)
	for _, pc := range perClauses {
		rest, ok := strings.CutPrefix(trimmed, pc.name)
		rest = strings.TrimLeft(rest, " \t\r\n")
		if !ok || !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			continue
		}
		inner := rest[1 : len(rest)-1]
		off := start + len(trimmed) - len(rest) + 1 // byte offset of inner in text
		what := "@Aspect's " + pc.name + "(...)"
		if strings.TrimSpace(inner) == "" {
			r.errorf(s, "", "%s is empty", what)
			return
		}
		if pc.kind == PerTypeWithin {
			if !r.typePattern(s, what, text, off, inner) {
				return
			}
		} else if !r.expr(s, what, text, off, inner) {
			return
		}
		r.a.Per = AtPerClause{Kind: pc.kind, Text: inner, Declared: true}
		return
	}
	r.errorf(s, "write perthis(Pointcut), pertarget(Pointcut), percflow(Pointcut), percflowbelow(Pointcut) or pertypewithin(TypePattern), or nothing for a singleton",
		"@Aspect per clause cannot be read '%s'", text)
}

// ifAnywhere finds an empty if(), which only ends an if() pointcut.
var ifAnywhere = regexp.MustCompile(`\bif\s*\(\s*\)`)

// expr checks that src, which starts at byte off of the annotation string
// text, is a pointcut in weft's grammar, reporting where it is not.
func (r *atReader) expr(s site, what, text string, off int, src string) bool {
	if loc := ifAnywhere.FindStringIndex(src); loc != nil {
		col := utf8.RuneCountInString(text[:off+loc[0]]) + 1
		r.errs = append(r.errs, &AtAspectError{Class: r.a.Class, File: r.file, Line: s.line, Member: s.member,
			Text: text, Column: col,
			Msg:  fmt.Sprintf("%s: if() pointcut is not allowed at this pointcut location '%s'", what, text),
			Hint: "an empty if() ends the expression of a public static boolean @Pointcut method, `... && if()`, whose body is the test; use that pointcut here"})
		return false
	}
	if _, err := parseExprText("", src); err != nil {
		r.syntax(s, what, text, off, err)
		return false
	}
	return true
}

// typePattern checks that src (at byte off of text) is one type pattern.
func (r *atReader) typePattern(s site, what, text string, off int, src string) bool {
	l, err := parseTypePatternsText("", src)
	if err != nil {
		r.syntax(s, what, text, off, err)
		return false
	}
	if len(l) != 1 {
		r.errorf(s, "combine type patterns with ||: (A || B)", "%s takes one type pattern, not a list: '%s'", what, text)
		return false
	}
	return true
}

// method reads the @Pointcut or advice annotation of m, if any.
func (r *atReader) method(m *classfile.Member) {
	name, desc := r.c.MemberName(m), r.c.MemberDesc(m)
	s := site{member: "method " + name + "(" + simpleParams(desc) + ")"}
	anns, ok := r.annotations(m.Attributes, s)
	if !ok || len(anns) == 0 {
		return
	}
	lines, locals, err := codeTables(r.c, m)
	if err != nil {
		r.errorf(s, "", "%v", err)
		return
	}
	s.line = firstLine(lines)
	handled := []string{"Pointcut", "Before", "After", "AfterReturning", "AfterThrowing", "Around"}
	r.unsupported(s, anns, handled...)
	var found []*atAnnotation
	for i := range anns {
		if _, isAdvice := atAdviceKinds[anns[i].name]; isAdvice || anns[i].name == "Pointcut" {
			found = append(found, &anns[i])
		}
	}
	switch {
	case len(found) == 0:
		return
	case len(found) > 1:
		r.errorf(s, "give each pointcut and each advice a method of its own", "@%s and @%s on one method", found[0].name, found[1].name)
		return
	}
	mt, err := classfile.ParseMethodDesc(desc)
	if err != nil {
		r.errorf(s, "", "%v", err)
		return
	}
	mb := &atMethod{m: m, mt: mt, locals: locals}
	if found[0].name == "Pointcut" {
		r.pointcut(s, name, desc, mb, found[0])
	} else {
		r.advice(s, name, desc, mb, found[0])
	}
}

// atMethod is what parameter binding needs of a method.
type atMethod struct {
	m      *classfile.Member
	mt     classfile.MethodType
	locals []classfile.LocalVariableEntry
}

func (mb *atMethod) is(flag uint16) bool { return mb.m.Access&flag != 0 }

// pointcut reads a @Pointcut method.
func (r *atReader) pointcut(s site, name, desc string, mb *atMethod, an *atAnnotation) {
	text, ok := r.str(s, an, "value")
	if !ok {
		return
	}
	p := &AtPointcut{Name: name, Desc: desc, Expr: text, Abstract: mb.is(classfile.AccAbstract), Line: s.line}
	p.If = ifEnd.MatchString(text)
	empty := strings.TrimSpace(text) == ""
	switch {
	case p.Abstract && !empty:
		r.errorf(s, "an abstract pointcut has no expression: @Pointcut(\"\"); the concrete aspect extending this one defines it",
			"Found defined @Pointcut on an abstract method")
		return
	case p.If && (mb.mt.Return != classfile.Boolean || !mb.is(classfile.AccPublic) || !mb.is(classfile.AccStatic)):
		r.errorf(s, "declare it `public static boolean "+name+"(...)`, its body the test",
			"an if() pointcut's method must be public static boolean")
		return
	case !p.If && mb.mt.Return != classfile.Void:
		r.errorf(s, "a @Pointcut method returns void; only an if() pointcut, whose expression ends with `&& if()`, returns boolean",
			"@Pointcut method returns %s", mb.mt.Return.JavaName())
		return
	}
	params, ok := r.params(s, mb, an, !p.Abstract)
	if !ok {
		return
	}
	if !p.If {
		for _, q := range params {
			if q.Role.Special() {
				r.errorf(s, "a pointcut binds formals only; take the "+q.Role.String()+" as a parameter of the advice",
					"%s parameter in a @Pointcut that is not an if() pointcut", q.Role)
				return
			}
		}
	}
	p.Params = params
	if !empty {
		src := text
		if p.If {
			src = text[:ifEnd.FindStringIndex(text)[0]]
		}
		if strings.TrimSpace(src) != "" && !r.expr(s, "@Pointcut", text, 0, src) {
			return
		}
	}
	r.a.Pointcuts = append(r.a.Pointcuts, p)
}

// advice reads an advice method.
func (r *atReader) advice(s site, name, desc string, mb *atMethod, an *atAnnotation) {
	kind := atAdviceKinds[an.name]
	ad := &AtAdvice{Kind: kind, Method: name, Desc: desc, Line: s.line}
	value, ok := r.str(s, an, "value")
	if !ok {
		return
	}
	ad.Expr = value
	exit, exitKey := "", "" // the returning or throwing formal, and which
	switch kind {
	case AdviceAfterReturning, AdviceAfterThrowing:
		pc, ok := r.str(s, an, "pointcut")
		if !ok {
			return
		}
		if strings.TrimSpace(pc) != "" {
			ad.Expr = pc
		}
		exitKey = "returning"
		if kind == AdviceAfterThrowing {
			exitKey = "throwing"
		}
		if exit, ok = r.str(s, an, exitKey); !ok {
			return
		}
		exit = strings.TrimSpace(exit)
		if kind == AdviceAfterReturning {
			ad.Returning = exit
		} else {
			ad.Throwing = exit
		}
	}
	bad := len(r.errs)
	switch {
	case strings.TrimSpace(ad.Expr) == "":
		r.errorf(s, "write the pointcut: @"+an.name+"(\"execution(* com.acme..*(..))\")", "@%s has no pointcut", an.name)
	case !mb.is(classfile.AccPublic):
		r.errorf(s, "declare the advice method public", "@%s advice must be public", an.name)
	case mb.is(classfile.AccStatic):
		r.errorf(s, "declare the advice method without static: it runs on the aspect's instance", "@%s advice cannot be static", an.name)
	case kind != AdviceAround && mb.mt.Return != classfile.Void:
		r.errorf(s, "only @Around advice returns a value: declare it void", "@%s advice returns %s", an.name, mb.mt.Return.JavaName())
	}
	if len(r.errs) > bad {
		return
	}
	params, ok := r.params(s, mb, an, true)
	if !ok {
		return
	}
	for i, q := range params {
		if q.Role == ParamProceedingJoinPoint && kind != AdviceAround {
			r.errorf(s, "take a JoinPoint instead: only @Around advice proceeds",
				"use of ProceedingJoinPoint is allowed only on around advice (arg %d)", i)
			return
		}
	}
	if exit != "" {
		i := formalNamed(params, exit)
		if i < 0 {
			r.errorf(s, fmt.Sprintf("name the parameter that receives the %s value %s, or change %s=%q", exitKey, exit, exitKey, exit),
				"%s=%q names no parameter of the advice", exitKey, exit)
			return
		}
		params[i].Role = ParamReturning
		if kind == AdviceAfterThrowing {
			params[i].Role = ParamThrowing
		}
	}
	ad.Params = params
	if !r.expr(s, "@"+an.name, ad.Expr, 0, ad.Expr) {
		return
	}
	r.a.Advice = append(r.a.Advice, ad)
}

// formalNamed returns the index of the formal parameter named name, -1 if
// there is none.
func formalNamed(params []AtParam, name string) int {
	for i, q := range params {
		if q.Role == ParamFormal && q.Name == name {
			return i
		}
	}
	return -1
}

// params returns the parameters of a pointcut or advice method with their
// roles and names: argNames when the annotation gives it, else the
// LocalVariableTable (javac -g), else MethodParameters (javac -parameters).
// argNames names every parameter in order, as AspectJ's weaver requires,
// or every one but a first special parameter, as Spring's documentation
// of these annotations allows; any other count is an error, in AspectJ's
// words. Like AspectJ, it ignores argNames on a method without parameters. (AspectJ's weaver reads the LocalVariableTable
// before argNames; the two differ only when argNames contradicts the
// source, and then the annotation, which the user wrote for this, wins.)
// needed says whether formals need names (not those of an abstract
// pointcut); a method whose formals need names that none of the three
// gives is an error, again in AspectJ's words.
func (r *atReader) params(s site, mb *atMethod, an *atAnnotation, needed bool) ([]AtParam, bool) {
	ps := make([]AtParam, len(mb.mt.Params)) // bounded by the descriptor's length
	formals := 0
	for i, t := range mb.mt.Params {
		ps[i] = AtParam{Desc: string(t), Role: specialRoles[string(t)]}
		if !ps[i].Role.Special() {
			formals++
		}
	}
	argNames, ok := r.str(s, an, "argNames")
	if !ok {
		return nil, false
	}
	if len(ps) > 0 && strings.TrimSpace(argNames) != "" {
		// AspectJ splits argNames at blanks and commas (a StringTokenizer).
		names := strings.FieldsFunc(argNames, func(c rune) bool { return c == ' ' || c == ',' })
		from := 0
		switch {
		case len(names) == len(ps):
		case len(names) == len(ps)-1 && ps[0].Role.Special():
			// Spring's documented exception: a first JoinPoint,
			// ProceedingJoinPoint or StaticPart parameter may go unnamed.
			from = 1
		default:
			r.errorf(s, fmt.Sprintf("argNames lists the names of all %d parameters in order, comma-separated (a first JoinPoint parameter may be left out); it has %d", len(ps), len(names)),
				"argNames annotation value does not specify the right number of argument names for the method '%s'", r.methodForMessage(mb))
			return nil, false
		}
		for i, n := range names {
			ps[from+i].Name = n
		}
		return ps, true
	}
	names := localNames(r.c, mb)
	if names == nil {
		names = methodParameterNames(r.c, mb.m, len(ps))
	}
	if names != nil {
		for i := range ps {
			ps[i].Name = names[i]
		}
		return ps, true
	}
	if needed && formals > 0 {
		r.errorf(s, fmt.Sprintf("the class file has no names for the parameters of %s: compile with javac -g or -parameters, or name them in the annotation: argNames=\"name1,name2,...\"", r.c.MemberName(mb.m)),
			"Cannot read debug info for @Aspect to handle formal binding in pointcuts (please compile with 'javac -g' or '<javac debug='true'.../>' in Ant)")
		return nil, false
	}
	return ps, true
}

// methodForMessage writes a method as AspectJ's messages do, with simple
// type names: "void before(JoinPoint,int)".
func (r *atReader) methodForMessage(mb *atMethod) string {
	s := simpleName(mb.mt.Return) + " " + r.c.MemberName(mb.m)
	if len(mb.mt.Params) > 0 {
		s += "(" + strings.ReplaceAll(simpleParams(r.c.MemberDesc(mb.m)), ", ", ",") + ")"
	}
	return s
}

// localNames returns the names of mb's parameters from its
// LocalVariableTable: the entries live from offset 0 in the parameters'
// slots. It returns nil unless every parameter has one.
func localNames(c *classfile.Class, mb *atMethod) []string {
	if len(mb.locals) == 0 {
		return nil
	}
	names := make([]string, len(mb.mt.Params))
	slot := 1
	if mb.is(classfile.AccStatic) {
		slot = 0
	}
	for i, t := range mb.mt.Params {
		for _, v := range mb.locals {
			if v.StartPC == 0 && int(v.Slot) == slot {
				names[i] = c.Pool.Utf8(v.Name)
				break
			}
		}
		if names[i] == "" {
			return nil
		}
		slot += t.Size()
	}
	return names
}

// methodParameterNames returns the names of m's n parameters from its
// MethodParameters attribute, nil unless it names all of them.
func methodParameterNames(c *classfile.Class, m *classfile.Member, n int) []string {
	v, err := c.FindAttr(m.Attributes, "MethodParameters")
	if v == nil || err != nil {
		return nil
	}
	mp := v.(*classfile.MethodParameters).Params
	if len(mp) != n {
		return nil
	}
	names := make([]string, n)
	for i, p := range mp {
		if names[i] = c.Pool.Utf8(p.Name); names[i] == "" {
			return nil
		}
	}
	return names
}

// field reads the declare annotation of f, if any.
func (r *atReader) field(f *classfile.Member) {
	name, desc := r.c.MemberName(f), r.c.MemberDesc(f)
	s := site{member: "field " + name}
	anns, ok := r.annotations(f.Attributes, s)
	if !ok || len(anns) == 0 {
		return
	}
	r.unsupported(s, anns, "DeclareWarning", "DeclareError", "DeclareParents")
	var found []*atAnnotation
	for i := range anns {
		switch anns[i].name {
		case "DeclareWarning", "DeclareError", "DeclareParents":
			found = append(found, &anns[i])
		}
	}
	switch {
	case len(found) == 0:
		return
	case len(found) > 1:
		r.errorf(s, "give each declaration a field of its own", "@%s and @%s on one field", found[0].name, found[1].name)
		return
	}
	an := found[0]
	text, ok := r.str(s, an, "value")
	if !ok {
		return
	}
	what := "@" + an.name
	if an.name == "DeclareParents" {
		r.declareParents(s, name, desc, an, text)
		return
	}
	if strings.TrimSpace(text) == "" {
		r.errorf(s, "", "%s has no pointcut", what)
		return
	}
	msg, isConst := r.stringConstant(f)
	if desc != "Ljava/lang/String;" || !isConst {
		r.errorf(s, "annotate a static final String field initialized with a string literal, the message: static final String "+name+" = \"...\";",
			"%s used on a non String constant field", what)
		return
	}
	if !r.expr(s, what, text, 0, text) {
		return
	}
	r.a.Messages = append(r.a.Messages, &AtDeclareMessage{Error: an.name == "DeclareError", Field: name, Expr: text, Message: msg})
}

// stringConstant returns the String value of f's ConstantValue attribute,
// which javac writes for a static final field initialized with a constant.
func (r *atReader) stringConstant(f *classfile.Member) (string, bool) {
	v, err := r.c.FindAttr(f.Attributes, "ConstantValue")
	if v == nil || err != nil {
		return "", false
	}
	k := r.c.Pool.Get(v.(*classfile.ConstantValue).Index)
	if k.Tag != classfile.TagString {
		return "", false
	}
	return r.c.Pool.Utf8(k.A), true
}

// declareParents reads @DeclareParents on field f.
func (r *atReader) declareParents(s site, name, desc string, an *atAnnotation, text string) {
	if strings.TrimSpace(text) == "" {
		r.errorf(s, "", "@DeclareParents has no type pattern")
		return
	}
	impl, ok := r.classElem(s, an, "defaultImpl")
	if !ok {
		return
	}
	t := classfile.Type(desc)
	if !strings.HasPrefix(desc, "L") || !strings.HasSuffix(desc, ";") {
		r.errorf(s, "declare the field with the interface the matching types implement: Moody "+name+";",
			"@DeclareParents: can only be used on a field whose type is an interface (it is %s)", t.JavaName())
		return
	}
	d := &AtDeclareParents{Field: name, Types: text, Interface: t.InternalName()}
	// The element's default is DeclareParents.class itself, meaning none.
	if impl != "" && impl != atAnnotationPkg+"DeclareParents;" {
		it := classfile.Type(impl)
		if !strings.HasPrefix(impl, "L") || !strings.HasSuffix(impl, ";") {
			r.errorf(s, "defaultImpl names a class implementing "+t.JavaName(), "@DeclareParents: defaultImpl is %s, not a class", it.JavaName())
			return
		}
		d.DefaultImpl = it.InternalName()
	}
	if !r.typePattern(s, "@DeclareParents", text, 0, text) {
		return
	}
	r.a.Parents = append(r.a.Parents, d)
}

// simpleParams writes the parameters of a method descriptor as Java's
// simple type names, comma-separated: "JoinPoint.StaticPart, int[]".
func simpleParams(desc string) string {
	mt, err := classfile.ParseMethodDesc(desc)
	if err != nil {
		return "?"
	}
	names := make([]string, len(mt.Params))
	for i, t := range mt.Params {
		names[i] = simpleName(t)
	}
	return strings.Join(names, ", ")
}

// simpleName returns t's Java name without its package, nested classes
// joined with dots as Java writes them: "JoinPoint.StaticPart".
func simpleName(t classfile.Type) string {
	n := t.JavaName()
	n = n[strings.LastIndexByte(n, '.')+1:]
	return strings.ReplaceAll(n, "$", ".")
}

// codeTables returns the entries of the LineNumberTables and
// LocalVariableTables of m's Code attribute, none if m has no code. The
// attribute is walked without decoding its instructions: its tables are
// all this needs.
func codeTables(c *classfile.Class, m *classfile.Member) (lines []classfile.LineNumberEntry, locals []classfile.LocalVariableEntry, err error) {
	a := c.Attr(m.Attributes, "Code")
	if a == nil {
		return nil, nil, nil
	}
	malformed := errors.New("malformed Code attribute")
	b := a.Info
	if len(b) < 8 || uint64(binary.BigEndian.Uint32(b[4:])) > uint64(len(b)-8) {
		return nil, nil, malformed
	}
	off := 8 + int(binary.BigEndian.Uint32(b[4:]))
	if len(b)-off < 2 || 8*int(binary.BigEndian.Uint16(b[off:])) > len(b)-off-2 {
		return nil, nil, malformed
	}
	off += 2 + 8*int(binary.BigEndian.Uint16(b[off:]))
	if len(b)-off < 2 {
		return nil, nil, malformed
	}
	n := int(binary.BigEndian.Uint16(b[off:]))
	off += 2
	for i := 0; i < n; i++ {
		if len(b)-off < 6 {
			return nil, nil, malformed
		}
		name := binary.BigEndian.Uint16(b[off:])
		size := binary.BigEndian.Uint32(b[off+2:])
		off += 6
		if uint64(size) > uint64(len(b)-off) {
			return nil, nil, malformed
		}
		attr := classfile.Attribute{Name: name, Info: b[off : off+int(size)]}
		off += int(size)
		switch c.Pool.Utf8(name) {
		case "LineNumberTable", "LocalVariableTable":
			v, err := classfile.DecodeAttr(c, &attr)
			if err != nil {
				return nil, nil, err
			}
			switch v := v.(type) {
			case *classfile.LineNumberTable:
				lines = append(lines, v.Lines...)
			case *classfile.LocalVariableTable:
				locals = append(locals, v.Vars...)
			}
		}
	}
	return lines, locals, nil
}

// firstLine returns the line of the first instruction (the entry at the
// lowest offset), 0 if there are no entries.
func firstLine(lines []classfile.LineNumberEntry) int {
	line, pc := 0, -1
	for _, l := range lines {
		if pc < 0 || int(l.StartPC) < pc {
			line, pc = int(l.Line), int(l.StartPC)
		}
	}
	return line
}
