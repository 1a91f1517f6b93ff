package advice

import (
	"strconv"

	"github.com/weft-aop/weft/classfile"
)

// AnnotationHierarchy is implemented by a MethodHierarchy that also reads
// the annotations classes and their members carry, so that a Matcher can
// match annotation patterns and @within, @annotation and the like
// statically, as AspectJ does. Annotations are given by type, as field
// descriptors ("Lcom/example/Timed;"), runtime-visible and class-retention
// (RuntimeInvisible) ones alike.
type AnnotationHierarchy interface {
	MethodHierarchy
	// ClassAnnotations returns the annotations of class itself (not its
	// supertypes'), and false if the class is unknown.
	ClassAnnotations(class string) ([]string, bool)
	// MemberAnnotations returns the annotations of the method, constructor
	// or field name with descriptor desc that class declares, and of each
	// of its parameters (params[i] for parameter i; shorter than the
	// parameter list when trailing parameters have none). ok is false if
	// class or the member is unknown.
	MemberAnnotations(class, name, desc string) (anns []string, params [][]string, ok bool)
	// AnnotationValues returns the element values written in the
	// annotation of type ann (a descriptor) at site: the class itself
	// when site.Name is "", else the member, or with param >= 0 that
	// parameter of the method. Elements left to their defaults are
	// absent (see ElementDefault); ok is false if there is no such
	// annotation.
	AnnotationValues(site AnnotationSite, param int, ann string) (values map[string]AnnotationValue, ok bool)
	// ElementDefault returns the default value of the element name of
	// the annotation type ann (a descriptor), and false if it has none
	// or the type is unknown.
	ElementDefault(ann, name string) (AnnotationValue, bool)
}

// AnnotationSite is where an annotation bound to an advice formal is read
// at run time, for the static annotation values (MemberAnnotation,
// WithinAnnotation, WithincodeAnnotation): the class and, for a member,
// its name and descriptor ("" for the class itself).
type AnnotationSite struct {
	Class string // internal name
	Name  string // method, "<init>" or field name; "" for the class
	Desc  string // method or field descriptor
}

// AnnotationValue is the value of an annotation element as annotation
// value patterns compare it (`@Foo(level=p.Level.HIGH)`): Tag is the class
// file's element_value tag (B C D F I J S Z s e c @ [) and Text the value
// in a canonical form, so that a pattern's literal equals it exactly when
// the values are equal:
//
//	B S I J     decimal ("-3")
//	F D         shortest decimal that reads back ("2.5", "1e+10", "NaN")
//	C           the character itself
//	Z           "true" or "false"
//	s           the string itself
//	e           the enum's descriptor and the constant ("Lp/Level;HIGH")
//	c           the class's descriptor ("Ljava/lang/String;", "I", "V")
//	@           the nested annotation's type descriptor (its values are not compared)
//	[           "" (arrays are not compared)
type AnnotationValue struct {
	Tag  byte
	Text string
}

// NewAnnotationValue returns the AnnotationValue of an element_value of a
// class whose constant pool is pool.
func NewAnnotationValue(pool *classfile.Pool, v *classfile.ElementValue) AnnotationValue {
	a := AnnotationValue{Tag: v.Tag}
	switch v.Tag {
	case 'B', 'S', 'I':
		a.Text = strconv.Itoa(int(pool.Int(v.Index)))
	case 'J':
		a.Text = strconv.FormatInt(pool.Long(v.Index), 10)
	case 'C':
		a.Text = string(rune(pool.Int(v.Index)))
	case 'Z':
		a.Text = strconv.FormatBool(pool.Int(v.Index) != 0)
	case 'F':
		a.Text = strconv.FormatFloat(float64(pool.Float(v.Index)), 'g', -1, 32)
	case 'D':
		a.Text = strconv.FormatFloat(pool.Double(v.Index), 'g', -1, 64)
	case 's', 'c':
		a.Text = pool.Utf8(v.Index)
	case 'e':
		a.Text = pool.Utf8(v.Index) + pool.Utf8(v.EnumConst)
	case '@':
		if v.Annotation != nil {
			a.Text = pool.Utf8(v.Annotation.Type)
		}
	}
	return a
}
