package pointcut

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// Options configure ResolveWith.
type Options struct {
	// AdviceCP is the class path (directories and jars) holding the
	// advice classes. When empty, advice methods are not checked and their
	// descriptors are derived from the values the advice passes.
	AdviceCP string
	// AdviceSources, if set, are AdviceCP's entries already opened, in
	// its order: resolution reads them (and leaves them open) instead of
	// opening AdviceCP again.
	AdviceSources []classpath.Source
	// Hierarchy, if set, answers subtype questions the advice class path
	// cannot (JDK classes) when checking advice parameter types. When nil
	// and AdviceCP is set, the modules image of the JDK at JavaHome is
	// used, if there is one.
	Hierarchy classfile.Hierarchy
	// JavaHome is the JDK whose modules image resolves JDK types when
	// Hierarchy is nil, and where hints look for the package of a type
	// written without one. "" means classpath.DefaultJavaHome().
	JavaHome string
}

// Program is a set of resolved aspects: it matches shadows (it is a
// Matcher) and lists the bound advice.
type Program struct {
	Files []*File
	// Warnings are problems that do not stop weaving (an unqualified type
	// name that can only match the unnamed package, an advice parameter
	// type that could not be checked).
	Warnings ErrorList
	// Checked reports whether advice methods were checked against their
	// class files (Options.AdviceCP was set).
	Checked   bool
	Pointcuts []PointcutInfo
	advice    []*boundAdvice // declaration order
	order     []*boundAdvice // precedence order
	types     hierarchyCache // for signature walks (signatures.go)
	declares  []*declareMsg  // declare warning and error, declaration order
	parents   []*parentsDecl // declare parents, declaration order
	conflicts []conflict     // aspects declare precedence orders both ways
	declInfo  []DeclareInfo
	cflows    []*cflowDef // the cflows of advice, in the order compiled
}

// PointcutInfo describes a named pointcut, for summaries.
type PointcutInfo struct {
	Pos     Position
	Aspect  string
	Name    string
	Formals []string // "Type name"
	Expr    string   // as written
}

// AdviceInfo describes a piece of advice, for summaries.
type AdviceInfo struct {
	Pos      Position
	Advice   *advice.Advice
	Formals  []string // "Type name", the returning/throwing formal last
	Pointcut string   // as written
}

// boundAdvice is an advice with its compiled pointcut.
type boundAdvice struct {
	info     AdviceInfo
	pc       node
	nformals int // formals, the returning/throwing one included
	args     []argSpec
	params   []string // advice method parameter descriptors
	exit     string   // returning/throwing formal type, "" if none
	usesDims bool
	// usesCount: the advice passes bytecodes or preciseBytecodes, which
	// exist only at an execution's exit.
	usesCount bool
	// usesEach: the advice passes eachArg, and so applies only where the
	// join point has arguments.
	usesEach bool
	kinds    advice.KindSet // the shadow kinds pc can match (adviceKinds)
}

// argSpec is one argument of the advice call: a formal's value or a
// context value.
type argSpec struct {
	kind   advice.ValueKind
	formal int // for formals; -1 for context values
}

// Advice returns the bound advice in declaration order.
func (p *Program) Advice() []*advice.Advice {
	out := make([]*advice.Advice, len(p.advice))
	for i, b := range p.advice {
		out[i] = b.info.Advice
	}
	return out
}

// AdviceInfo returns summaries of the advice in declaration order.
func (p *Program) AdviceInfo() []AdviceInfo {
	out := make([]AdviceInfo, len(p.advice))
	for i, b := range p.advice {
		out[i] = b.info
	}
	return out
}

// Resolve checks the meaning of parsed files (names, types, bindings) and
// binds each advice to its static method in the classes on adviceCP. All
// errors are reported, as an ErrorList.
func Resolve(files []*File, adviceCP string) (*Program, error) {
	return ResolveWith(files, Options{AdviceCP: adviceCP})
}

