package pointcut

import (
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// compiler turns syntax into matchers, reporting semantic errors (and
// warnings) with their positions.
type compiler struct {
	srcs     map[string][]byte
	errs     ErrorList
	warns    ErrorList
	seen     map[string]bool // "pos msg" of reported errors: a named pointcut's body is compiled once per use
	aspects  map[string]*aspectScope
	aspectOf map[*PointcutDecl]*aspectScope
	classes  *classes // the advice class path and the JDK, for binding advice and for hints

	given classfile.Hierarchy // Options.Hierarchy: more classes, for annotation types
	// cflows collects the cflows of advice (nil while compiling anything
	// else); ifHier checks if() methods (nil: not checked).
	cflows *cflowSet
	ifHier classfile.Hierarchy
}

// aspectScope is an aspect's named pointcuts.
type aspectScope struct {
	a         *Aspect
	file      *File
	pointcuts map[string]*PointcutDecl
	formals   map[*PointcutDecl][]string // formal descriptors
}

func (c *compiler) report(list *ErrorList, pos Position, hint, format string, args ...any) {
	if note := sourceNote(c.srcs[pos.Filename], pos.Line); note != "" {
		if hint != "" {
			hint += "; "
		}
		hint += "this declaration is the translation of " + note
	}
	s := &errorSink{src: c.srcs[pos.Filename]}
	e := s.add(pos, hint, format, args...)
	key := pos.String() + " " + e.Msg
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	*list = append(*list, e)
}

func (c *compiler) errorf(pos Position, hint, format string, args ...any) {
	c.report(&c.errs, pos, hint, format, args...)
}

func (c *compiler) warnf(pos Position, hint, format string, args ...any) {
	c.report(&c.warns, pos, hint, format, args...)
}

// qualifyHint returns advice for an unqualified type name: what to do,
// followed by the classes so named on the advice class path and in the
// JDK, if any.
func (c *compiler) qualifyHint(what, simple string) string {
	if names := c.classes.qualified(simple); names != "" {
		return what + ": " + names
	}
	return what
}

// --- type patterns ---

func (c *compiler) typePattern(tp *TypePattern, varargsOK bool) typePat {
	var or typePat
	for _, a := range tp.Or {
		var and typePat
		for _, u := range a.And {
			p := c.typeUnary(u, varargsOK && len(tp.Or) == 1 && len(a.And) == 1)
			if and == nil {
				and = p
			} else {
				and = andType{and, p}
			}
		}
		if or == nil {
			or = and
		} else {
			or = orType{or, and}
		}
	}
	return or
}

func (c *compiler) typeUnary(u *TypeUnary, varargsOK bool) typePat {
	if u.Annot != nil {
		t := *u
		t.Annot = nil
		return annotType{a: c.annotPattern(u.Annot), t: c.typeUnary(&t, varargsOK)}
	}
	switch {
	case u.Not != nil:
		return notType{c.typeUnary(u.Not, false)}
	case u.Paren != nil:
		return c.typePattern(u.Paren, false)
	}
	return c.simpleType(u.Simple, varargsOK)
}

func (c *compiler) simpleType(st *SimpleType, varargsOK bool) typePat {
	if st.Member != "" {
		c.errorf(st.Pos, "", "unexpected `.%s` after a type pattern", st.Member)
	}
	if st.Varargs && !varargsOK {
		c.errorf(st.Pos, "", "`...` is allowed only on the last parameter of a signature's parameter list")
	}
	for _, r := range st.Rest {
		if r.Name == "new" {
			c.errorf(st.Pos, "", "`new` names a constructor, not a type")
		}
	}
	if len(st.Rest) == 0 && !isWild(st.Head) {
		if st.Head == "new" {
			c.errorf(st.Pos, "", "`new` names a constructor, not a type")
		} else if !isKeywordType(st.Head) && !javaLang[st.Head] {
			c.warnf(st.Pos, c.qualifyHint("write the fully qualified name", st.Head),
				"type %s is not qualified and not in java.lang: it matches only a class of the unnamed package", st.Head)
		}
	}
	return newNamePat(st)
}

// --- signatures ---

func (c *compiler) signature(mp *MethodPattern, text string) *sigPat {
	s := &sigPat{text: text}
	if mp.Annot != nil {
		s.annot = c.annotPattern(mp.Annot)
	}
	for _, m := range mp.Mods {
		if fieldOnly[m.Name] {
			c.errorf(m.Pos, "", "%s is a field modifier: a method or constructor pattern cannot use it", m.Name)
		}
		s.mods = append(s.mods, modTest{flag: modFlags[m.Name], not: m.Not})
	}
	if mp.Second != nil {
		s.ret = c.typePattern(mp.First, false)
		sn := mp.Second
		decl, name, ok := c.sigName(sn, "(..)")
		if !ok {
			return nil
		}
		s.decl = decl
		if name == "new" {
			c.errorf(sn.Pos, "write call(T.new(..)) without a return type", "a constructor pattern has no return type")
			return nil
		}
		s.name = newNamePat(&SimpleType{Head: name})
	} else {
		s.ctor = true
		st := singleSimple(mp.First)
		switch {
		case st == nil:
			c.errorf(mp.First.Pos, "a method pattern is ReturnType [DeclaringType.]name(Params)", "expected a method name after the return type")
			return nil
		case st.Member == "new":
			d := *st
			d.Member = ""
			if d.Varargs {
				c.errorf(st.Pos, "", "unexpected `...` in a declaring type")
			}
			s.decl = c.simpleType(&d, false)
		case st.Member == "" && !st.Plus && len(st.Dims) == 0 && len(st.Rest) == 0 && st.Head == "new":
			// new(..): any declaring type
		case st.Member == "" && !st.Plus && len(st.Dims) == 0 && len(st.Rest) > 0 &&
			st.Rest[len(st.Rest)-1].Name == "new" && st.Rest[len(st.Rest)-1].Sep == ".":
			d := *st
			d.Rest = d.Rest[:len(d.Rest)-1]
			s.decl = c.simpleType(&d, false)
		default:
			c.errorf(mp.First.Pos, "a method pattern is ReturnType [DeclaringType.]name(Params), e.g. * "+st.Head+"(..)",
				"expected a return type and a method name, or T.new(..) for a constructor")
			return nil
		}
		if s.decl != nil {
			s.declArray = namesArrays(s.decl)
		}
	}
	s.declUp = s.decl != nil && subtypesToo(s.decl)
	for i, e := range mp.Params {
		if e.Ellipsis {
			s.params = append(s.params, paramPat{ellipsis: true})
			continue
		}
		last := i == len(mp.Params)-1
		if a, inner := paramAnnot(e.Type); a != nil {
			// @A (T): the parameter's annotations, not its type's
			s.params = append(s.params, paramPat{t: c.typePattern(inner, false), annot: c.annotPattern(a)})
			continue
		}
		p := paramPat{t: c.typePattern(e.Type, last)}
		if st := singleSimple(e.Type); st != nil && st.Varargs && last {
			p.varargs = true
		}
		s.params = append(s.params, p)
	}
	for _, t := range mp.Throws {
		if len(t.Or) == 1 && len(t.Or[0].And) == 1 && t.Or[0].And[0].Not != nil {
			s.throws = append(s.throws, throwsItem{not: true, t: c.typeUnary(t.Or[0].And[0].Not, false)})
		} else {
			s.throws = append(s.throws, throwsItem{t: c.typePattern(t, false)})
		}
	}
	return s
}

// sigName splits the `DeclType.name` part of a method or field pattern
// into the declaring type pattern (nil: any type) and the name pattern.
// params is what follows the name in the pattern's kind ("(..)" for
// methods), for hints.
func (c *compiler) sigName(sn *SigName, params string) (decl typePat, name string, ok bool) {
	switch {
	case sn.ParenType != nil:
		return c.typePattern(sn.ParenType, false), sn.ParenName, true
	case sn.Simple.Member != "":
		st := *sn.Simple
		name, st.Member = st.Member, ""
		if st.Varargs {
			c.errorf(st.Pos, "", "unexpected `...` in a declaring type")
		}
		return c.simpleType(&st, false), name, true
	case sn.Simple.Plus || len(sn.Simple.Dims) > 0 || sn.Simple.Varargs:
		c.errorf(sn.Pos, "write DeclaringType+.name"+params, "expected `.name` after the declaring type pattern")
		return nil, "", false
	case len(sn.Simple.Rest) == 0:
		return nil, sn.Simple.Head, true
	}
	st := *sn.Simple
	last := st.Rest[len(st.Rest)-1]
	st.Rest = st.Rest[:len(st.Rest)-1]
	if last.Sep == ".." {
		c.errorf(sn.Pos, "write pkg..*."+last.Name+params+" for any type in pkg and its subpackages",
			"`..` cannot stand right before the member name")
		return nil, "", false
	}
	return c.simpleType(&st, false), last.Name, true
}

// singleSimple returns the simple type of a pattern that is just one.
func singleSimple(tp *TypePattern) *SimpleType {
	if tp == nil || len(tp.Or) != 1 || len(tp.Or[0].And) != 1 || tp.Or[0].And[0].Annot != nil {
		return nil
	}
	return tp.Or[0].And[0].Simple
}

// --- pointcut expressions ---

// target is what a name in this/target/args or a pointcut reference's
// argument stands for: an advice formal (formal >= 0) and the types its
// value must have (the formal's, and those of named pointcuts on the way).
type target struct {
	formal int
	types  []string
}

// env is the scope a pointcut expression is compiled in.
type env struct {
	scope    *aspectScope
	names    map[string]target
	bound    []bool         // per advice formal (shared by nested scopes)
	boundAt  []Position     // where each formal was bound
	sites    []advice.Value // what each formal was bound to (Arg Index -1: depends on the shadow)
	reportAt *Position      // when inside a named pointcut: the reference to report binding errors at
	stack    []*PointcutDecl
	formals  []string // names, for hints
	inCflow  bool     // inside cflow(...) or cflowbelow(...)
}

func (c *compiler) expr(e *Expr, ev *env, inOr, inNot bool) node {
	var or node
	for _, a := range e.Or {
		var and node
		for _, u := range a.And {
			n := c.unary(u, ev, inOr || len(e.Or) > 1, inNot)
			if and == nil {
				and = n
			} else {
				and = andNode{and, n}
			}
		}
		if or == nil {
			or = and
		} else {
			or = orNode{or, and}
		}
	}
	return or
}

func (c *compiler) unary(u *UnaryExpr, ev *env, inOr, inNot bool) node {
	switch {
	case u.Not != nil:
		return notNode{c.unary(u.Not, ev, inOr, true)}
	case u.Paren != nil:
		return c.expr(u.Paren, ev, inOr, inNot)
	}
	return c.designator(u.Prim, ev, inOr, inNot)
}

// between returns the source text from one position up to another.
func (c *compiler) between(from, to Position) string {
	src := c.srcs[from.Filename]
	if from.Offset < 0 || to.Offset > len(src) || from.Offset > to.Offset {
		return ""
	}
	return strings.TrimSpace(string(src[from.Offset:to.Offset]))
}

func (c *compiler) designator(d *Designator, ev *env, inOr, inNot bool) node {
	name := strings.Join(d.Name, ".")
	if d.At {
		return c.annotDesignator(d, "@"+name, ev, inOr, inNot)
	}
	switch name {
	case "call", "execution", "withincode":
		s := c.signature(d.Method, c.between(d.Method.Pos, d.Close))
		if s == nil {
			return constNode{advice.Never}
		}
		if name == "withincode" {
			return withincodeNode{s}
		}
		if name == "execution" && s.declArray {
			c.errorf(d.Pos, "use call(T[].new(..)) for array construction", "arrays have no constructor to execute")
		}
		return kindedNode{call: name == "call", sig: s}
	case "get", "set":
		f := c.fieldPattern(d.Field, c.between(d.Field.Pos, d.Close))
		if f == nil {
			return constNode{advice.Never}
		}
		return fieldNode{set: name == "set", pat: f}
	case "within":
		return newWithinNode(c.typePattern(d.Type, false))
	case "handler", "staticinitialization", "initialization", "preinitialization":
		return c.initDesignator(d, name)
	case "this", "target":
		if len(d.List) != 1 || d.List[0].Ellipsis {
			c.errorf(d.Pos, "write "+name+"(Type) or "+name+"(formal)", "%s() takes one type or formal", name)
			return constNode{advice.Never}
		}
		site := advice.Value{Kind: advice.This}
		if name == "target" {
			site.Kind = advice.Target
		}
		t, ok := c.typeOrFormal(d.List[0].Type, ev, inOr, inNot, name, site, true)
		if !ok {
			return constNode{advice.Never}
		}
		return thisTargetNode{target: name == "target", t: t}
	case "args":
		n := argsNode{}
		ellipses := 0
		for i, e := range d.List {
			if e.Ellipsis {
				ellipses++
				if ellipses > 1 {
					c.errorf(e.Pos, "", "args() allows one `..`")
				}
				n.elems = append(n.elems, argElem{ellipsis: true})
				continue
			}
			site := advice.Value{Kind: advice.Arg, Index: i}
			if ellipses > 0 {
				site.Index = -1
			}
			t, ok := c.typeOrFormal(e.Type, ev, inOr, inNot, "args", site, true)
			if !ok {
				t = target{formal: -1, types: []string{"never"}}
			}
			n.elems = append(n.elems, argElem{t: t})
		}
		return n
	case "cflow", "cflowbelow":
		return c.cflow(d, name == "cflowbelow", ev, inOr, inNot)
	case "if":
		return c.ifPointcut(d, ev)
	case "leaf":
		if len(d.List) != 0 {
			c.errorf(d.Pos, "write leaf(): it tests the code holding the join point, which it names itself", "leaf() takes no arguments")
			return constNode{advice.Never}
		}
		return leafNode{}
	}
	return c.reference(d, name, ev, inOr, inNot)
}

// typeOrFormal reads the argument of this/target/args or of a pointcut
// reference: `*`, an exact type, or a formal's name (binding it).
//
// site is the value a formal named here is bound to; bind is false for a
// pointcut reference's arguments, whose formals are bound (or not) inside
// the named pointcut.
func (c *compiler) typeOrFormal(tp *TypePattern, ev *env, inOr, inNot bool, what string, site advice.Value, bind bool) (target, bool) {
	st := singleSimple(tp)
	if st == nil || st.Plus || st.Varargs || st.Member != "" {
		c.errorf(tp.Pos, "this, target, args and pointcut references take exact types or formals, no type pattern operators",
			"%s() takes a type name or a formal, not a type pattern", what)
		return target{}, false
	}
	if st.Head == "*" && len(st.Rest) == 0 && len(st.Dims) == 0 {
		return target{formal: -1}, true
	}
	if len(st.Rest) == 0 && len(st.Dims) == 0 {
		if t, ok := ev.names[st.Head]; ok {
			if t.formal >= 0 && bind {
				pos := st.Pos
				if ev.reportAt != nil {
					pos = *ev.reportAt
				}
				switch {
				case inOr || inNot:
					op := "||"
					if inNot {
						op = "!"
					}
					c.errorf(pos, "bind it outside the "+op+", or use a type instead of the formal", "formal %s cannot be bound under %s", st.Head, op)
				case ev.bound[t.formal]:
					c.errorf(pos, "a formal is bound once, by one this(), target(), args() or returning/throwing clause",
						"formal %s is bound twice (first at %s)", ev.formals[t.formal], ev.boundAt[t.formal])
				default:
					ev.bound[t.formal] = true
					ev.boundAt[t.formal] = pos
					ev.sites[t.formal] = site
				}
			}
			return t, true
		}
	}
	parts := []string{st.Head}
	for _, r := range st.Rest {
		if r.Sep != "." {
			parts = append(parts, "*") // reported as a wildcard below
			continue
		}
		parts = append(parts, r.Name)
	}
	desc, err := typeNameDesc(parts, len(st.Dims))
	if err != nil {
		hint := ""
		if len(parts) == 1 && !isWild(parts[0]) {
			hint = "not a formal here"
			if len(ev.formals) > 0 {
				hint += " (formals: " + strings.Join(ev.formals, ", ") + ")"
			}
			hint += c.qualifyHint("; other types need their package", parts[0])
		}
		c.errorf(tp.Pos, hint, "%s(): %v", what, err)
		return target{}, false
	}
	return target{formal: -1, types: []string{desc}}, true
}

// reference inlines a named pointcut with its arguments.
func (c *compiler) reference(d *Designator, name string, ev *env, inOr, inNot bool) node {
	sc := ev.scope
	pname := name
	if len(d.Name) > 1 {
		aname := strings.Join(d.Name[:len(d.Name)-1], ".")
		sc = c.aspects[aname]
		pname = d.Name[len(d.Name)-1]
		if sc == nil {
			c.errorf(d.Pos, "", "unknown aspect %s", aname)
			return constNode{advice.Never}
		}
	}
	pd := sc.pointcuts[pname]
	if pd == nil {
		known := make([]string, 0, len(sc.pointcuts))
		for _, p := range sc.a.Pointcuts {
			known = append(known, p.Name)
		}
		hint := "designators are " + strings.Join(Designators, ", ")
		if len(known) > 0 {
			hint += "; pointcuts of aspect " + sc.a.Name + ": " + strings.Join(known, ", ")
		}
		c.errorf(d.Pos, hint, "unknown designator or pointcut %s", name)
		return constNode{advice.Never}
	}
	for _, p := range ev.stack {
		if p == pd {
			c.errorf(d.Pos, "", "pointcut %s refers to itself", name)
			return constNode{advice.Never}
		}
	}
	if len(d.List) != len(pd.Formals) {
		c.errorf(d.Pos, "", "pointcut %s takes %d arguments, not %d", name, len(pd.Formals), len(d.List))
		return constNode{advice.Never}
	}
	descs := sc.formals[pd]
	inner := &env{scope: sc, names: map[string]target{}, bound: ev.bound, boundAt: ev.boundAt, sites: ev.sites,
		reportAt: ev.reportAt, stack: append(append([]*PointcutDecl(nil), ev.stack...), pd), formals: ev.formals, inCflow: ev.inCflow}
	if inner.reportAt == nil {
		p := d.Pos
		inner.reportAt = &p
	}
	for i, e := range d.List {
		if e.Ellipsis {
			c.errorf(e.Pos, "", "a pointcut reference takes types or formals, not `..`")
			return constNode{advice.Never}
		}
		t, ok := c.typeOrFormal(e.Type, ev, inOr, inNot, name, advice.Value{}, false)
		if !ok {
			return constNode{advice.Never}
		}
		t.types = append(append([]string(nil), t.types...), descs[i])
		inner.names[pd.Formals[i].Name] = t
	}
	return c.expr(pd.Expr, inner, inOr, inNot)
}

// formalDescs resolves formals' types, reporting errors; "" for a bad one.
func (c *compiler) formalDescs(fs []*Formal) []string {
	descs := make([]string, len(fs))
	seen := map[string]bool{}
	for i, f := range fs {
		if seen[f.Name] {
			c.errorf(f.Pos, "", "duplicate formal %s", f.Name)
		}
		seen[f.Name] = true
		if isWild(f.Name) {
			c.errorf(f.Pos, "", "bad formal name %s", f.Name)
		}
		d, err := typeNameDesc(f.Type.Parts, len(f.Type.Dims))
		if err == nil && d == "V" {
			err = errFormalVoid
		}
		if err != nil {
			hint := ""
			if len(f.Type.Parts) == 1 && !isWild(f.Type.Parts[0]) {
				hint = c.qualifyHint("write the fully qualified name", f.Type.Parts[0])
			}
			c.errorf(f.Type.Pos, hint, "formal %s: %v", f.Name, err)
			d = "Ljava/lang/Object;"
		}
		descs[i] = d
	}
	return descs
}

type constErr string

func (e constErr) Error() string { return string(e) }

const errFormalVoid = constErr("a formal cannot be void")

// checkBound reports formals a pointcut expression did not bind.
func (c *compiler) checkBound(fs []*Formal, ev *env, skip int, what string) bool {
	ok := true
	for i, f := range fs {
		if i != skip && !ev.bound[i] {
			c.errorf(f.Pos, "bind it with this("+f.Name+"), target("+f.Name+") or args(.., "+f.Name+", ..)",
				"formal %s is not bound by the %s", f.Name, what)
			ok = false
		}
	}
	return ok
}

// Context values an advice body may pass besides formals.
var contextValues = map[string]advice.ValueKind{
	"thisJoinPointStaticPart":          advice.JoinPointStaticPart,
	"thisEnclosingJoinPointStaticPart": advice.EnclosingStaticPart,
	"joinPointId":                      advice.JoinPointID,
	"arrayDims":                        advice.ArrayDims,
	"thisJoinPoint":                    advice.JoinPoint,
	"proceed":                          advice.Proceed,
	"eachArg":                          advice.EachArg,
	"bytecodes":                        advice.Bytecodes,
	"preciseBytecodes":                 advice.PreciseBytecodes,
}

// contextDesc is the type each context value has.
var contextDesc = map[advice.ValueKind]string{
	advice.JoinPointStaticPart: StaticPartDesc,
	advice.EnclosingStaticPart: StaticPartDesc,
	advice.JoinPointID:         "I",
	advice.ArrayDims:           "[I",
	advice.JoinPoint:           JoinPointDesc,
	advice.Proceed:             ProceedDesc,
	advice.EachArg:             "Ljava/lang/Object;", // the fallback overload's: any argument, boxed
	advice.Bytecodes:           "J",
	advice.PreciseBytecodes:    "J",
}

// StaticPartDesc is the descriptor of thisJoinPointStaticPart's Java type.
const StaticPartDesc = rtnames.JoinPointStaticPartDesc

// JoinPointDesc is the descriptor of thisJoinPoint's Java type.
const JoinPointDesc = rtnames.JoinPointDesc
