package pointcut

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Field access: get(FieldPattern) and set(FieldPattern).
//
// A field join point has one signature, the field's declaration: the
// weaver resolves each field reference to the class that declares the
// field (advice.Member), so `get(int app.A.x)` matches `b.x` when B
// inherits x from A, and `get(int app.B.x)` does not, as in ajc.

// fieldOnly are the modifiers only fields have (their access flags are
// a method's varargs and bridge flags).
var fieldOnly = map[string]bool{"transient": true, "volatile": true}

// notForFields are the modifiers no field has.
var notForFields = map[string]bool{"synchronized": true, "native": true, "abstract": true, "strictfp": true}

// fieldPat is a compiled field signature pattern.
type fieldPat struct {
	text  string
	mods  []modTest
	typ   typePat
	decl  typePat // nil: any declaring type
	name  *namePat
	annot *annotPat // the field's annotations (annotation_match.go), or nil
}

func (f *fieldPat) String() string { return f.text }

// fieldPattern compiles a field pattern; nil after an error.
func (c *compiler) fieldPattern(fp *FieldPattern, text string) *fieldPat {
	f := &fieldPat{text: text}
	if fp.Annot != nil {
		f.annot = c.annotPattern(fp.Annot)
	}
	for _, m := range fp.Mods {
		if notForFields[m.Name] {
			c.errorf(m.Pos, "field modifiers are public, protected, private, static, final, transient, volatile",
				"%s is not a field modifier", m.Name)
		}
		f.mods = append(f.mods, modTest{flag: modFlags[m.Name], not: m.Not})
	}
	f.typ = c.typePattern(fp.Type, false)
	decl, name, ok := c.sigName(fp.Name, "")
	if !ok {
		return nil
	}
	if name == "new" {
		c.errorf(fp.Name.Pos, "get and set select fields; call(T.new(..)) selects constructor calls",
			"`new` names a constructor, not a field")
		return nil
	}
	f.decl, f.name = decl, newNamePat(&SimpleType{Head: name})
	return f
}

// match tests a field: its name, type, declaring type and modifiers. A
// field whose modifiers are unknown (the weaver could not resolve it)
// matches no pattern with modifiers.
func (f *fieldPat) match(m *advice.Member, h classfile.Hierarchy) bool {
	if !f.name.testName(m.Name) || !f.typ.match(m.Desc, h) {
		return false
	}
	if f.decl != nil && !f.decl.match(string(classfile.ObjectType(m.Owner)), h) {
		return false
	}
	for _, t := range f.mods {
		if !m.AccessKnown || (m.Access&t.flag != 0) == t.not {
			return false
		}
	}
	if f.annot != nil {
		anns, _ := memberAnnotations(h, m.Owner, m.Name, m.Desc)
		return f.annot.matches(&annotated{types: anns, site: advice.AnnotationSite{Class: m.Owner, Name: m.Name, Desc: m.Desc}, param: -1, h: h})
	}
	return true
}

// fieldNode is get(FieldPattern) or set(FieldPattern).
type fieldNode struct {
	set bool
	pat *fieldPat
}

func (n fieldNode) eval(m *matchCtx) result {
	want := advice.FieldGet
	if n.set {
		want = advice.FieldSet
	}
	if m.s.Kind == want && n.pat.match(&m.s.Member, m.h) {
		return always
	}
	return never
}

// fieldHint guesses what is wrong with a field pattern; body is the
// designator's tokens up to its closing parenthesis.
func fieldHint(body []lexer.Token) string {
	toks := body[:len(body)-1]
	names := 0
	for i, t := range toks {
		if t.Type == tokPunct && t.Value == "(" && i > 0 && toks[i-1].Type == tokName {
			return "a field pattern has no parameter list: get and set select fields, call and execution methods"
		}
		if t.Type == tokName && (i == 0 || toks[i-1].Type != tokPunct || toks[i-1].Value == "!") {
			names++
		}
	}
	if names < 2 {
		return "a field pattern is [modifiers] Type [DeclaringType.]name, e.g. get(int com.example.Point.x) or set(* *)"
	}
	return "field patterns are [modifiers] Type [DeclaringType.]name"
}