// ResolveWith is Resolve with options.
func ResolveWith(files []*File, opts Options) (*Program, error) {
	c := &compiler{srcs: map[string][]byte{}, seen: map[string]bool{},
		aspects: map[string]*aspectScope{}, aspectOf: map[*PointcutDecl]*aspectScope{},
		classes: newClasses(opts.AdviceCP, opts.AdviceSources, opts.JavaHome), given: opts.Hierarchy}
	defer c.classes.close()
	prog := &Program{Files: files, Checked: opts.AdviceCP != ""}
	var scopes []*aspectScope
	for _, f := range files {
		c.srcs[f.Name] = f.Src
		for _, a := range f.Aspects {
			if isWild(a.Name) {
				c.errorf(a.Pos, "", "bad aspect name %s", a.Name)
			}
			if prev := c.aspects[a.Name]; prev != nil {
				c.errorf(a.Pos, "", "aspect %s is declared twice (first at %s)", a.Name, prev.a.Pos)
				continue
			}
			sc := &aspectScope{a: a, file: f, pointcuts: map[string]*PointcutDecl{}, formals: map[*PointcutDecl][]string{}}
			c.aspects[a.Name] = sc
			scopes = append(scopes, sc)
			for _, pd := range a.Pointcuts {
				if isWild(pd.Name) || reserved[pd.Name] || isDesignator(pd.Name) {
					c.errorf(pd.Pos, "", "a pointcut cannot be named %s", pd.Name)
				}
				if prev := sc.pointcuts[pd.Name]; prev != nil {
					c.errorf(pd.Pos, "", "pointcut %s is declared twice in aspect %s (first at %s)", pd.Name, a.Name, prev.Pos)
					continue
				}
				sc.pointcuts[pd.Name] = pd
				c.aspectOf[pd] = sc
			}
		}
	}
	for _, sc := range scopes {
		for _, pd := range sc.a.Pointcuts {
			sc.formals[pd] = c.formalDescs(pd.Formals)
		}
	}
	// Each named pointcut must bind its formals on its own.
	for _, sc := range scopes {
		for _, pd := range sc.a.Pointcuts {
			if c.aspectOf[pd] != sc {
				continue
			}
			ev := newEnv(sc, pd.Formals, sc.formals[pd], "")
			ev.stack = []*PointcutDecl{pd}
			c.expr(pd.Expr, ev, false, false)
			c.checkBound(pd.Formals, ev, -1, "pointcut "+pd.Name)
			prog.Pointcuts = append(prog.Pointcuts, PointcutInfo{Pos: pd.Pos, Aspect: sc.a.Name, Name: pd.Name,
				Formals: formalTexts(pd.Formals), Expr: c.exprText(pd.Expr)})
		}
	}
	var h classfile.Hierarchy // nil: advice methods are not checked
	if opts.AdviceCP != "" {
		h = c.classes.hierarchy(opts.Hierarchy)
	}
	orders := map[*aspectScope][]*boundAdvice{}
	c.cflows = &cflowSet{byKey: map[int32]*cflowDef{}}
	c.ifHier = h
	for _, sc := range scopes {
		var all []*boundAdvice
		for i, ad := range sc.a.Advice {
			b := c.advice(sc, ad, i, h)
			if b == nil {
				continue
			}
			b.kinds = adviceKinds(b)
			c.checkHandlerAdvice(b, ad)
			prog.advice = append(prog.advice, b)
			all = append(all, b)
		}
		// AspectJ: within an aspect, earlier before advice and later
		// after advice take precedence (around.go for around advice).
		orders[sc] = aspectOrder(all)
	}
	prog.cflows = c.cflows.list
	finishCflows(prog.cflows)
	c.cflows = nil
	var precs []*precDecl
	for _, sc := range scopes {
		for _, dd := range sc.a.Declares {
			info := DeclareInfo{Pos: dd.Pos, Aspect: sc.a.Name}
			if dp := dd.Precedence; dp != nil {
				precs = append(precs, c.precedence(sc, dd.Pos, dp, scopes))
				info.Kind, info.Text = "precedence", c.textFrom(dp.Types[0].Pos)
			} else if dp := dd.Parents; dp != nil {
				prog.parents = append(prog.parents, c.parents(sc, dd.Pos, dp)...)
				info.Kind, info.Text = "parents", c.textFrom(dp.Types.Pos)
			} else {
				dm := dd.Message
				if d := c.declareMessage(sc, dd.Pos, dm); d != nil {
					prog.declares = append(prog.declares, d)
				}
				info.Kind, info.Text, info.Message = dm.Kind, c.exprText(dm.Expr), dm.Message.Value
			}
			prog.declInfo = append(prog.declInfo, info)
		}
	}
	// Aspects in precedence order: the order given, as declare
	// precedence statements rearrange it.
	ordered, conflicts := c.orderAspects(scopes, precs)
	prog.conflicts = conflicts
	for _, sc := range ordered {
		prog.order = append(prog.order, orders[sc]...)
	}
	c.warns.Sort()
	prog.Warnings = c.warns
	return prog, c.errs.Err()
}

