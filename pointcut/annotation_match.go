package pointcut

import (
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Matching annotation patterns and designators (annotation.go) against
// the annotations an advice.AnnotationHierarchy reads from class files.

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
	inherited bool            // desc is @Inherited: a class has it if a superclass has
	values    []elemValueTest // desc's values must match (annotation_values.go)
}

// annotated is what an annotation pattern tests: the annotation types of
// a class (site.Name ""), a member or one of its parameters (param >= 0),
// and where their values are read.
type annotated struct {
	types []string
	site  advice.AnnotationSite
	param int
	h     classfile.Hierarchy
}

// present reports whether e has an annotation the item names (whatever
// its not).
func (t *annotTest) present(e *annotated) bool {
	for _, a := range e.types {
		if t.desc != "" && a == t.desc || t.pat != nil && t.pat.match(a, e.h) {
			if len(t.values) == 0 {
				return true
			}
			var given map[string]advice.AnnotationValue
			if ah := annotHierarchy(e.h); ah != nil {
				given, _ = ah.AnnotationValues(e.site, e.param, a)
			}
			return valuesHold(t.values, a, given, e.h)
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
		if len(t.values) > 0 {
			b.WriteByte('(')
			for i, v := range t.values {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(v.String())
			}
			b.WriteByte(')')
		}
	}
	return b.String()
}

// matches tests a member's or parameter's annotations.
func (p *annotPat) matches(e *annotated) bool {
	for i := range p.items {
		if p.items[i].present(e) == p.items[i].not {
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
	e := &annotated{types: anns, site: advice.AnnotationSite{Class: class}, param: -1, h: h}
	for i := range p.items {
		t := &p.items[i]
		has := t.present(e)
		for c := class; !has && t.inherited && h != nil && !hasType(anns, t.desc); {
			ci, err := h.Lookup(c)
			if err != nil || ci.Super == "" {
				break
			}
			c = ci.Super
			sup, _ := classAnnotations(h, c)
			// the superclass's annotation, if it has one of that type,
			// is the one inherited: its values count
			has = t.present(&annotated{types: sup, site: advice.AnnotationSite{Class: c}, param: -1, h: h})
			if !has && hasType(sup, t.desc) {
				break
			}
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
		return a.a.matches(&annotated{param: -1, h: h}) // arrays and primitives have no annotations
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

func hasType(anns []string, desc string) bool {
	for _, a := range anns {
		if a == desc {
			return true
		}
	}
	return false
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
// owner resolves to (owner itself for constructors and unknown methods),
// as the signature walk resolves it (signatures.go).
func declaration(h classfile.Hierarchy, owner, name, desc string) string {
	var cache *typeCache
	if ch, ok := h.(*cachedHierarchy); ok {
		h, cache = ch.MethodHierarchy, ch.types
	}
	mh, ok := h.(advice.MethodHierarchy)
	if !ok || name == "<init>" || strings.HasPrefix(owner, "[") {
		return owner
	}
	w := &sigWalk{mh: mh, h: h, name: name, desc: desc, params: []string{paramsOf(desc)}, cache: cache}
	if m := w.resolve(owner, desc); m != nil {
		return m.Owner
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
	values    []elemValueTest // @within, @withincode, @annotation only
}

func (a *annotArg) test() annotTest {
	return annotTest{desc: a.desc, inherited: a.inherited, values: a.values}
}

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
		if !t.present(&annotated{types: anns, site: site, param: -1, h: m.h}) {
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
	return matchArgs(n.elems, func(e atArgsElem) bool { return e.ellipsis }, len(params), func(e atArgsElem, p int) result {
		return atValueTest(m, e.arg, advice.Value{Kind: advice.Arg, Index: p}, string(params[p]), advice.ArgAnnotation)
	})
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
