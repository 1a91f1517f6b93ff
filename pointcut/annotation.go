package pointcut

import (
	"errors"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Annotations, as AspectJ matches them.
//
// An annotation pattern (`@A`, `!@A`, `@(A || B)`, several for all of them)
// stands before a signature pattern, for the member's annotations
// (`execution(@A * *(..))`), before a type pattern, for the type's
// (`within(@A *)`, `call(* (@A *).*(..))`), and in a parameter list before a
// parenthesized type pattern, for the parameter's (`execution(* *(@A (*)))`).
//
// The designators @within(A), @withincode(A) and @annotation(A) test the
// annotations of the class holding the code, of the method holding it and
// of the join point's subject (the member called, executed or accessed)
// statically; @this(A), @target(A) and @args(A, ..) test the class of a
// value at run time (a HasAnnotation residue) unless the static type has an
// @Inherited A. Each may name a formal instead of A: it binds the annotation.
// Annotations are read from class files, runtime-visible and
// class-retention ones alike; only the run-time tests and bindings need
// runtime retention.

// AnnotPattern is an annotation pattern: every item must hold.
type AnnotPattern struct {
	Pos   Position
	Items []*AnnotItem
}

// AnnotItem is `@Name`, `@(TypePattern)` or either with `!` before.
type AnnotItem struct {
	Pos  Position
	Not  bool
	Type *TypePattern
}

// Parse implements participle.Parseable for AnnotPattern (a signature's
// leading annotations).
func (a *AnnotPattern) Parse(lex *lexer.PeekingLexer) error {
	if !startsAnnot(lex) {
		return participle.NextMatch
	}
	return parseAnnotPattern(lex, a, 0)
}

// startsAnnot reports whether the next tokens are `@` or `!@`.
func startsAnnot(lex *lexer.PeekingLexer) bool {
	t := lex.Peek()
	if isPunctTok(t, "@") {
		return true
	}
	if !isPunctTok(t, "!") {
		return false
	}
	cp := lex.MakeCheckpoint()
	lex.Next()
	ok := isPunctTok(lex.Peek(), "@")
	lex.LoadCheckpoint(cp)
	return ok
}

func parseAnnotPattern(lex *lexer.PeekingLexer, a *AnnotPattern, depth int) error {
	a.Pos = lex.Peek().Pos
	for startsAnnot(lex) {
		it := &AnnotItem{Pos: lex.Peek().Pos}
		if isPunctTok(lex.Peek(), "!") {
			it.Not = true
			lex.Next()
		}
		lex.Next() // @
		t := lex.Peek()
		switch {
		case isPunctTok(t, "("):
			lex.Next()
			it.Type = &TypePattern{}
			if err := parseTypePattern(lex, it.Type, depth+1); err != nil {
				return err
			}
			if c := lex.Peek(); !isPunctTok(c, ")") {
				return participle.Errorf(c.Pos, "unexpected %s (expected \")\")", tokenText(c))
			}
			lex.Next()
		case t.Type == tokName:
			st := &SimpleType{}
			if err := st.Parse(lex); err != nil {
				return err
			}
			u := &TypeUnary{Pos: st.Pos, Simple: st}
			it.Type = &TypePattern{Pos: st.Pos, Or: []*TypeAnd{{Pos: st.Pos, And: []*TypeUnary{u}}}}
		default:
			return participle.Errorf(t.Pos, "unexpected %s (expected an annotation type after @)", tokenText(t))
		}
		a.Items = append(a.Items, it)
	}
	return nil
}

// --- compiled patterns ---

// annotPat is a compiled annotation pattern.
type annotPat struct {
	items []annotTest
}

// annotTest is one item: an annotation of an exact type (desc) or of a
// type matching pat is present, or with not, absent.
type annotTest struct {
	not       bool
	desc      string
	pat       typePat
	inherited bool // desc is @Inherited: a class has it if a superclass has
}

func (t *annotTest) present(anns []string, h classfile.Hierarchy) bool {
	for _, a := range anns {
		if t.desc != "" && a == t.desc || t.pat != nil && t.pat.match(a, h) {
			return true
		}
	}
	return false
}

func (p *annotPat) String() string {
	var b strings.Builder
	for i, t := range p.items {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.not {
			b.WriteByte('!')
		}
		if t.pat != nil {
			b.WriteString("@(" + t.pat.String() + ")")
		} else {
			b.WriteString("@" + strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(t.desc, "L"), ";"), "/", "."))
		}
	}
	return b.String()
}