func isDesignator(name string) bool {
	for _, d := range Designators {
		if d == name {
			return true
		}
	}
	return false
}

func newEnv(sc *aspectScope, fs []*Formal, descs []string, exitName string) *env {
	n := len(fs)
	ev := &env{scope: sc, names: map[string]target{}, bound: make([]bool, n+1),
		boundAt: make([]Position, n+1), sites: make([]advice.Value, n+1)}
	for i, f := range fs {
		ev.names[f.Name] = target{formal: i, types: []string{descs[i]}}
		ev.formals = append(ev.formals, f.Name)
	}
	ev.formals = append(ev.formals, exitName)
	return ev
}

func formalTexts(fs []*Formal) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = strings.Join(f.Type.Parts, ".") + strings.Repeat("[]", len(f.Type.Dims)) + " " + f.Name
	}
	return out
}

// exprText returns a pointcut expression as written, on one line.
func (c *compiler) exprText(e *Expr) string { return c.textFrom(e.Pos) }

// textFrom returns the source text from pos up to the `;`, `{` or `:` that
// ends it (outside parentheses), on one line.
func (c *compiler) textFrom(pos Position) string {
	src := c.srcs[pos.Filename]
	start := pos.Offset
	depth, end := 0, start
	for end < len(src) {
		ch := src[end]
		if depth == 0 && (ch == ';' || ch == '{' || ch == ':') {
			break
		}
		if ch == '(' {
			depth++
		} else if ch == ')' {
			depth--
		}
		end++
	}
	if start < 0 || start > end {
		return ""
	}
	return strings.Join(strings.Fields(string(src[start:end])), " ")
}

