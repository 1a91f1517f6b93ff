package pointcut

import (
	"fmt"
	"strings"

	"github.com/weft-aop/weft/classfile"
)

// Translating an @AspectJ aspect (AtAspect) into what weft runs: a .weft
// aspect of the same name whose advice each call one static method of a
// dispatcher class, and that class's Java source.
//
// weft's advice is a static method call; @AspectJ advice is an instance
// method of an aspect the application's class loader defines. The
// dispatcher, on the boot class path with weft's runtime so that woven JDK
// code reaches it too, calls the aspect's method through a constant method
// handle over a MutableCallSite, which weft.at.Link points at the aspect's
// singleton instance when the dispatcher class initializes (at the first
// join point): the JIT inlines through it as through a direct call. Until
// then, or when the aspect cannot be linked, the site does nothing (around
// advice proceeds).
//
// The dispatcher takes the advice method's parameters in order, each as
// weft passes it: a formal as itself if primitive, else as Object (the
// aspect's types are not the boot loader's to see); a JoinPoint as weft's
// thisJoinPoint; a ProceedingJoinPoint as proceed then thisJoinPoint; a
// StaticPart or EnclosingStaticPart as weft's static part. weft.at.Link
// reads the same order from the roles string ('f', 'J', 'P', 'S', 'E').

// AtDispatchPackage is the package of the dispatcher classes, in weft's
// namespace (never woven): the aspect's binary name follows it.
const AtDispatchPackage = "weft.at.gen"

// AtOptions is what a translation needs besides the aspect: what an
// aop.xml's <weaver> says of the types woven, only those matching an
// Include pattern (when there are any) and none matching an Exclude
// pattern, each an AspectJ type pattern the translation adds to every
// pointcut as within(...); and which classes the program has.
type AtOptions struct {
	Include, Exclude []string
	// Exists says whether the program has a class of this internal name:
	// a simple type name in a pointcut names the aspect's package's type
	// when there is one, as AspectJ resolves it (ataspectj_names.go).
	// nil: names are taken as written.
	Exists func(internal string) bool
}

// AtTranslation is one @AspectJ aspect as weft runs it.
type AtTranslation struct {
	Aspect string // binary name, e.g. "com.acme.Tracing"
	// Weft is a .weft file holding one aspect named Aspect.
	Weft []byte
	// Dispatcher is the internal name of the dispatcher class and Java
	// its source.
	Dispatcher string
	Java       []byte
}

// TranslateAtAspect translates a, read by ReadAtAspect, restricting its
// advice to the types w weaves. supers are the aspects a extends, nearest
// first (an aspect may extend an abstract aspect, which may extend
// another): a inherits their pointcuts, overriding those it redefines, and
// their advice, which runs on a's instance. What weft does not run yet is
// an error naming the aspect and the construct.
func TranslateAtAspect(a *AtAspect, supers []*AtAspect, w AtOptions) (*AtTranslation, error) {
	qs := make([]*AtAspect, len(supers))
	for i, s := range supers {
		qs[i] = w.qualified(s)
	}
	t := &atTranslator{a: w.qualified(a), supers: qs, name: binaryName(a.Class), within: w}
	t.unsupported()
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	t.dispatcher = strings.ReplaceAll(AtDispatchPackage, ".", "/") + "/" + a.Class
	t.weftHeader()
	for _, p := range t.pointcuts() {
		t.pointcut(p.owner, p.v)
	}
	t.perEntry()
	for _, ad := range t.allAdvice() {
		t.advice(ad.owner, ad.v)
	}
	t.perExit()
	t.declares()
	t.w.WriteString("}\n")
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	return &AtTranslation{Aspect: t.name, Weft: []byte(t.w.String()), Dispatcher: t.dispatcher, Java: t.javaSource()}, nil
}

// atTranslator writes one aspect's .weft text and collects its
// dispatcher's methods.
type atTranslator struct {
	a          *AtAspect
	supers     []*AtAspect
	per        AtPerClause // the aspect's, or the nearest super's that declares one
	name       string      // binary name
	within     AtOptions
	dispatcher string
	w          strings.Builder
	methods    []atDispatch
	advised    int // advice written so far
	errs       AtAspectErrors
}