// matches tests a member's or parameter's annotations.
func (p *annotPat) matches(anns []string, h classfile.Hierarchy) bool {
	for i := range p.items {
		if p.items[i].present(anns, h) == p.items[i].not {
			return false
		}
	}
	return true
}

// matchesClass tests a class's annotations; an @Inherited one may be a
// superclass's. An unknown class has none (AspectJ: no match for a missing
// type).
func (p *annotPat) matchesClass(class string, h classfile.Hierarchy) bool {
	anns, _ := classAnnotations(h, class)
	for i := range p.items {
		t := &p.items[i]
		has := t.present(anns, h)
		for c := class; !has && t.inherited && h != nil; {
			ci, err := h.Lookup(c)
			if err != nil || ci.Super == "" {
				break
			}
			c = ci.Super
			sup, _ := classAnnotations(h, c)
			has = t.present(sup, h)
		}
		if has == t.not {
			return false
		}
	}
	return true
}

// annotType is a type pattern with an annotation pattern: `@A T`.
type annotType struct {
	a *annotPat
	t typePat
}

func (a annotType) String() string { return a.a.String() + " " + a.t.String() }

func (a annotType) match(desc string, h classfile.Hierarchy) bool {
	if !a.t.match(desc, h) {
		return false
	}
	ty := classfile.Type(desc)
	if ty.Dims() > 0 || !strings.HasPrefix(desc, "L") {
		return a.a.matches(nil, h) // arrays and primitives have no annotations
	}
	return a.a.matchesClass(ty.InternalName(), h)
}

// annotHierarchy returns h's annotations, if it reads them.
func annotHierarchy(h classfile.Hierarchy) advice.AnnotationHierarchy {
	if ch, ok := h.(*cachedHierarchy); ok {
		h = ch.MethodHierarchy
	}
	ah, _ := h.(advice.AnnotationHierarchy)
	return ah
}

func classAnnotations(h classfile.Hierarchy, class string) ([]string, bool) {
	if ah := annotHierarchy(h); ah != nil {
		return ah.ClassAnnotations(class)
	}
	return nil, false
}

func memberAnnotations(h classfile.Hierarchy, class, name, desc string) ([]string, [][]string) {
	if ah := annotHierarchy(h); ah != nil {
		anns, params, _ := ah.MemberAnnotations(class, name, desc)
		return anns, params
	}
	return nil, nil
}