// advice resolves one advice declaration. h checks the advice method's
// parameter types; it is nil when advice methods are not checked (no
// advice class path).
func (c *compiler) advice(sc *aspectScope, ad *AdviceDecl, order int, h classfile.Hierarchy) *boundAdvice {
	nerr := len(c.errs)
	descs := c.formalDescs(ad.Formals)
	n := len(ad.Formals)
	kind := advice.Before
	exitName, exitDesc := "", ""
	switch ad.Kind {
	case "after":
		kind = advice.After
	case "around":
		kind = advice.Around
	}
	if ad.Exit != nil {
		if ad.Kind == "before" {
			c.errorf(ad.Exit.Pos, "use after() "+ad.Exit.Kind, "before advice cannot have a %s clause", ad.Exit.Kind)
		}
		kind = advice.AfterReturning
		if ad.Exit.Kind == "throwing" {
			kind = advice.AfterThrowing
		}
		if f := ad.Exit.Formal; f != nil {
			exitName = f.Name
			d := c.formalDescs([]*Formal{f})[0]
			for _, g := range ad.Formals {
				if g.Name == f.Name {
					c.errorf(f.Pos, "the "+ad.Exit.Kind+" clause binds its own formal: remove "+f.Name+" from the advice's parameters",
						"formal %s is bound twice", f.Name)
				}
			}
			if t := classfile.Type(d); kind == advice.AfterThrowing && (t.IsPrimitive() || t == classfile.Void) {
				c.errorf(f.Type.Pos, "", "a thrown value is a Throwable, not %s", t.JavaName())
			}
			exitDesc = d
		}
	}
	ev := newEnv(sc, ad.Formals, descs, exitName)
	if exitName != "" {
		ev.names[exitName] = target{formal: n, types: []string{exitDesc}}
		ev.bound[n] = true
		ev.boundAt[n] = ad.Exit.Formal.Pos
	}
	pc := c.expr(ad.Expr, ev, false, false)
	c.checkBound(ad.Formals, ev, -1, "pointcut")

	b := &boundAdvice{pc: pc, nformals: n + 1, exit: exitDesc}
	b.info = AdviceInfo{Pos: ad.Pos, Pointcut: c.exprText(ad.Expr), Formals: formalTexts(ad.Formals)}
	if ad.Exit != nil && ad.Exit.Formal != nil {
		b.info.Formals = append(b.info.Formals, formalTexts([]*Formal{ad.Exit.Formal})...)
	}
	adv := &advice.Advice{Kind: kind, Aspect: sc.a.Name, File: sc.file.Name, Line: ad.Pos.Line, Order: order}
	if file, line, ok := sourceComment(sc.file.Src, ad.Pos.Line); ok {
		adv.File, adv.Line = file, line
	}
	switch kind {
	case advice.AfterReturning:
		adv.ReturnType = exitDesc
	case advice.AfterThrowing:
		adv.ThrowType = exitDesc
	case advice.Around:
		adv.AroundType = c.aroundType(ad.Returns)
	}
	b.info.Advice = adv

	// The body: Class.method(args).
	call := ad.Body
	var valueDescs []string
	for _, a := range call.Args {
		if i, ok := ev.names[a.Name]; ok {
			spec := argSpec{formal: i.formal}
			site := ev.sites[i.formal]
			if i.formal == n {
				site = advice.Value{Kind: advice.Returned}
				if kind == advice.AfterThrowing {
					site.Kind = advice.Thrown
				}
			}
			spec.kind = site.Kind
			b.args = append(b.args, spec)
			adv.Args = append(adv.Args, site)
			valueDescs = append(valueDescs, i.types[0])
			continue
		}
		if k, ok := contextValues[a.Name]; ok {
			if k == advice.Proceed && kind != advice.Around {
				c.errorf(a.Pos, "only around advice has the rest of the join point to proceed to: write Object around(...)",
					"proceed is only available in around advice")
			}
			if k == advice.EachArg && (kind == advice.Around || b.usesEach) {
				c.errorf(a.Pos, "pass eachArg once, to before or after advice: the advice is called once per argument",
					"eachArg is passed once, and not to around advice")
			}
			b.usesEach = b.usesEach || k == advice.EachArg
			b.args = append(b.args, argSpec{kind: k, formal: -1})
			adv.Args = append(adv.Args, advice.Value{Kind: k})
			valueDescs = append(valueDescs, contextDesc[k])
			b.usesDims = b.usesDims || k == advice.ArrayDims
			if k == advice.Bytecodes || k == advice.PreciseBytecodes {
				b.usesCount = true
				if kind == advice.Before || kind == advice.Around {
					c.errorf(a.Pos, "pass it to after advice at an execution: after(): execution(* *(..)) { C.m("+a.Name+"); }",
						"%s is the count of instructions an execution ran, known at its exit: not in %s advice", a.Name, kind)
				}
			}
			continue
		}
		var names []string
		for _, f := range ev.formals {
			if f != "" {
				names = append(names, f)
			}
		}
		names = append(names, "thisJoinPoint", "thisJoinPointStaticPart", "thisEnclosingJoinPointStaticPart", "joinPointId", "arrayDims")
		switch kind {
		case advice.Around:
			names = append(names, "proceed")
		case advice.Before:
			names = append(names, "eachArg")
		default:
			names = append(names, "eachArg", "bytecodes", "preciseBytecodes")
		}
		c.errorf(a.Pos, "the advice call passes formals or context values: "+strings.Join(names, ", "),
			"unknown name %s in the advice call", a.Name)
	}
	if len(call.Name) < 2 {
		c.errorf(call.Pos, "write pkg.Class.method(...)", "the advice body must call a static method of a class")
		return nil
	}
	if last := call.Name[len(call.Name)-1]; last == "proceed" {
		c.errorf(call.Pos, "the body calls a method of your advice class; pass it proceed and call proceed.proceed() there: pkg.Advice.m(proceed, ...)",
			"the advice body cannot call proceed itself")
		return nil
	}
	owner, err := typeNameDesc(call.Name[:len(call.Name)-1], 0)
	if cls := call.Name[0]; len(call.Name) == 2 && err != nil && !isWild(cls) && !isKeywordType(cls) {
		owner, err = "L"+cls+";", nil // a class of the unnamed package
	}
	if err != nil || !strings.HasPrefix(owner, "L") {
		c.errorf(call.Pos, "write the advice class's fully qualified name, e.g. com.example.Tracker.onCall(...)",
			"advice class %s: not a class name", strings.Join(call.Name[:len(call.Name)-1], "."))
		return nil
	}
	if len(c.errs) > nerr {
		return nil
	}
	mname := call.Name[len(call.Name)-1]
	ownerName := classfile.Type(owner).InternalName()
	ret := "V"
	if kind == advice.Around {
		ret = adv.AroundType
	}
	adv.Method = advice.Method{Owner: ownerName, Name: mname, Desc: "(" + strings.Join(valueDescs, "") + ")" + ret}
	b.params = valueDescs
	if h != nil {
		m, params, ok := c.bindMethod(h, call, ownerName, mname, valueDescs, ret, ad, adv)
		if !ok {
			return nil
		}
		adv.Method, b.params = m, params
		if b.usesEach {
			adv.Overloads = c.overloads(adv.Method, slices.Index(adv.Args, advice.Value{Kind: advice.EachArg}))
		}
	}
	for i := range adv.Args {
		adv.Args[i].Desc = b.params[i]
	}
	return b
}

