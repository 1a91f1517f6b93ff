package pointcut

import (
	"sort"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Annotation value patterns, `@Foo(level = pkg.Level.HIGH, value != "x")`:
// compiling them against the annotation type's elements and matching them
// against the values an advice.AnnotationHierarchy reads. As in AspectJ,
// an element the annotation does not give has its default value, and a
// pattern holds when the annotation is present and every pair does.

// elemValueTest is one compiled pair: the element's value is (or with not, is
// not) text, in advice.AnnotationValue's canonical form.
type elemValueTest struct {
	name string
	not  bool
	text string
}

func (v elemValueTest) String() string {
	op := "="
	if v.not {
		op = "!="
	}
	return v.name + op + strconv.Quote(v.text)
}

// holds reports whether the annotation of type ann whose written values
// are given satisfies every test, defaults read from h.
func valuesHold(tests []elemValueTest, ann string, given map[string]advice.AnnotationValue, h classfile.Hierarchy) bool {
	for _, t := range tests {
		v, ok := given[t.name]
		if !ok {
			if ah := annotHierarchy(h); ah != nil {
				v, ok = ah.ElementDefault(ann, t.name)
			}
		}
		if (ok && v.Text == t.text) == t.not {
			return false
		}
	}
	return true
}

// annotValues compiles the value patterns vs of the annotation type desc.
// Each value is checked against its element's type where the annotation
// type's class is found (info, or the given hierarchy's methods).
func (c *compiler) annotValues(vs *AnnotValues, desc string, info annotInfo) []elemValueTest {
	if desc == "" {
		return nil // the type was reported
	}
	internal := classfile.Type(desc).InternalName()
	var tests []elemValueTest
	seen := map[string]bool{}
	for _, p := range vs.Pairs {
		name := p.Name
		if name == "" {
			name = "value"
		}
		if seen[name] {
			c.errorf(p.Pos, "give each element once", "annotation %s: element %s is tested twice", javaName(desc), name)
			continue
		}
		seen[name] = true
		elem, known := c.elementType(internal, info, name)
		if known && elem == "" {
			c.errorf(p.Pos, c.elementsHint(internal, info), "annotation %s has no element %s", javaName(desc), name)
			continue
		}
		text, ok := c.annotLiteral(p.Value, desc, name, elem)
		if !ok {
			continue
		}
		tests = append(tests, elemValueTest{name: name, not: p.Not, text: text})
	}
	return tests
}

func javaName(desc string) string { return classfile.Type(desc).JavaName() }

// elementType returns the return type of the annotation type's element
// name ("" if it has none); known is false when the type's class is not
// found, so its elements cannot be checked.
func (c *compiler) elementType(internal string, info annotInfo, name string) (elem string, known bool) {
	if info.elements != nil {
		return info.elements[name], true
	}
	if mh, ok := c.given.(advice.MethodHierarchy); ok && mh != nil {
		ms, found := mh.DeclaredMethods(internal, name)
		if found {
			for _, m := range ms {
				if strings.HasPrefix(m.Desc, "()") {
					return m.Desc[2:], true
				}
			}
			return "", true
		}
	}
	return "", false
}

// elementsHint lists the elements an annotation type has.
func (c *compiler) elementsHint(internal string, info annotInfo) string {
	if info.elements == nil {
		return "write an element of the annotation type"
	}
	var names []string
	for n := range info.elements {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "it is a marker annotation: write @" + strings.ReplaceAll(internal, "/", ".") + " without values"
	}
	sort.Strings(names)
	return "its elements: " + strings.Join(names, ", ")
}

// annotLiteral converts a value to advice.AnnotationValue's text, checking
// it against the element's type elem ("" when unknown).
func (c *compiler) annotLiteral(lit *AnnotLiteral, ann, name, elem string) (string, bool) {
	bad := func(what, hint string) (string, bool) {
		c.errorf(lit.Pos, hint, "annotation %s: element %s is %s: %s is %s", javaName(ann), name, typeWord(elem), literalText(lit), what)
		return "", false
	}
	if strings.HasPrefix(elem, "[") {
		c.errorf(lit.Pos, "test the annotation in the advice: bind it with @annotation(formal)",
			"annotation %s: element %s is an array: value patterns do not test arrays (nor does AspectJ)", javaName(ann), name)
		return "", false
	}
	switch lit.Kind {
	case tokString:
		s, err := unquoteJava(lit.Text)
		if err != nil {
			c.errorf(lit.Pos, "", "malformed string %s: %v", lit.Text, err)
			return "", false
		}
		if elem != "" && elem != "Ljava/lang/String;" {
			return bad("a string", typeHint(elem))
		}
		return s, true
	case tokChar:
		inner := lit.Text[1 : len(lit.Text)-1]
		s, err := inner, error(nil)
		if inner != `"` {
			s, err = unquoteJava(`"` + inner + `"`)
		}
		if err != nil || len([]rune(s)) != 1 {
			c.errorf(lit.Pos, "write one character between single quotes: 'x'", "malformed char %s", lit.Text)
			return "", false
		}
		if elem != "" && elem != "C" {
			return bad("a char", typeHint(elem))
		}
		return s, true
	case tokNumber:
		return c.numberLiteral(lit, ann, name, elem, bad)
	}
	st := lit.Name
	parts := []string{st.Head}
	for _, r := range st.Rest {
		if r.Sep != "." {
			return bad("a pattern", "a value is a literal, pkg.Enum.NAME or pkg.T.class")
		}
		parts = append(parts, r.Name)
	}
	switch {
	case lit.At:
		desc, _, ok := c.annotationType(st, "")
		if !ok {
			return "", false
		}
		if elem != "" && elem != desc {
			return bad("an annotation "+javaName(desc), typeHint(elem))
		}
		return desc, true
	case len(parts) == 1 && len(st.Dims) == 0 && (st.Head == "true" || st.Head == "false"):
		if elem != "" && elem != "Z" {
			return bad("a boolean", typeHint(elem))
		}
		return st.Head, true
	case st.Member == "class" || len(st.Dims) == 0 && len(parts) > 1 && parts[len(parts)-1] == "class":
		if st.Member == "" {
			parts = parts[:len(parts)-1]
		}
		desc, err := typeNameDesc(parts, len(st.Dims))
		if err != nil {
			c.errorf(lit.Pos, c.qualifyHint("write the class's fully qualified name", parts[0]), "class literal %s: %v", literalText(lit), err)
			return "", false
		}
		if elem != "" && elem != "Ljava/lang/Class;" {
			return bad("a class literal", typeHint(elem))
		}
		return desc, true
	case len(parts) == 1:
		return bad("a bare name", typeHint(elem))
	case len(st.Dims) > 0 || st.Plus || st.Varargs || st.Member != "":
		return bad("no value", typeHint(elem))
	}
	desc, err := typeNameDesc(parts[:len(parts)-1], 0)
	if err != nil {
		c.errorf(lit.Pos, c.qualifyHint("write the enum's fully qualified name", parts[0]), "enum constant %s: %v", literalText(lit), err)
		return "", false
	}
	if elem != "" && elem != desc {
		return bad("a constant of "+javaName(desc), typeHint(elem))
	}
	constant := parts[len(parts)-1]
	if names, ok := c.classes.enumConstants(classfile.Type(desc).InternalName()); ok && !names[constant] {
		var list []string
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		c.errorf(lit.Pos, "its constants: "+strings.Join(list, ", "), "enum %s has no constant %s", javaName(desc), constant)
		return "", false
	}
	return desc + constant, true
}

// numberLiteral converts a number literal to the text of elem's type, or
// without elem, of an int or long (a float with a fraction or exponent).
func (c *compiler) numberLiteral(lit *AnnotLiteral, ann, name, elem string, bad func(what, hint string) (string, bool)) (string, bool) {
	s := strings.ReplaceAll(lit.Text, "_", "")
	if elem == "" {
		switch {
		case strings.HasSuffix(s, "L") || strings.HasSuffix(s, "l"):
			elem = "J"
		case !strings.HasPrefix(strings.TrimPrefix(s, "-"), "0x") && strings.ContainsAny(s, ".eEfFdD"):
			elem = "D"
		default:
			elem = "I"
		}
	}
	malformed := func(typ string) (string, bool) {
		c.errorf(lit.Pos, "", "annotation %s: element %s is %s: %s is no %s", javaName(ann), name, typeWord(elem), lit.Text, typ)
		return "", false
	}
	switch elem {
	case "B", "S", "I", "J":
		bits := map[string]int{"B": 8, "S": 16, "I": 32, "J": 64}[elem]
		if elem == "J" {
			s = strings.TrimRight(s, "lL")
		}
		v, err := strconv.ParseInt(s, 0, bits)
		if err != nil {
			return malformed(typeWord(elem) + " literal")
		}
		return strconv.FormatInt(v, 10), true
	case "F", "D":
		bits := 64
		if elem == "F" {
			bits = 32
		}
		v, err := strconv.ParseFloat(strings.TrimRight(s, "fFdD"), bits)
		if err != nil {
			return malformed(typeWord(elem) + " literal")
		}
		return strconv.FormatFloat(v, 'g', -1, bits), true
	}
	return bad("a number", typeHint(elem))
}

// typeWord names an element type for messages: "an int", "a String".
func typeWord(elem string) string {
	switch elem {
	case "":
		return "of unknown type"
	case "I", "J", "F", "D", "B", "S", "C", "Z":
		n := classfile.Type(elem).JavaName()
		if n == "int" {
			return "an int"
		}
		return "a " + n
	case "Ljava/lang/String;":
		return "a String"
	case "Ljava/lang/Class;":
		return "a Class"
	}
	return "a " + javaName(elem)
}

// typeHint says how to write a value of type elem.
func typeHint(elem string) string {
	switch elem {
	case "Ljava/lang/String;":
		return `write a string literal: "text"`
	case "Ljava/lang/Class;":
		return "write a class literal: pkg.T.class"
	case "Z":
		return "write true or false"
	case "C":
		return "write a char literal: 'x'"
	case "I", "J", "B", "S":
		return "write an integer literal: 5"
	case "F", "D":
		return "write a number: 2.5"
	case "":
		return ""
	}
	return "write a constant with its type, " + javaName(elem) + ".NAME (or @" + javaName(elem) + " for a marker annotation)"
}

// literalText is a value as written.
func literalText(lit *AnnotLiteral) string {
	if lit.Name == nil {
		return lit.Text
	}
	var b strings.Builder
	if lit.At {
		b.WriteByte('@')
	}
	b.WriteString(lit.Name.Head)
	for _, r := range lit.Name.Rest {
		b.WriteString(r.Sep + r.Name)
	}
	for range lit.Name.Dims {
		b.WriteString("[]")
	}
	if lit.Name.Member != "" {
		b.WriteString("." + lit.Name.Member)
	}
	return b.String()
}
