package pointcut

import (
	"errors"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// Compiling annotation patterns and designators (annotation.go), and
// resolving annotation types.

// annotPattern compiles an annotation pattern.
func (c *compiler) annotPattern(ap *AnnotPattern) *annotPat {
	p := &annotPat{}
	for _, it := range ap.Items {
		t := annotTest{not: it.Not}
		if st := singleSimple(it.Type); st != nil && exactName(st) {
			desc, info, _ := c.annotationType(st, "") // "" after an error: never present
			t.desc, t.inherited = desc, info.inherited
			if it.Values != nil {
				t.values = c.annotValues(it.Values, desc, info)
			}
		} else {
			if it.Values != nil {
				c.errorf(it.Values.Pos, "write the annotation type's name, or test the values in the advice",
					"value patterns need an exact annotation type, not a pattern (as in AspectJ)")
			}
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
	known     bool              // its class file was found (else the rest is unknown)
	runtime   bool              // @Retention(RUNTIME)
	inherited bool              // @Inherited
	elements  map[string]string // element name -> type descriptor; nil when unknown
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
	cl, err := cs.read(internal)
	if errors.Is(err, classfile.ErrClassNotFound) && given != nil {
		if ci, err := given.Lookup(internal); err == nil {
			return annotInfo{}, ci.Access&classfile.AccAnnotation != 0, nil
		}
	}
	if err != nil {
		return annotInfo{}, false, err
	}
	info := annotInfo{known: true, elements: map[string]string{}}
	for _, m := range cl.Methods {
		if d := cl.MemberDesc(m); strings.HasPrefix(d, "()") {
			info.elements[cl.MemberName(m)] = d[2:]
		}
	}
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

// read parses a class of the advice class path or the JDK.
func (cs *classes) read(internal string) (*classfile.Class, error) {
	srcs, _ := cs.adviceSources()
	srcs = append([]classpath.Source(nil), srcs...)
	if jdk := cs.image(); jdk != nil {
		srcs = append(srcs, jdk)
	}
	for _, s := range srcs {
		b, err := s.Class(internal)
		if err != nil {
			continue
		}
		return classfile.Parse(internal, b)
	}
	return nil, classfile.ErrClassNotFound
}

// enumConstants returns the constants of an enum of the advice class path
// or the JDK; ok is false if it is not found there or is no enum.
func (cs *classes) enumConstants(internal string) (names map[string]bool, ok bool) {
	cl, err := cs.read(internal)
	if err != nil || cl.Access&classfile.AccEnum == 0 {
		return nil, false
	}
	names = map[string]bool{}
	for _, f := range cl.Fields {
		if f.Access&classfile.AccEnum != 0 {
			names[cl.MemberName(f)] = true
		}
	}
	return names, true
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
			a, ok := c.annotArgument(e, ev, inOr, inNot, name, site, true)
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
	a, ok := c.annotArgument(d.List[0], ev, inOr, inNot, name, advice.Value{Kind: kind}, runtime)
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
func (c *compiler) annotArgument(e *ListElem, ev *env, inOr, inNot bool, what string, site advice.Value, runtime bool) (annotArg, bool) {
	tp := e.Type
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
	if e.Values != nil {
		if !c.valuesAllowed(e.Values, ev, what) {
			return annotArg{}, false
		}
		a.values = c.annotValues(e.Values, desc, info)
	}
	return a, true
}

// valuesAllowed reports whether an annotation designator may test values:
// the static ones may; AspectJ's value binding, `@annotation(A(formal))`,
// is not supported.
func (c *compiler) valuesAllowed(vs *AnnotValues, ev *env, what string) bool {
	for _, p := range vs.Pairs {
		if l := p.Value; p.Name == "" && l.Name != nil && !l.At && len(l.Name.Rest) == 0 {
			if _, ok := ev.names[l.Name.Head]; ok {
				c.errorf(p.Pos, "bind the annotation instead, "+what+"(formal), and read its value in the advice",
					"%s(): binding an annotation's value to a formal is not supported yet", what)
				return false
			}
		}
	}
	if what == "@this" || what == "@target" || what == "@args" {
		c.errorf(vs.Pos, "bind the annotation, "+what+"(formal), and test its values in the advice or an if()",
			"%s(): value patterns are matched statically; %s tests the class of a value at run time", what, what)
		return false
	}
	return true
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