// bindMethod finds the static advice method the call names whose
// parameters accept the values passed, and says in adv whether it is leaf.
func (c *compiler) bindMethod(h classfile.Hierarchy, call *Call, owner, name string, values []string, ret string, ad *AdviceDecl, adv *advice.Advice) (advice.Method, []string, bool) {
	cl, owner, err := c.classes.nested(owner)
	if err != nil {
		c.errorf(call.Pos, "put the compiled advice class on --advice-cp", "advice at line %d: %v", ad.Pos.Line, err)
		return advice.Method{}, nil, false
	}
	want := fmt.Sprintf("public static %s %s(%s)", aroundReturnName(ret), name, javaNames(values))
	var found []string
	for _, m := range cl.Methods {
		if cl.MemberName(m) != name {
			continue
		}
		desc := cl.MemberDesc(m)
		mt, err := classfile.ParseMethodDesc(desc)
		params := make([]string, len(mt.Params))
		for i, p := range mt.Params {
			params[i] = string(p)
		}
		var why []string
		switch {
		case err != nil:
			why = append(why, "bad descriptor")
		case len(params) != len(values):
			why = append(why, fmt.Sprintf("takes %d parameters, the call passes %d", len(params), len(values)))
		default:
			for i, v := range values {
				if ok, sure := passable(v, params[i], h); !ok {
					if sure {
						why = append(why, fmt.Sprintf("parameter %d is %s, cannot take %s", i+1, mt.Params[i].JavaName(), classfile.Type(v).JavaName()))
					} else {
						c.warnf(call.Args[i].Pos, "put the class files on --advice-cp to check",
							"cannot check that %s is assignable to parameter %d (%s) of %s.%s",
							classfile.Type(v).JavaName(), i+1, mt.Params[i].JavaName(), strings.ReplaceAll(owner, "/", "."), name)
					}
				}
			}
		}
		if err == nil && string(mt.Return) != ret {
			why = append(why, "returns "+mt.Return.JavaName()+", not "+aroundReturnName(ret))
		}
		why = append(why, notCallable(cl, m, owner)...)
		if len(why) == 0 {
			adv.Leaf, adv.LeafReach = c.classes.leaf(cl, m, adv.Kind == advice.Around)
			return advice.Method{Owner: owner, Name: name, Desc: desc}, params, true
		}
		found = append(found, desc+" ("+strings.Join(why, ", ")+")")
	}
	hint := fitHint(name, owner, found)
	c.errorf(call.Pos, hint, "advice at line %d: no advice method fits: want %s in %s",
		ad.Pos.Line, want, strings.ReplaceAll(owner, "/", "."))
	return advice.Method{}, nil, false
}

