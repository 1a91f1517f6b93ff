package advice

import "github.com/weft-aop/weft/classfile"

// Parents is a `declare parents` of an aspect: the classes its type
// pattern matches implement Interface, and when Impl is set, the methods
// of Interface a class does not have are delegated to an instance of Impl
// the class makes on first use, one per object (AspectJ's @DeclareParents
// with defaultImpl).
type Parents struct {
	Interface string // internal name
	Impl      string // internal name of the delegate's class, "" for a marker
	Aspect    string
	File      string // .weft file
	Line      int    // of the declaration
}

// ParentsDeclarer is implemented by a Matcher whose aspects declare
// parents. The weaver gives the classes their new interfaces, and the
// hierarchy matching sees (weaver.MethodHierarchy) reports them, so that
// this(I), target(I) and I+ match the classes as they will be.
type ParentsDeclarer interface {
	// DeclaredParents returns the declarations whose type pattern
	// matches class, in declaration order; h is the hierarchy as the
	// class files declare it, without declared parents.
	DeclaredParents(class *classfile.ClassInfo, h classfile.Hierarchy) []*Parents
	// DeclaresParents reports whether there are any.
	DeclaresParents() bool
}

// DeclaresParents reports whether m declares parents.
func DeclaresParents(m Matcher) (ParentsDeclarer, bool) {
	if d, ok := m.(ParentsDeclarer); ok && d.DeclaresParents() {
		return d, true
	}
	return nil, false
}