// atDispatch is one method of the dispatcher: it calls Method (Desc) of
// the aspect, or of Class for a static method, through call site number
// Site.
type atDispatch struct {
	Name   string // the dispatcher's method: a0, a1... for advice, i0... for if() tests
	Class  string // the class whose Method is called: the aspect, or the declaring class of a static one
	Method string
	Desc   string
	Roles  string
	Static bool     // an if() test: a static method
	Params []string // the dispatcher's parameter types, Java source
	Return string   // the dispatcher's return type, Java source
	// Proceeds is, for around advice, the index in Params of the Proceed
	// the unlinked site calls to run the join point.
	Proceeds int
	// Key is, for advice of an aspect with a per-clause, the Java type of
	// the dispatcher's first parameter (before Params) that selects the
	// instance, "" if none; Lookup is the expression of that instance,
	// "" for a singleton (whose instance the site binds).
	Key, Lookup string
}

// owned is a pointcut or advice and the aspect that declares it.
type owned[T any] struct {
	owner *AtAspect
	v     T
}

// pointcuts returns the aspect's pointcuts, its supers' first (the
// farthest first), each name once: a redefinition takes the place of the
// definition it overrides. An abstract pointcut left undefined is an error.
func (t *atTranslator) pointcuts() []owned[*AtPointcut] {
	var out []owned[*AtPointcut]
	at := map[string]int{}
	for i := len(t.supers); i >= 0; i-- {
		owner := t.a
		if i > 0 {
			owner = t.supers[i-1]
		}
		for _, p := range owner.Pointcuts {
			if k, ok := at[p.Name]; ok {
				if !p.Abstract {
					out[k] = owned[*AtPointcut]{owner: owner, v: p}
				}
				continue
			}
			at[p.Name] = len(out)
			out = append(out, owned[*AtPointcut]{owner: owner, v: p})
		}
	}
	for _, o := range out {
		if p := o.v; p.Abstract {
			t.errorf(o.owner, atMember(p.Name, p.Desc), p.Line, "define it in "+t.name+" with @Pointcut",
				"abstract pointcut %s is not defined by the concrete aspect %s", p.Name, t.name)
		}
	}
	return out
}

