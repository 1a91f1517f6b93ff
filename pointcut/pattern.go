package pointcut

import (
	"regexp"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// typePat is a compiled AspectJ type pattern. It matches a type given as a
// descriptor.
type typePat interface {
	match(desc string, h classfile.Hierarchy) bool
	String() string
}

type notType struct{ p typePat }

func (n notType) match(d string, h classfile.Hierarchy) bool { return !n.p.match(d, h) }
func (n notType) String() string                             { return "!" + n.p.String() }

type andType struct{ l, r typePat }

func (a andType) match(d string, h classfile.Hierarchy) bool {
	return a.l.match(d, h) && a.r.match(d, h)
}
func (a andType) String() string { return "(" + a.l.String() + " && " + a.r.String() + ")" }

type orType struct{ l, r typePat }

func (o orType) match(d string, h classfile.Hierarchy) bool {
	return o.l.match(d, h) || o.r.match(d, h)
}
func (o orType) String() string { return "(" + o.l.String() + " || " + o.r.String() + ")" }

// namePat is a type name pattern with optional `+`, dimensions and `...`.
//
// The name is tested against the type's fully qualified name: `*` matches
// any run of characters without a '.', `..` any run that starts and ends
// with '.'. A java.lang type is also tried by its simple name (AspectJ's
// implicit import); a nested class's '$' counts as a '.' (see testClass).
type namePat struct {
	text    string
	exact   string         // the name when it has no wildcard
	re      *regexp.Regexp // otherwise
	star    bool           // the name is `*` alone: any type, arrays included
	dollar  bool           // the name has a '$': test binary names (Outer$Inner)
	plus    bool
	dims    int // array dimensions, counting a varargs `...`
	varargs bool
	parts   []*NamePart // the name as written: Head (Sep "") then Rest, for classRegexp
}

func (p *namePat) String() string { return p.text }

// newNamePat compiles the name of a SimpleType (Head and Rest).
func newNamePat(st *SimpleType) *namePat {
	p := &namePat{plus: st.Plus, dims: len(st.Dims), varargs: st.Varargs}
	p.parts = append([]*NamePart{{Name: st.Head}}, st.Rest...)
	if st.Varargs {
		p.dims++
	}
	var text, re strings.Builder
	text.WriteString(st.Head)
	re.WriteString("^")
	re.WriteString(globQuote(st.Head))
	wild := isWild(st.Head)
	for _, r := range st.Rest {
		text.WriteString(r.Sep)
		text.WriteString(r.Name)
		if r.Sep == ".." {
			wild = true
			re.WriteString(`\.(?:.*\.)?`)
		} else {
			re.WriteString(`\.`)
		}
		re.WriteString(globQuote(r.Name))
		wild = wild || isWild(r.Name)
	}
	re.WriteString("$")
	name := text.String()
	if st.Plus {
		text.WriteString("+")
	}
	text.WriteString(strings.Repeat("[]", len(st.Dims)))
	if st.Varargs {
		text.WriteString("...")
	}
	p.text = text.String()
	p.dollar = strings.Contains(name, "$")
	switch {
	case name == "*":
		p.star = true
	case wild:
		var err error
		if p.re, err = regexp.Compile(re.String()); err != nil {
			p.exact = name // cannot happen with quoted input; match the text literally
		}
	default:
		p.exact = name
	}
	return p
}

// globQuote quotes a name segment for a regexp, `*` becoming [^.]*.
func globQuote(s string) string {
	parts := strings.Split(s, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return strings.Join(parts, `[^.]*`)
}

func (p *namePat) test(name string) bool {
	if p.re != nil {
		return p.re.MatchString(name)
	}
	return name == p.exact
}

// testName tests a qualified name, and a java.lang name without its package.
func (p *namePat) testName(name string) bool {
	if p.star || p.test(name) {
		return true
	}
	if rest, ok := strings.CutPrefix(name, "java.lang."); ok {
		return p.test(rest)
	}
	return false
}

// testClass tests an internal class name. As in AspectJ, a nested class's
// '$' is a separator like '.', so `java.util.Map.*` matches Map$Entry and
// `java.util.*` does not; a pattern that itself has a '$' is tested
// against the binary name.
func (p *namePat) testClass(internal string) bool {
	dotted := strings.ReplaceAll(internal, "/", ".")
	if !p.dollar {
		dotted = strings.ReplaceAll(dotted, "$", ".")
	}
	return p.testName(dotted)
}

func (p *namePat) match(desc string, h classfile.Hierarchy) bool {
	t := classfile.Type(desc)
	d := t.Dims()
	if d < p.dims {
		return false
	}
	if p.star {
		// `*` is any type, array types included, so `*[]` is every
		// array type (AspectJ compares dimension counts; see
		// docs/language.md).
		return true
	}
	if d > p.dims {
		// The pattern's element level is an array type: only a `+`
		// pattern naming one of the array supertypes matches it.
		return p.plus && (p.testName("java.lang.Object") || p.testName("java.lang.Cloneable") ||
			p.testName("java.io.Serializable"))
	}
	elem := t.Element()
	if elem.IsPrimitive() || elem == classfile.Void {
		return p.testName(elem.JavaName())
	}
	cls := elem.InternalName()
	if p.testClass(cls) {
		return true
	}
	if !p.plus {
		return false
	}
	if p.testName("java.lang.Object") {
		return true // every reference type is an Object, even one we cannot look up
	}
	found, _ := supers(h, cls, p.testClass)
	return found
}

// subtypesToo reports whether a type pattern that matches a type also
// matches its subtypes: `T+`, and && and || of such patterns.
func subtypesToo(p typePat) bool {
	switch p := p.(type) {
	case *namePat:
		return p.plus && p.dims == 0
	case orType:
		return subtypesToo(p.l) && subtypesToo(p.r)
	case andType:
		return subtypesToo(p.l) && subtypesToo(p.r)
	}
	return false
}

// names reports whether a type pattern mentions array types at its top level
// (`int[]`, `*[] || Foo[]`): only such a declaring type pattern selects
// array construction in call(T.new(..)).
func namesArrays(p typePat) bool {
	switch p := p.(type) {
	case *namePat:
		return p.dims > 0
	case orType:
		return namesArrays(p.l) || namesArrays(p.r)
	case andType:
		return namesArrays(p.l) && namesArrays(p.r)
	}
	return false
}

// modTest is one `[!]modifier` of a signature pattern.
type modTest struct {
	flag uint16
	not  bool
}

var modFlags = map[string]uint16{
	"public": classfile.AccPublic, "protected": classfile.AccProtected, "private": classfile.AccPrivate,
	"static": classfile.AccStatic, "final": classfile.AccFinal, "synchronized": classfile.AccSynchronized,
	"native": classfile.AccNative, "abstract": classfile.AccAbstract, "strictfp": classfile.AccStrict,
	"transient": classfile.AccTransient, "volatile": classfile.AccVolatile, // fields only
}

// paramPat is one element of a parameter list pattern: `..` or a type.
type paramPat struct {
	ellipsis bool
	t        typePat
	varargs  bool      // written T...: matches only a varargs method's last parameter
	annot    *annotPat // @A (T): the parameter's annotations (annotation_match.go)
}

// throwsItem is one item of a throws pattern. A plain item matches when a
// type of the throws clause matches it; a `!` item (unparenthesized) when
// none does — so `throws !IOException` and `throws (!IOException)` differ,
// as in AspectJ.
type throwsItem struct {
	not bool
	t   typePat
}

// sigPat is a compiled method or constructor signature pattern.
type sigPat struct {
	text      string
	ctor      bool
	mods      []modTest
	ret       typePat // methods only
	decl      typePat // nil: any declaring type
	declArray bool    // the declaring type pattern names array types
	declUp    bool    // the declaring type pattern holds for the subtypes of the types it matches (T+)
	name      *namePat
	params    []paramPat
	throws    []throwsItem
	annot     *annotPat // the member's annotations (annotation_match.go), or nil
}

func (s *sigPat) String() string { return s.text }

// matchName tests what all signatures of a member share: the kind and
// the name.
func (s *sigPat) matchName(m *advice.Member) bool {
	if m.Name == "<clinit>" {
		return false // a static initializer is no method (AspectJ's staticinitialization)
	}
	if s.ctor != (m.Name == "<init>") {
		return false
	}
	return s.ctor || s.name == nil || s.name.testName(m.Name)
}

// matchTypes tests the parameter and return types of one signature
// (constructors have no return type to test).
func (s *sigPat) matchTypes(m *advice.Member, h classfile.Hierarchy) bool {
	mt, err := classfile.ParseMethodDesc(m.Desc)
	var pann [][]string
	site := advice.AnnotationSite{Class: m.Owner, Name: m.Name, Desc: m.Desc}
	if s.annot != nil || s.paramAnnots() {
		var anns []string
		anns, pann = memberAnnotations(h, m.Owner, m.Name, m.Desc)
		if s.annot != nil && !s.annot.matches(&annotated{types: anns, site: site, param: -1, h: h}) {
			return false
		}
	}
	if err != nil || !matchParams(s.params, mt.Params, site, pann, h) {
		return false
	}
	return s.ctor || s.ret.match(string(mt.Return), h)
}

// matchDecl tests what differs between a member's signatures: the
// declaring type, modifiers, varargs and throws clause.
func (s *sigPat) matchDecl(owner string, m *advice.Member, h classfile.Hierarchy) bool {
	if s.decl != nil && !s.decl.match(string(classfile.ObjectType(owner)), h) {
		return false
	}
	for _, t := range s.mods {
		if !m.AccessKnown {
			return false
		}
		if (m.Access&t.flag != 0) == t.not {
			return false
		}
	}
	varargs := m.AccessKnown && m.Access&classfile.AccVarargs != 0
	if hasVarargs(s.params) && !varargs {
		return false
	}
	if n := len(s.params); varargs && n > 0 && !s.params[n-1].varargs {
		// AspectJ: an array pattern last does not match a varargs
		// parameter (String[] is not String...).
		if np, ok := s.params[n-1].t.(*namePat); ok && np.dims > 0 {
			return false
		}
	}
	for _, it := range s.throws {
		any := false
		for _, e := range m.Exceptions {
			if it.t.match(string(classfile.ObjectType(e)), h) {
				any = true
				break
			}
		}
		if any == it.not {
			return false
		}
	}
	return true
}

func hasVarargs(ps []paramPat) bool {
	return len(ps) > 0 && ps[len(ps)-1].varargs
}

// matchParams matches a parameter list pattern against descriptors; `..`
// matches any number of parameters. A T... element is taken as T[] (the
// varargs condition is tested by matchDecl). It is a glob match by dynamic
// programming over (pattern, parameter) positions, so patterns with many
// `..` cost O(len(ps)·len(params)), never exponential time.
func matchParams(ps []paramPat, params []classfile.Type, site advice.AnnotationSite, pann [][]string, h classfile.Hierarchy) bool {
	n := len(params)
	// ok[j]: ps[i:] matches params[j:], for the current i (from the end).
	ok := make([]bool, n+1)
	ok[n] = true
	for i := len(ps) - 1; i >= 0; i-- {
		next := make([]bool, n+1)
		if ps[i].ellipsis {
			// `..` matches params[j:k] for any k >= j.
			any := false
			for j := n; j >= 0; j-- {
				any = any || ok[j]
				next[j] = any
			}
		} else {
			for j := 0; j < n; j++ {
				next[j] = ok[j+1] && ps[i].t.match(string(params[j]), h) &&
					(ps[i].annot == nil || ps[i].annot.matches(&annotated{types: paramAt(pann, j), site: site, param: j, h: h}))
			}
		}
		ok = next
	}
	return ok[0]
}

// matchMember matches the signatures of a called or executed member: its
// static owner's, and with a MethodHierarchy those of every type that has
// the method (signatures.go: AspectJ's join point signatures, through
// covariant overriding).
func (s *sigPat) matchMember(m *advice.Member, arrayCtor bool, h classfile.Hierarchy) bool {
	if s.ctor && arrayCtor != s.declArray {
		return false
	}
	if arrayCtor && !m.AccessKnown {
		mm := *m
		mm.Access, mm.AccessKnown = classfile.AccPublic, true
		m = &mm
	}
	if !s.matchName(m) {
		return false
	}
	if s.declUp && !s.decl.match(string(classfile.ObjectType(m.Owner)), h) {
		// Every signature's declaring type is the owner or one of its
		// supertypes: if a T+ pattern rejects the owner, it rejects them.
		return false
	}
	var subject *advice.Member
	return signatures(m, h, func(owner string, sm *advice.Member) bool {
		if s.annot != nil {
			// AspectJ: only the subject, the member called or executed,
			// is tested for annotations; the other signatures do not
			// match a pattern with annotations.
			if subject == nil {
				subject = sm
			}
			if sm.Owner != subject.Owner || sm.Desc != subject.Desc {
				return false
			}
		}
		return s.matchTypes(sm, h) && s.matchDecl(owner, sm, h)
	})
}