// declaration returns the class declaring the method name+desc a call on
// owner resolves to (owner itself for constructors and unknown methods):
// owner and its superclasses, then the interfaces, as the JVM looks
// methods up (JVMS 5.4.3.3).
func declaration(h classfile.Hierarchy, owner, name, desc string) string {
	if ch, ok := h.(*cachedHierarchy); ok {
		h = ch.MethodHierarchy
	}
	mh, ok := h.(advice.MethodHierarchy)
	if !ok || name == "<init>" || strings.HasPrefix(owner, "[") {
		return owner
	}
	declares := func(c string) bool {
		ms, _ := mh.DeclaredMethods(c, name)
		for _, m := range ms {
			if m.Desc == desc {
				return true
			}
		}
		return false
	}
	var ifaces []string
	for c := owner; c != ""; {
		if declares(c) {
			return c
		}
		ci, err := mh.Lookup(c)
		if err != nil {
			return owner
		}
		ifaces = append(ifaces, ci.Interfaces...)
		c = ci.Super
	}
	seen := map[string]bool{}
	for len(ifaces) > 0 {
		c := ifaces[0]
		ifaces = ifaces[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		if declares(c) {
			return c
		}
		if ci, err := mh.Lookup(c); err == nil {
			ifaces = append(ifaces, ci.Interfaces...)
		}
	}
	return owner
}

// subject returns the member whose annotations @annotation tests at s:
// the executed member, the called one's declaration, the accessed field;
// ok is false at array construction.
func subject(s *advice.Shadow, h classfile.Hierarchy) (site advice.AnnotationSite, ok bool) {
	m := s.Member
	switch s.Kind {
	case advice.ArrayConstruction:
		return site, false
	case advice.MethodCall:
		return advice.AnnotationSite{Class: declaration(h, m.Owner, m.Name, m.Desc), Name: m.Name, Desc: m.Desc}, true
	case advice.MethodExecution, advice.ConstructorExecution:
		if m.Owner == "" {
			m.Owner = s.Within
		}
	}
	return advice.AnnotationSite{Class: m.Owner, Name: m.Name, Desc: m.Desc}, true
}

// enclosingCode returns the method holding s's code, as withincode sees it.
func enclosingCode(s *advice.Shadow) (site advice.AnnotationSite, ok bool) {
	if s.Kind == advice.MethodExecution {
		return site, false
	}
	code := s.Code
	if code.Name == "<clinit>" || code.Name == "" {
		return site, false
	}
	if code.Owner == "" {
		code.Owner = s.Within
	}
	return advice.AnnotationSite{Class: code.Owner, Name: code.Name, Desc: code.Desc}, true
}

// --- designators ---

// annotArg is the argument of an annotation designator: an annotation
// type, maybe bound to a formal (formal >= 0), or `*` (desc "").
type annotArg struct {
	desc      string
	inherited bool
	formal    int
}

func (a *annotArg) test() annotTest { return annotTest{desc: a.desc, inherited: a.inherited} }

// atNode is @within, @withincode or @annotation: a static test.
type atNode struct {
	kind advice.ValueKind // WithinAnnotation, WithincodeAnnotation, MemberAnnotation
	arg  annotArg
}

func (n atNode) eval(m *matchCtx) result {
	t := n.arg.test()
	var site advice.AnnotationSite
	switch n.kind {
	case advice.WithinAnnotation:
		site = advice.AnnotationSite{Class: m.s.Within}
		if !(&annotPat{items: []annotTest{t}}).matchesClass(site.Class, m.h) {
			return never
		}
	default:
		ok := false
		if n.kind == advice.MemberAnnotation {
			site, ok = subject(m.s, m.h)
		} else {
			site, ok = enclosingCode(m.s)
		}
		if !ok {
			return never
		}
		anns, _ := memberAnnotations(m.h, site.Class, site.Name, site.Desc)
		if !t.present(anns, m.h) {
			return never
		}
	}
	if n.arg.formal >= 0 {
		s := site
		m.binds[n.arg.formal] = advice.Value{Kind: n.kind, Annotation: classfile.Type(n.arg.desc).InternalName(), Site: &s}
	}
	return always
}

// atValueNode is @this, @target or one @args element: the class of a value
// has the annotation, tested at run time unless the static type has an
// @Inherited one (AspectJ's rule: a subclass may have it).
type atValueNode struct {
	kind advice.ValueKind // This, Target
	arg  annotArg
}

// atValueTest tests the value v of static type desc.
func atValueTest(m *matchCtx, arg annotArg, v advice.Value, desc string, bind advice.ValueKind) result {
	if arg.desc == "" {
		return always
	}
	ann := classfile.Type(arg.desc).InternalName()
	if arg.formal >= 0 {
		b := v
		b.Kind, b.Annotation = bind, ann
		m.binds[arg.formal] = b
	}
	ty := classfile.Type(desc)
	if ty.IsPrimitive() {
		return never // AspectJ: a primitive value's class has no annotations
	}
	if arg.formal < 0 && ty.Dims() == 0 && (arg.inherited || bind == advice.ArgAnnotation) &&
		(&annotPat{items: []annotTest{arg.test()}}).matchesClass(ty.InternalName(), m.h) {
		// ajc: the static type has it, and it is @Inherited (so every
		// subclass has it), or for @args, whatever the subclass (ajc
		// tests @args statically where it can)
		return always
	}
	return result{advice.Maybe, &advice.Residue{Op: advice.HasAnnotation, Value: v, Type: ann}}
}

func (n atValueNode) eval(m *matchCtx) result {
	s := m.s
	v := advice.Value{Kind: n.kind}
	var desc string
	if n.kind == advice.This {
		if s.StaticThis {
			return never
		}
		desc = string(classfile.ObjectType(s.Within))
		return atValueTest(m, n.arg, v, desc, advice.ThisAnnotation)
	}
	switch s.Kind {
	case advice.ConstructorCall, advice.ArrayConstruction:
		return never
	case advice.MethodCall, advice.FieldGet, advice.FieldSet:
		if s.StaticTarget {
			return never
		}
		desc = string(classfile.ObjectType(s.Member.Owner))
	default:
		if s.StaticThis {
			return never
		}
		desc = string(classfile.ObjectType(s.Within))
	}
	return atValueTest(m, n.arg, v, desc, advice.TargetAnnotation)
}

// atArgsNode is @args(...).
type atArgsNode struct {
	elems []atArgsElem
}

type atArgsElem struct {
	ellipsis bool
	arg      annotArg
}

func (n atArgsNode) eval(m *matchCtx) result {
	params, ok := m.s.ArgTypes()
	if !ok {
		return never
	}
	at := -1
	for i, e := range n.elems {
		if e.ellipsis {
			at = i
		}
	}
	if at < 0 && len(params) != len(n.elems) || at >= 0 && len(params) < len(n.elems)-1 {
		return never
	}
	r := always
	for i, e := range n.elems {
		if e.ellipsis {
			continue
		}
		p := i
		if at >= 0 && i > at {
			p = len(params) - (len(n.elems) - i)
		}
		r = and(r, atValueTest(m, e.arg, advice.Value{Kind: advice.Arg, Index: p}, string(params[p]), advice.ArgAnnotation))
		if r.v == advice.Never {
			return never
		}
	}
	return r
}

// --- compiling ---

// annotPattern compiles an annotation pattern.
func (c *compiler) annotPattern(ap *AnnotPattern) *annotPat {
	p := &annotPat{}
	for _, it := range ap.Items {
		t := annotTest{not: it.Not}
		if st := singleSimple(it.Type); st != nil && exactName(st) {
			desc, info, _ := c.annotationType(st, "") // "" after an error: never present
			t.desc, t.inherited = desc, info.inherited
		} else {
			t.pat = c.typePattern(it.Type, false)
		}
		p.items = append(p.items, t)
	}
	return p
}

// exactName reports whether a simple type pattern is a plain dotted name.
func exactName(st *SimpleType) bool {
	if st.Plus || len(st.Dims) > 0 || st.Varargs || st.Member != "" || isWild(st.Head) {
		return false
	}
	for _, r := range st.Rest {
		if r.Sep != "." || isWild(r.Name) {
			return false
		}
	}
	return true
}

// annotInfo is what resolution learns of an annotation type.
type annotInfo struct {
	known     bool // its class file was found (else the rest is unknown)
	runtime   bool // @Retention(RUNTIME)
	inherited bool // @Inherited
}

// annotationType resolves an annotation type written as a dotted name,
// reporting a type that is not found (when types are checked: with an
// advice class path) or is no annotation type.
func (c *compiler) annotationType(st *SimpleType, prefix string) (string, annotInfo, bool) {
	parts := []string{st.Head}
	for _, r := range st.Rest {
		parts = append(parts, r.Name)
	}
	name := strings.Join(parts, ".")
	desc, err := typeNameDesc(parts, 0)
	if err != nil {
		c.errorf(st.Pos, c.qualifyHint("write the annotation type's fully qualified name", st.Head),
			"%sannotation type %s not found: %v", prefix, name, err)
		return "", annotInfo{}, false
	}
	if !strings.HasPrefix(desc, "L") {
		c.errorf(st.Pos, "", "%s%s is not an annotation type", prefix, name)
		return "", annotInfo{}, false
	}
	info, isAnnot, err := c.classes.annotation(classfile.Type(desc).InternalName(), c.given)
	switch {
	case errors.Is(err, classfile.ErrClassNotFound):
		if c.classes.adviceCP != "" {
			c.errorf(st.Pos, "put the annotation type's classes on --advice-cp"+c.qualifyHint("", st.Head),
				"%sannotation type %s not found", prefix, name)
			return "", annotInfo{}, false
		}
	case err != nil:
		c.errorf(st.Pos, "", "%sannotation type %s: %v", prefix, name, err)
		return "", annotInfo{}, false
	case !isAnnot:
		c.errorf(st.Pos, "", "%s%s is not an annotation type", prefix, name)
		return "", annotInfo{}, false
	}
	return desc, info, true
}

// annotation reads an annotation type's class: whether it is one, its
// retention and whether it is @Inherited. A class known only to given (a
// header) is an annotation of unknown retention.
func (cs *classes) annotation(internal string, given classfile.Hierarchy) (annotInfo, bool, error) {
	srcs, _ := cs.adviceSources()
	srcs = append([]classfile.Source(nil), srcs...)
	if jdk := cs.image(); jdk != nil {
		srcs = append(srcs, jdk)
	}
	for _, s := range srcs {
		b, err := s.Class(internal)
		if err != nil {
			continue
		}
		cl, err := classfile.Parse(internal, b)
		if err != nil {
			return annotInfo{}, false, err
		}
		info := annotInfo{known: true}
		for i := range cl.Attributes {
			if cl.Pool.Utf8(cl.Attributes[i].Name) != "RuntimeVisibleAnnotations" {
				continue
			}
			v, err := classfile.DecodeAttr(cl, &cl.Attributes[i])
			if err != nil {
				continue
			}
			for _, an := range v.(*classfile.Annotations).Annotations {
				switch cl.Pool.Utf8(an.Type) {
				case "Ljava/lang/annotation/Inherited;":
					info.inherited = true
				case "Ljava/lang/annotation/Retention;":
					for _, e := range an.Elements {
						if e.Value.Tag == 'e' && cl.Pool.Utf8(e.Value.EnumConst) == "RUNTIME" {
							info.runtime = true
						}
					}
				}
			}
		}
		return info, cl.Access&classfile.AccAnnotation != 0, nil
	}
	if given != nil {
		if ci, err := given.Lookup(internal); err == nil {
			return annotInfo{}, ci.Access&classfile.AccAnnotation != 0, nil
		}
	}
	return annotInfo{}, false, classfile.ErrClassNotFound
}

// annotDesignator compiles @within, @withincode, @annotation, @this,
// @target and @args.
func (c *compiler) annotDesignator(d *Designator, name string, ev *env, inOr, inNot bool) node {
	if name == "@args" {
		n := atArgsNode{}
		ellipses := 0
		for i, e := range d.List {
			if e.Ellipsis {
				ellipses++
				if ellipses > 1 {
					c.errorf(e.Pos, "", "@args() allows one `..`")
				}
				n.elems = append(n.elems, atArgsElem{ellipsis: true})
				continue
			}
			site := advice.Value{Kind: advice.ArgAnnotation, Index: i}
			if ellipses > 0 {
				site.Index = -1
			}
			a, ok := c.annotArgument(e.Type, ev, inOr, inNot, name, site, true)
			if !ok {
				return constNode{advice.Never}
			}
			n.elems = append(n.elems, atArgsElem{arg: a})
		}
		return n
	}
	if len(d.List) != 1 || d.List[0].Ellipsis {
		c.errorf(d.Pos, "write "+name+"(AnnotationType) or "+name+"(formal)", "%s() takes one annotation type or formal", name)
		return constNode{advice.Never}
	}
	kind := map[string]advice.ValueKind{"@this": advice.ThisAnnotation, "@target": advice.TargetAnnotation,
		"@within": advice.WithinAnnotation, "@withincode": advice.WithincodeAnnotation, "@annotation": advice.MemberAnnotation}[name]
	runtime := kind == advice.ThisAnnotation || kind == advice.TargetAnnotation
	a, ok := c.annotArgument(d.List[0].Type, ev, inOr, inNot, name, advice.Value{Kind: kind}, runtime)
	if !ok {
		return constNode{advice.Never}
	}
	switch kind {
	case advice.ThisAnnotation:
		return atValueNode{kind: advice.This, arg: a}
	case advice.TargetAnnotation:
		return atValueNode{kind: advice.Target, arg: a}
	}
	return atNode{kind: kind, arg: a}
}

// annotArgument reads the argument of an annotation designator: an
// annotation type or a formal of one (binding it). A run-time test
// (runtime) and a binding need the type's runtime retention.
func (c *compiler) annotArgument(tp *TypePattern, ev *env, inOr, inNot bool, what string, site advice.Value, runtime bool) (annotArg, bool) {
	st := singleSimple(tp)
	if st != nil && st.Head == "*" && len(st.Rest) == 0 && !st.Plus && len(st.Dims) == 0 && what == "@args" {
		return annotArg{formal: -1}, true
	}
	if st == nil || !exactName(st) {
		c.errorf(tp.Pos, "write an annotation type's name or a formal", "%s() takes an annotation type or a formal, not a pattern", what)
		return annotArg{}, false
	}
	a := annotArg{formal: -1}
	typeName, prefix := st, what+"(): "
	if t, ok := ev.names[st.Head]; ok && len(st.Rest) == 0 {
		// A formal: bind it (typeOrFormal reports binding errors) and
		// match its type.
		if _, ok := c.typeOrFormal(tp, ev, inOr, inNot, what, site, true); !ok {
			return annotArg{}, false
		}
		a.formal = t.formal
		desc := t.types[len(t.types)-1]
		prefix += "formal " + st.Head + ": "
		if t.formal < 0 || !strings.HasPrefix(desc, "L") {
			c.errorf(st.Pos, "", "%s%s is not an annotation type", prefix, classfile.Type(desc).JavaName())
			return annotArg{}, false
		}
		typeName = &SimpleType{Pos: st.Pos}
		for i, p := range strings.Split(classfile.Type(desc).JavaName(), ".") {
			if i == 0 {
				typeName.Head = p
			} else {
				typeName.Rest = append(typeName.Rest, &NamePart{Sep: ".", Name: p})
			}
		}
		runtime = true
	}
	desc, info, ok := c.annotationType(typeName, prefix)
	if !ok {
		return annotArg{}, false
	}
	if runtime && info.known && !info.runtime {
		hint := "only @Retention(RUNTIME) annotations can be read at run time; @within, @annotation and annotation patterns match CLASS retention ones statically"
		if a.formal >= 0 {
			c.errorf(st.Pos, hint, "%s(): annotation type %s does not have runtime retention: it cannot be bound", what, classfile.Type(desc).JavaName())
		} else {
			c.errorf(st.Pos, hint, "%s(): annotation type %s does not have runtime retention", what, classfile.Type(desc).JavaName())
		}
		return annotArg{}, false
	}
	a.desc, a.inherited = desc, info.inherited
	return a, true
}

// paramAnnot splits a parameter pattern `@A (T)` into the annotation
// pattern and T; a is nil for any other pattern.
func paramAnnot(tp *TypePattern) (a *AnnotPattern, inner *TypePattern) {
	if tp == nil || len(tp.Or) != 1 || len(tp.Or[0].And) != 1 {
		return nil, nil
	}
	u := tp.Or[0].And[0]
	if u.Annot == nil || u.Paren == nil {
		return nil, nil
	}
	return u.Annot, u.Paren
}

// paramAnnots reports whether some parameter pattern tests annotations.
func (s *sigPat) paramAnnots() bool {
	for _, p := range s.params {
		if p.annot != nil {
			return true
		}
	}
	return false
}

// paramAt returns parameter j's annotations.
func paramAt(pann [][]string, j int) []string {
	if j < len(pann) {
		return pann[j]
	}
	return nil
}
