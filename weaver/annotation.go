package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// annotations is what a class's annotations attributes say, visible and
// invisible (class-retention) alike, as annotation type descriptors and
// the element values each gives: the matcher matches both statically, as
// AspectJ does. Only annotated members have an entry. A MethodHierarchy
// reads them on first request only (most pointcuts never ask), parsing
// the class again.
type annotations struct {
	class    annotationSet
	members  map[string]*memberAnnotations     // name+desc
	defaults map[string]advice.AnnotationValue // an annotation type's element defaults
}

type memberAnnotations struct {
	anns   annotationSet
	params [][]string      // the parameters' annotation types
	values []annotationSet // the parameters' annotations with values
}

// annotationSet is the annotations of one class, member or parameter:
// their types and, where an annotation gives any, its element values.
type annotationSet struct {
	types  []string
	values []map[string]advice.AnnotationValue // values[i] of types[i]; nil when none has values
}

func (s *annotationSet) add(c *classfile.Class, an *classfile.Annotation) {
	s.types = append(s.types, c.Pool.Utf8(an.Type))
	if len(an.Elements) == 0 {
		return
	}
	for len(s.values) < len(s.types) {
		s.values = append(s.values, nil)
	}
	m := make(map[string]advice.AnnotationValue, len(an.Elements))
	for i := range an.Elements {
		e := &an.Elements[i]
		m[c.Pool.Utf8(e.Name)] = advice.NewAnnotationValue(c.Pool, &e.Value)
	}
	s.values[len(s.types)-1] = m
}

// valuesOf returns the values of the annotation of type ann.
func (s *annotationSet) valuesOf(ann string) (map[string]advice.AnnotationValue, bool) {
	for i, t := range s.types {
		if t == ann {
			if i < len(s.values) {
				return s.values[i], true
			}
			return nil, true
		}
	}
	return nil, false
}

// ClassAnnotations implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) ClassAnnotations(class string) ([]string, bool) {
	a := mh.annotations(class)
	if a == nil {
		return nil, false
	}
	return a.class.types, true
}

// MemberAnnotations implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) MemberAnnotations(class, name, desc string) ([]string, [][]string, bool) {
	a := mh.annotations(class)
	if a == nil {
		return nil, nil, false
	}
	if m := a.members[name+desc]; m != nil {
		return m.anns.types, m.params, true
	}
	d := mh.class(class)
	if d == nil {
		return nil, nil, false
	}
	if _, ok := d.fields[name+":"+desc]; ok {
		return nil, nil, true
	}
	for _, m := range d.methods[name] {
		if m.Desc == desc {
			return nil, nil, true
		}
	}
	return nil, nil, false
}

// AnnotationValues implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) AnnotationValues(site advice.AnnotationSite, param int, ann string) (map[string]advice.AnnotationValue, bool) {
	a := mh.annotations(site.Class)
	if a == nil {
		return nil, false
	}
	if site.Name == "" {
		return a.class.valuesOf(ann)
	}
	m := a.members[site.Name+site.Desc]
	switch {
	case m == nil:
		return nil, false
	case param < 0:
		return m.anns.valuesOf(ann)
	case param < len(m.values):
		return m.values[param].valuesOf(ann)
	}
	return nil, false
}

// ElementDefault implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) ElementDefault(ann, name string) (advice.AnnotationValue, bool) {
	t := classfile.Type(ann)
	if !t.IsReference() || t.IsArray() {
		return advice.AnnotationValue{}, false
	}
	a := mh.annotations(t.InternalName())
	if a == nil {
		return advice.AnnotationValue{}, false
	}
	v, ok := a.defaults[name]
	return v, ok
}

// annotations returns the annotations of class, read once (two goroutines
// may both read them; one result is kept).
func (mh *MethodHierarchy) annotations(class string) *annotations {
	if a, ok := mh.annots.Load(class); ok {
		return a.(*annotations)
	}
	var a *annotations
	for _, s := range mh.sources {
		b, err := s.Class(class)
		if err != nil {
			continue
		}
		if c, err := classfile.Parse(class, b); err == nil {
			r := readAnnotations(c)
			a = &r
		}
		break
	}
	v, _ := mh.annots.LoadOrStore(class, a)
	return v.(*annotations)
}

// readAnnotations collects the annotations of c and its members, and for
// an annotation type its elements' defaults.
func readAnnotations(c *classfile.Class) annotations {
	a := annotations{class: annotationsOf(c, c.Attributes)}
	add := func(m *classfile.Member) {
		anns := annotationsOf(c, m.Attributes)
		params := paramAnnotations(c, m.Attributes)
		if anns.types == nil && params == nil {
			return
		}
		if a.members == nil {
			a.members = map[string]*memberAnnotations{}
		}
		ma := &memberAnnotations{anns: anns, values: params}
		for _, p := range params {
			ma.params = append(ma.params, p.types)
		}
		a.members[c.MemberName(m)+c.MemberDesc(m)] = ma
	}
	for _, f := range c.Fields {
		add(f)
	}
	for _, m := range c.Methods {
		add(m)
		if c.Access&classfile.AccAnnotation == 0 {
			continue
		}
		if v, err := c.FindAttr(m.Attributes, "AnnotationDefault"); err == nil && v != nil {
			if a.defaults == nil {
				a.defaults = map[string]advice.AnnotationValue{}
			}
			a.defaults[c.MemberName(m)] = advice.NewAnnotationValue(c.Pool, &v.(*classfile.AnnotationDefault).Value)
		}
	}
	return a
}

// annotationsOf returns the annotations in attrs.
func annotationsOf(c *classfile.Class, attrs []classfile.Attribute) annotationSet {
	var out annotationSet
	for i := range attrs {
		switch c.Pool.Utf8(attrs[i].Name) {
		case "RuntimeVisibleAnnotations", "RuntimeInvisibleAnnotations":
			v, err := classfile.DecodeAttr(c, &attrs[i])
			if err != nil {
				continue
			}
			anns := v.(*classfile.Annotations).Annotations
			for j := range anns {
				out.add(c, &anns[j])
			}
		}
	}
	return out
}

// paramAnnotations returns the parameter annotations in attrs, by
// parameter.
func paramAnnotations(c *classfile.Class, attrs []classfile.Attribute) []annotationSet {
	var out []annotationSet
	for i := range attrs {
		switch c.Pool.Utf8(attrs[i].Name) {
		case "RuntimeVisibleParameterAnnotations", "RuntimeInvisibleParameterAnnotations":
			v, err := classfile.DecodeAttr(c, &attrs[i])
			if err != nil {
				continue
			}
			for k, anns := range v.(*classfile.ParameterAnnotations).Params {
				for len(out) <= k {
					out = append(out, annotationSet{})
				}
				for j := range anns {
					out[k].add(c, &anns[j])
				}
			}
		}
	}
	return out
}
