package advice

import "github.com/weft-aop/weft/classfile"

// Declare is a `declare warning` or `declare error` of an aspect: a
// message the weaver reports at each shadow its pointcut matches, where it
// matches statically (such pointcuts have no run-time tests). An error
// fails the weaving.
type Declare struct {
	Error   bool
	Message string
	Aspect  string
	File    string // .weft file
	Line    int    // of the declaration
	Column  int
}

// Checker is implemented by a Matcher whose aspects declare warnings or
// errors. The weaver asks it at every shadow of the kinds it names, advised
// or not.
type Checker interface {
	// Declared returns the declarations that apply at s, in declaration
	// order.
	Declared(s *Shadow, h classfile.Hierarchy) []*Declare
	// DeclaredKinds returns the shadow kinds some declaration can match
	// (none: the weaver need not ask).
	DeclaredKinds() KindSet
}