// allAdvice returns the aspect's advice and its supers', ordered so that
// weft's precedence within one aspect gives AspectJ's between a subaspect
// and its superaspect (the subaspect's advice first): before and around
// advice the aspect's own first, then the supers' nearest first; after
// advice the supers' farthest first, then the aspect's own (later after
// advice takes precedence).
func (t *atTranslator) allAdvice() []owned[*AtAdvice] {
	chain := append([]*AtAspect{t.a}, t.supers...)
	var first, last []owned[*AtAdvice]
	for _, owner := range chain {
		for _, ad := range owner.Advice {
			if ad.Kind == AdviceBefore || ad.Kind == AdviceAround {
				first = append(first, owned[*AtAdvice]{owner: owner, v: ad})
			}
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for _, ad := range chain[i].Advice {
			if ad.Kind != AdviceBefore && ad.Kind != AdviceAround {
				last = append(last, owned[*AtAdvice]{owner: chain[i], v: ad})
			}
		}
	}
	return append(first, last...)
}

func (t *atTranslator) errorf(owner *AtAspect, member string, line int, hint, format string, args ...any) {
	t.errs = append(t.errs, &AtAspectError{Class: owner.Class, File: sourcePath(owner), Line: line, Member: member,
		Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// sourcePath is an aspect's source file's path, else its class file's.
func sourcePath(a *AtAspect) string {
	if a.SourceFile == "" {
		return a.Class + ".class"
	}
	return a.Class[:strings.LastIndex(a.Class, "/")+1] + a.SourceFile
}

// binaryName is an internal name's binary name: com.acme.Trace.
func binaryName(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// unsupported reports what the aspect and its supers hold that weft does
// not run yet.
func (t *atTranslator) unsupported() {
	a := t.a
	if a.Abstract {
		t.errorf(a, "", 0, "weft runs concrete @AspectJ aspects; list a concrete aspect extending it in aop.xml",
			"an abstract aspect applies only through an aspect extending it")
	}
	t.per = a.Per
	for _, s := range t.supers {
		if !t.per.Declared && s.Per.Declared {
			t.per = s.Per
		}
	}
}

// weftHeader starts the .weft aspect.
func (t *atTranslator) weftHeader() {
	fmt.Fprintf(&t.w, "// The @AspectJ aspect %s (%s), as weft runs it: each advice calls its\n", t.name, sourcePath(t.a))
	fmt.Fprintf(&t.w, "// method on the aspect's instance through %s.\n", strings.ReplaceAll(t.dispatcher, "/", "."))
	fmt.Fprintf(&t.w, "aspect %s {\n", t.name)
}

// pointcut writes a @Pointcut method as a named pointcut; an if() test's
// method is called through the dispatcher.
func (t *atTranslator) pointcut(owner *AtAspect, p *AtPointcut) {
	fmt.Fprintf(&t.w, "    // %s\n", where(owner, atMember(p.Name, p.Desc), p.Line))
	formals, _ := t.formals(p.Params, "")
	expr := p.Expr
	if expr == "" {
		expr = "if(false)" // @Pointcut(""): AspectJ's pointcut matching nothing
	}
	if p.If {
		d := atDispatch{Name: fmt.Sprintf("i%d", len(t.methods)), Class: binaryName(owner.Class), Method: p.Name, Desc: p.Desc,
			Static: true, Return: "boolean", Proceeds: -1}
		var args []string
		for _, q := range p.Params {
			role, params, values := atArg(q)
			d.Roles += role
			d.Params = append(d.Params, params...)
			args = append(args, values...)
		}
		t.methods = append(t.methods, d)
		test := fmt.Sprintf("if(%s.%s(%s))", strings.ReplaceAll(t.dispatcher, "/", "."), d.Name, strings.Join(args, ", "))
		if rest := p.WithoutIf(); rest != "" {
			expr = "(" + rest + ") && " + test
		} else {
			expr = test
		}
	}
	fmt.Fprintf(&t.w, "    pointcut %s(%s): %s;\n", p.Name, formals, oneLine(expr))
}

// advice writes advice ad, declared by owner, and its dispatcher method.
func (t *atTranslator) advice(owner *AtAspect, ad *AtAdvice) {
	member := atMember(ad.Method, ad.Desc)
	fmt.Fprintf(&t.w, "    // %s\n", where(owner, member, ad.Line))
	skip := ""
	if ad.Kind == AdviceAfterReturning {
		skip = ad.Returning
	} else if ad.Kind == AdviceAfterThrowing {
		skip = ad.Throwing
	}
	formals, _ := t.formals(ad.Params, skip)
	d := atDispatch{Name: fmt.Sprintf("a%d", t.advised), Class: t.name, Method: ad.Method, Desc: ad.Desc, Return: "void", Proceeds: -1}
	var args []string
	expr := t.restrict(ad.Expr)
	switch t.per.Kind {
	case PerThis, PerTarget:
		d.Key, d.Lookup, d.Roles = "Object", "PER.of(key)", "i"
		formals = joinFormals("Object "+atKey, formals)
		args = append(args, atKey)
		expr = fmt.Sprintf("(%s) && %s(%s)", expr, map[AtPerKind]string{PerThis: "this", PerTarget: "target"}[t.per.Kind], atKey)
	case PerCflow, PerCflowBelow:
		d.Lookup, d.Roles = "PER.top()", "i"
		expr = fmt.Sprintf("(%s) && %s(%s)", expr, map[AtPerKind]string{PerCflow: "cflow", PerCflowBelow: "cflowbelow"}[t.per.Kind], oneLine(t.per.Text))
	case PerTypeWithin:
		d.Key, d.Lookup, d.Roles = "weft.rt.JoinPointStaticPart", "PER.ofType(key)", "i"
		args = append(args, "thisJoinPointStaticPart")
		expr = fmt.Sprintf("(%s) && within(%s)", expr, oneLine(t.per.Text))
	}
	for _, q := range ad.Params {
		if q.Role == ParamProceedingJoinPoint {
			d.Proceeds = len(d.Params)
		}
		role, params, values := atArg(q)
		d.Roles += role
		d.Params = append(d.Params, params...)
		args = append(args, values...)
	}
	var spec string
	switch ad.Kind {
	case AdviceBefore:
		spec = fmt.Sprintf("before(%s)", formals)
	case AdviceAfter:
		spec = fmt.Sprintf("after(%s)", formals)
	case AdviceAfterReturning:
		spec = fmt.Sprintf("after(%s) returning", formals) + t.exitFormal(ad.Params, ad.Returning)
	case AdviceAfterThrowing:
		spec = fmt.Sprintf("after(%s) throwing", formals) + t.exitFormal(ad.Params, ad.Throwing)
	case AdviceAround:
		ret := ad.Desc[strings.IndexByte(ad.Desc, ')')+1:]
		d.Return = dispatchType(ret)
		if d.Proceeds < 0 {
			d.Proceeds = -2 // around advice that cannot proceed: unlinked, it returns the default value
		}
		spec = fmt.Sprintf("%s around(%s)", d.Return, formals)
	}
	t.methods = append(t.methods, d)
	t.advised++
	fmt.Fprintf(&t.w, "    %s: %s {\n        %s.%s(%s);\n    }\n", spec, expr,
		strings.ReplaceAll(t.dispatcher, "/", "."), d.Name, strings.Join(args, ", "))
}

// atKey is the formal that selects a perthis or pertarget aspect's
// instance: no Java parameter name has a $ from javac.
const atKey = "weft$key"

func joinFormals(a, b string) string {
	if b == "" {
		return a
	}
	return a + ", " + b
}

// perEntry writes, for an aspect with a per-clause, the advice that makes
// its instances, before its own advice (first in the aspect, it takes
// precedence): at the join points of perthis(P) or pertarget(P) the
// instance of the object, unless it has one; at those of percflow(P) and
// percflowbelow(P) a new instance for the control flow.
func (t *atTranslator) perEntry() {
	d := strings.ReplaceAll(t.dispatcher, "/", ".")
	switch t.per.Kind {
	case PerThis, PerTarget:
		fmt.Fprintf(&t.w, "    // %s(%s): the instance of each object\n", t.per.Kind, oneLine(t.per.Text))
		fmt.Fprintf(&t.w, "    before(Object %s): (%s) && %s(%s) {\n        %s.bind(%s);\n    }\n", atKey, t.restrict(t.per.Text),
			map[AtPerKind]string{PerThis: "this", PerTarget: "target"}[t.per.Kind], atKey, d, atKey)
	case PerCflow, PerCflowBelow:
		fmt.Fprintf(&t.w, "    // %s(%s): an instance for each control flow\n", t.per.Kind, oneLine(t.per.Text))
		fmt.Fprintf(&t.w, "    before(): %s {\n        %s.push();\n    }\n", t.restrict(t.per.Text), d)
	}
}

// perExit writes, for percflow and percflowbelow, the advice that ends
// the control flow's instance: last in the aspect, it runs after every
// other advice at the join point.
func (t *atTranslator) perExit() {
	if t.per.Kind == PerCflow || t.per.Kind == PerCflowBelow {
		fmt.Fprintf(&t.w, "    after(): %s {\n        %s.pop();\n    }\n", t.restrict(t.per.Text), strings.ReplaceAll(t.dispatcher, "/", "."))
	}
}

// exitFormal is the `(T x)` of returning or throwing, "" when name is "".
func (t *atTranslator) exitFormal(params []AtParam, name string) string {
	if name == "" {
		return ""
	}
	for _, q := range params {
		if q.Name == name {
			return fmt.Sprintf("(%s %s)", weftType(q.Desc), name)
		}
	}
	return ""
}

// restrictTypes adds the weaver's include and exclude patterns to a type
// pattern.
func (t *atTranslator) restrictTypes(types string) string { return t.restrictWith(types, false) }

// restrict adds the weaver's include and exclude patterns to expr.
func (t *atTranslator) restrict(expr string) string { return t.restrictWith(expr, true) }

// restrictWith adds the weaver's include and exclude patterns to text, a
// pointcut (within, the patterns as within(…)) or a type pattern.
func (t *atTranslator) restrictWith(text string, within bool) string {
	text = oneLine(text)
	if len(t.within.Include) == 0 && len(t.within.Exclude) == 0 {
		return text
	}
	out := "(" + text + ")"
	if len(t.within.Include) > 0 {
		var in []string
		for _, p := range t.within.Include {
			if within {
				p = "within(" + p + ")"
			}
			in = append(in, p)
		}
		out += " && (" + strings.Join(in, " || ") + ")"
	}
	for _, p := range t.within.Exclude {
		if within {
			out += " && !within(" + p + ")"
		} else {
			out += " && !(" + p + ")"
		}
	}
	return out
}

// declares writes @DeclarePrecedence, @DeclareWarning, @DeclareError and
// @DeclareParents, the aspect's and its superaspects'.
func (t *atTranslator) declares() {
	if t.a.Precedence != "" {
		fmt.Fprintf(&t.w, "    declare precedence: %s;\n", oneLine(t.a.Precedence))
	}
	for _, owner := range append([]*AtAspect{t.a}, t.supers...) {
		for _, p := range owner.Parents {
			impl := ""
			if p.DefaultImpl != "" {
				impl = " defaultImpl " + weftType("L"+p.DefaultImpl+";")
			}
			fmt.Fprintf(&t.w, "    // %s\n    declare parents: %s implements %s%s;\n", where(owner, "field "+p.Field, 0),
				t.restrictTypes(p.Types), weftType("L"+p.Interface+";"), impl)
		}
	}
	for _, m := range t.a.Messages {
		kind := "warning"
		if m.Error {
			kind = "error"
		}
		fmt.Fprintf(&t.w, "    // field %s\n    declare %s: %s : %s;\n", m.Field, kind, oneLine(m.Expr), javaString(m.Message))
	}
}

// formals writes the formals of params but the special ones and skip's,
// as .weft writes them, and returns their names too.
func (t *atTranslator) formals(params []AtParam, skip string) (string, []string) {
	var fs, names []string
	for _, q := range params {
		if q.Role.Special() || q.Role == ParamReturning || q.Role == ParamThrowing || (skip != "" && q.Name == skip) {
			continue
		}
		fs = append(fs, weftType(q.Desc)+" "+q.Name)
		names = append(names, q.Name)
	}
	return strings.Join(fs, ", "), names
}

// where names a member of owner for the .weft file's comments, a source
// comment (source.go): "source: file:line, member".
func where(owner *AtAspect, member string, line int) string {
	if line > 0 {
		return fmt.Sprintf("source: %s:%d, %s", sourcePath(owner), line, member)
	}
	return "source: " + sourcePath(owner) + ", " + member
}

// javaSource is the dispatcher class's Java source.
func (t *atTranslator) javaSource() []byte {
	var b strings.Builder
	pkg, simple := "", t.dispatcher
	if i := strings.LastIndexByte(t.dispatcher, '/'); i >= 0 {
		pkg, simple = strings.ReplaceAll(t.dispatcher[:i], "/", "."), t.dispatcher[i+1:]
	}
	fmt.Fprintf(&b, "package %s;\n\n", pkg)
	b.WriteString("import java.lang.invoke.MethodHandle;\nimport java.lang.invoke.MethodHandles;\nimport java.lang.invoke.MethodType;\nimport java.lang.invoke.MutableCallSite;\n\n")
	fmt.Fprintf(&b, "/** Calls the advice of the @AspectJ aspect %s (generated by weft). */\n", t.name)
	fmt.Fprintf(&b, "public final class %s {\n    private %s() {}\n\n", simple, simple)
	if t.per.Kind != PerSingleton {
		fmt.Fprintf(&b, "    /** The instances of the %s aspect. */\n    private static final weft.at.Per PER = new weft.at.Per(%q);\n\n", t.per.Kind, t.name)
	}
	for i, d := range t.methods {
		// The site takes the instance first unless it binds it.
		types := []string{d.Return + ".class"}
		if d.Lookup != "" {
			types = append(types, "Object.class")
		}
		for _, p := range d.Params {
			types = append(types, p+".class")
		}
		fmt.Fprintf(&b, "    private static final MutableCallSite S%d = new MutableCallSite(unlinked(%q, MethodType.methodType(%s)));\n",
			i, d.Name+"$unlinked", strings.Join(types, ", "))
		fmt.Fprintf(&b, "    private static final MethodHandle H%d = S%d.dynamicInvoker();\n", i, i)
	}
	b.WriteString("\n    static {\n")
	if t.a.Generated {
		fmt.Fprintf(&b, "        weft.at.Link.concrete(%q, %q);\n", t.name, binaryName(t.a.Super))
	}
	for i, d := range t.methods {
		fmt.Fprintf(&b, "        weft.at.Link.link(S%d, %q, %q, %q, %q, %v);\n", i, d.Class, d.Method, d.Desc, d.Roles, d.Static)
	}
	b.WriteString("    }\n\n")
	b.WriteString("    private static MethodHandle unlinked(String name, MethodType type) {\n")
	b.WriteString("        try {\n            return MethodHandles.lookup().findStatic(" + simple + ".class, name, type);\n")
	b.WriteString("        } catch (ReflectiveOperationException e) {\n            throw new LinkageError(name, e);\n        }\n    }\n")
	switch t.per.Kind {
	case PerThis, PerTarget:
		b.WriteString("\n    public static void bind(Object key) {\n        PER.bind(key);\n    }\n")
	case PerCflow, PerCflowBelow:
		b.WriteString("\n    public static void push() {\n        PER.push();\n    }\n")
		b.WriteString("\n    public static void pop() {\n        PER.pop();\n    }\n")
	}
	for i, d := range t.methods {
		var ps, as []string
		for j, p := range d.Params {
			ps = append(ps, fmt.Sprintf("%s p%d", p, j))
			as = append(as, fmt.Sprintf("p%d", j))
		}
		// What the site does unlinked, or with no instance: nothing, or
		// around advice proceeding to the join point.
		none := ""
		switch {
		case d.Proceeds >= 0 && d.Return == "Object":
			none = fmt.Sprintf("return p%d.proceed();", d.Proceeds)
		case d.Proceeds >= 0 && d.Return != "void":
			none = fmt.Sprintf("return (%s) p%d.proceed();", boxed(d.Return), d.Proceeds)
		case d.Proceeds >= 0:
			none = fmt.Sprintf("p%d.proceed();", d.Proceeds)
		case d.Return == "boolean":
			none = "return false;"
		case d.Return == "Object":
			none = "return null;"
		case d.Return != "void":
			none = fmt.Sprintf("return (%s) 0;", d.Return)
		default:
			none = "return;"
		}
		params, siteParams, siteArgs := ps, ps, as
		lookup := ""
		if d.Lookup != "" {
			siteParams = append([]string{"Object instance"}, ps...)
			siteArgs = append([]string{"instance"}, as...)
			lookup = fmt.Sprintf("Object instance = %s;\n        if (instance == null) {\n            %s\n        }\n        ", d.Lookup, none)
		}
		if d.Key != "" {
			params = append([]string{d.Key + " key"}, ps...)
		}
		call := fmt.Sprintf("H%d.invokeExact(%s)", i, strings.Join(siteArgs, ", "))
		if d.Return != "void" {
			call = fmt.Sprintf("return (%s) %s", d.Return, call)
		}
		fmt.Fprintf(&b, "\n    public static %s %s(%s) throws Throwable {\n        %s%s;\n    }\n", d.Return, d.Name, strings.Join(params, ", "), lookup, call)
		fmt.Fprintf(&b, "\n    private static %s %s$unlinked(%s) throws Throwable {\n        %s\n    }\n", d.Return, d.Name, strings.Join(siteParams, ", "), none)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// atArg is what one parameter of an advice or if() method takes: its
// role's letter (weft.at.Link's), the dispatcher's parameter types for it
// and the values the .weft call passes.
func atArg(q AtParam) (role string, params, values []string) {
	switch q.Role {
	case ParamJoinPoint:
		return "J", []string{"weft.rt.JoinPoint"}, []string{"thisJoinPoint"}
	case ParamProceedingJoinPoint:
		return "P", []string{"weft.rt.Proceed", "weft.rt.JoinPoint"}, []string{"proceed", "thisJoinPoint"}
	case ParamStaticPart:
		return "S", []string{"weft.rt.JoinPointStaticPart"}, []string{"thisJoinPointStaticPart"}
	case ParamEnclosingStaticPart:
		return "E", []string{"weft.rt.JoinPointStaticPart"}, []string{"thisEnclosingJoinPointStaticPart"}
	}
	return "f", []string{dispatchType(q.Desc)}, []string{q.Name}
}

// dispatchType is the dispatcher's Java type for a value of descriptor
// desc: a primitive (or void) as itself, any reference as Object.
func dispatchType(desc string) string {
	if t, err := classfile.ParseType(desc); err == nil && t.IsPrimitive() {
		return t.JavaName()
	}
	if desc == "V" {
		return "void"
	}
	return "Object"
}

// weftType writes descriptor desc as a .weft type: java.lang's by simple
// name is not needed, the qualified name is always right; a nested class
// as Outer.Inner.
func weftType(desc string) string {
	t, err := classfile.ParseType(desc)
	if err != nil {
		return "Object"
	}
	return strings.ReplaceAll(t.JavaName(), "$", ".")
}

// boxed is the wrapper class of a primitive type's Java name.
func boxed(prim string) string {
	switch prim {
	case "int":
		return "Integer"
	case "char":
		return "Character"
	}
	return strings.ToUpper(prim[:1]) + prim[1:]
}

// atMember names a method for messages: name(simple parameter types).
func atMember(name, desc string) string {
	return "method " + name + "(" + simpleParams(desc) + ")"
}

// oneLine joins a multi-line annotation string into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// javaString quotes s as a Java (and .weft) string literal.
func javaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
