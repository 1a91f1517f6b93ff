package classfile

import (
	"errors"
	"fmt"
)

// ClassInfo is the header information about a class that frame computation
// and type-pattern matching need.
type ClassInfo struct {
	Name       string // internal name, e.g. "java/util/HashMap"
	Super      string // "" for java/lang/Object and interfaces' absent super
	Interfaces []string
	Access     uint16
}

// IsInterface reports whether the class is an interface.
func (ci *ClassInfo) IsInterface() bool { return ci.Access&AccInterface != 0 }

// Hierarchy answers questions about classes by internal name. It is safe for
// concurrent use. Implementations cache: frame computation asks often.
type Hierarchy interface {
	// Lookup returns the header of the named class, or an error wrapping
	// ErrClassNotFound if no source has it.
	Lookup(name string) (*ClassInfo, error)
}

// ErrClassNotFound is returned (wrapped) by Hierarchy.Lookup for unknown classes.
var ErrClassNotFound = fmt.Errorf("class not found")

// UnknownTypeError is the error of a frame computation that needed the
// common superclass of A and B, where the hierarchy does not know Missing
// (A, B or one of their superclasses). The frames are not written: a guess
// (java/lang/Object) is what the verifier rejects wherever the code needs
// the real type. The weaver then leaves the method unwoven.
type UnknownTypeError struct {
	A, B    string
	Missing string
	Err     error // the hierarchy's own error
}

func (e *UnknownTypeError) Error() string {
	if errors.Is(e.Err, ErrClassNotFound) {
		return fmt.Sprintf("the frames need the common superclass of %s and %s, and %s is not found", e.A, e.B, e.Missing)
	}
	return fmt.Sprintf("the frames need the common superclass of %s and %s, and %s cannot be read: %v", e.A, e.B, e.Missing, e.Err)
}

func (e *UnknownTypeError) Unwrap() error { return e.Err }