// overloads returns the methods of m's class and name that take what m
// takes but another type than m's Object at parameter each: eachArg's
// overloads (advice.Advice.Overloads).
func (c *compiler) overloads(m advice.Method, each int) []advice.Method {
	cl, err := c.classes.class(m.Owner)
	mt, err2 := classfile.ParseMethodDesc(m.Desc)
	if err != nil || err2 != nil {
		return nil
	}
	var out []advice.Method
	for _, o := range cl.Methods {
		desc := cl.MemberDesc(o)
		ot, err := classfile.ParseMethodDesc(desc)
		if cl.MemberName(o) != m.Name || desc == m.Desc || err != nil || ot.Return != mt.Return ||
			len(ot.Params) != len(mt.Params) || len(notCallable(cl, o, m.Owner)) > 0 {
			continue
		}
		same := true
		for i, p := range ot.Params {
			if i != each && p != mt.Params[i] {
				same = false
			}
		}
		if same {
			out = append(out, advice.Method{Owner: m.Owner, Name: m.Name, Desc: desc})
		}
	}
	return out
}

func javaNames(descs []string) string {
	names := make([]string, len(descs))
	for i, d := range descs {
		names[i] = classfile.Type(d).JavaName()
	}
	return strings.Join(names, ", ")
}

// passable reports whether a value of type v can be passed for a parameter
// of type p: the same type, a supertype, or a primitive's box and its
// supertypes. sure is false when missing classes left the answer open.
func passable(v, p string, h classfile.Hierarchy) (ok, sure bool) {
	if v == p || p == "Ljava/lang/Object;" {
		return true, true
	}
	vt, pt := classfile.Type(v), classfile.Type(p)
	if vt.IsPrimitive() {
		if pt.IsPrimitive() {
			return false, true
		}
		switch pt {
		case vt.Boxed(), "Ljava/io/Serializable;", "Ljava/lang/Comparable;":
			return true, true
		case "Ljava/lang/Number;":
			return vt != classfile.Boolean && vt != classfile.Char, true
		}
		return false, true
	}
	if pt.IsPrimitive() || v == StaticPartDesc || v == JoinPointDesc || v == ProceedDesc {
		return false, true
	}
	if assignable(v, p, h) {
		return true, true
	}
	e := vt.Element()
	if e.IsPrimitive() || vt.Dims() > 0 && pt.Dims() > 0 {
		return false, true
	}
	found, complete := supers(h, e.InternalName(), func(string) bool { return false })
	_ = found
	if _, err := h.Lookup(e.InternalName()); err != nil {
		complete = false
	}
	return false, complete
}

