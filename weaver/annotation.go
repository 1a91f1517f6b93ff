package weaver

import (
	"github.com/weft-aop/weft/classfile"
)

// annotations is what a class's annotations attributes say, visible and
// invisible (class-retention) alike, as annotation type descriptors: the
// matcher matches both statically, as AspectJ does. Only annotated members
// have an entry. A MethodHierarchy reads them on first request only (most
// pointcuts never ask), parsing the class again.
type annotations struct {
	class   []string
	members map[string]*memberAnnotations // name+desc
}

type memberAnnotations struct {
	anns   []string
	params [][]string
}

// ClassAnnotations implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) ClassAnnotations(class string) ([]string, bool) {
	a := mh.annotations(class)
	if a == nil {
		return nil, false
	}
	return a.class, true
}

// MemberAnnotations implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) MemberAnnotations(class, name, desc string) ([]string, [][]string, bool) {
	a := mh.annotations(class)
	if a == nil {
		return nil, nil, false
	}
	if m := a.members[name+desc]; m != nil {
		return m.anns, m.params, true
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

// readAnnotations collects the annotations of c and its members.
func readAnnotations(c *classfile.Class) annotations {
	a := annotations{class: annotationTypes(c, c.Attributes)}
	add := func(m *classfile.Member) {
		anns := annotationTypes(c, m.Attributes)
		params := paramAnnotationTypes(c, m.Attributes)
		if anns == nil && params == nil {
			return
		}
		if a.members == nil {
			a.members = map[string]*memberAnnotations{}
		}
		a.members[c.MemberName(m)+c.MemberDesc(m)] = &memberAnnotations{anns: anns, params: params}
	}
	for _, f := range c.Fields {
		add(f)
	}
	for _, m := range c.Methods {
		add(m)
	}
	return a
}

// annotationTypes returns the types of the annotations in attrs.
func annotationTypes(c *classfile.Class, attrs []classfile.Attribute) []string {
	var out []string
	for i := range attrs {
		switch c.Pool.Utf8(attrs[i].Name) {
		case "RuntimeVisibleAnnotations", "RuntimeInvisibleAnnotations":
			v, err := classfile.DecodeAttr(c, &attrs[i])
			if err != nil {
				continue
			}
			for _, an := range v.(*classfile.Annotations).Annotations {
				out = append(out, c.Pool.Utf8(an.Type))
			}
		}
	}
	return out
}

// paramAnnotationTypes returns the types of the parameter annotations in
// attrs, by parameter.
func paramAnnotationTypes(c *classfile.Class, attrs []classfile.Attribute) [][]string {
	var out [][]string
	for i := range attrs {
		switch c.Pool.Utf8(attrs[i].Name) {
		case "RuntimeVisibleParameterAnnotations", "RuntimeInvisibleParameterAnnotations":
			v, err := classfile.DecodeAttr(c, &attrs[i])
			if err != nil {
				continue
			}
			for k, anns := range v.(*classfile.ParameterAnnotations).Params {
				for len(out) <= k {
					out = append(out, nil)
				}
				for _, an := range anns {
					out[k] = append(out[k], c.Pool.Utf8(an.Type))
				}
			}
		}
	}
	return out
}
