package weaver

import (
	"github.com/weft-aop/weft/classfile"
)

// annotations is what a class's annotations attributes say, visible and
// invisible (class-retention) alike, as annotation type descriptors: the
// matcher matches both statically, as AspectJ does. Only annotated members
// have an entry.
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
	d := mh.class(class)
	if d == nil {
		return nil, false
	}
	return d.annots.class, true
}

// MemberAnnotations implements advice.AnnotationHierarchy.
func (mh *MethodHierarchy) MemberAnnotations(class, name, desc string) ([]string, [][]string, bool) {
	d := mh.class(class)
	if d == nil {
		return nil, nil, false
	}
	if m := d.annots.members[name+desc]; m != nil {
		return m.anns, m.params, true
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