// hasArgs reports whether join point s has arguments (advice.Shadow.ArgTypes),
// without parsing its descriptor.
func hasArgs(s *advice.Shadow) bool {
	switch s.Kind {
	case advice.FieldGet:
		return false
	case advice.FieldSet:
		return true
	}
	return !strings.HasPrefix(s.Member.Desc, "()")
}

// Match implements Matcher: the advice applying at s, in precedence order
// (highest first: run before advice in this order, after advice in
// reverse).
func (p *Program) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	var out []advice.Applied
	var m *matchCtx // one per call, made when some advice can match s's kind
	var first, last []advice.Applied
	if len(p.cflows) > 0 {
		first, last = p.matchCflows(s, h, &m)
	}
	for _, b := range p.order {
		if !b.kinds.Has(s.Kind) {
			continue // e.g. execution(...) at a call; arrayDims exists only at array construction
		}
		if b.usesEach && !hasArgs(s) {
			continue // eachArg: called once per argument, here never
		}
		if m == nil {
			m = &matchCtx{s: s, h: p.types.wrap(h)}
		}
		if b.nformals <= len(m.bindsBuf) {
			m.binds = m.bindsBuf[:b.nformals]
			clear(m.binds)
		} else {
			m.binds = make([]advice.Value, b.nformals)
		}
		m.ifs = m.ifs[:0]
		r := b.pc.eval(m)
		if r.v == advice.Never {
			continue
		}
		m.fixIfs()
		adv := b.info.Advice
		check := ""
		if b.exit != "" {
			var v advice.Verdict
			if adv.Kind == advice.AfterThrowing {
				v = instanceTest("Ljava/lang/Throwable;", b.exit, h)
			} else if s.Kind == advice.FieldSet {
				// ajc: a field set has no value to return, so
				// returning(T x) never matches it (unlike a void method).
				v = advice.Never
			} else if rt := s.ReturnedDesc(); rt == "V" {
				// AspectJ: returning(Object o) at a void join point binds null.
				v = advice.Never
				if b.exit == "Ljava/lang/Object;" {
					v = advice.Always
				}
			} else {
				v = instanceTest(rt, b.exit, h)
			}
			if v == advice.Never {
				continue
			}
			if v == advice.Maybe {
				check = classfile.Type(b.exit).InternalName()
			}
		}
		args := make([]advice.Value, len(b.args))
		for i, a := range b.args {
			v := advice.Value{Kind: a.kind}
			if a.formal >= 0 {
				v = m.binds[a.formal]
				if a.formal == b.nformals-1 {
					v = advice.Value{Kind: a.kind}
				}
			}
			v.Desc = b.params[i]
			args[i] = v
		}
		out = append(out, advice.Applied{Advice: adv, Verdict: r.v, Residue: r.r, Args: args, ExitCheck: check})
	}
	out = orderAround(out)
	if first != nil || last != nil {
		out = append(append(first, out...), last...)
	}
	return out
}

var _ advice.Matcher = (*Program)(nil)

// notCallable says why woven code cannot call method m of class cl (named
// owner): what is not public or not static.
func notCallable(cl *classfile.Class, m *classfile.Member, owner string) []string {
	var why []string
	if m.Access&classfile.AccStatic == 0 {
		why = append(why, "not static")
	}
	if m.Access&classfile.AccPublic == 0 {
		why = append(why, "not public")
	}
	if cl.Access&classfile.AccPublic == 0 {
		why = append(why, "class "+strings.ReplaceAll(owner, "/", ".")+" is not public")
	}
	return why
}

// fitHint lists the methods named name of owner that were found and why
// none fits ("desc (reasons)"), or says there is none.
func fitHint(name, owner string, found []string) string {
	if len(found) == 0 {
		return "no method named " + name + " in " + strings.ReplaceAll(owner, "/", ".")
	}
	return "found " + name + strings.Join(found, "; "+name)
}
