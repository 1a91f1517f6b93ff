package classfile

import (
	"encoding/binary"
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

// ReadClassInfo reads the header of a class file up to its interfaces,
// skipping over the constant pool without decoding it: a small fraction of
// Parse's work for the questions a Hierarchy answers. name labels errors,
// which are *FormatError.
func ReadClassInfo(name string, b []byte) (*ClassInfo, error) {
	fail := func(off int, format string, args ...any) (*ClassInfo, error) {
		return nil, &FormatError{Class: name, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	if len(b) < 10 {
		return fail(0, "truncated: %d bytes is no class file", len(b))
	}
	if binary.BigEndian.Uint32(b) != 0xCAFEBABE {
		return fail(0, "bad magic number")
	}
	count := int(binary.BigEndian.Uint16(b[8:]))
	if count == 0 {
		return fail(8, "constant_pool_count is 0")
	}
	// Offsets of the entries; bounded by the input like parsePool.
	if count-1 > len(b)/3+1 {
		return fail(8, "constant_pool_count %d exceeds the class size", count)
	}
	offs := make([]int32, count)
	p := 10
	for i := 1; i < count; i++ {
		if p >= len(b) {
			return fail(p, "truncated constant pool at entry %d", i)
		}
		offs[i] = int32(p)
		n, wide := entryLen(b, p)
		switch {
		case n == 0:
			return fail(p, "constant pool entry %d has unknown tag %d", i, b[p])
		case b[p] == TagUtf8 && p+3 > len(b):
			return fail(p, "truncated constant pool at entry %d", i)
		}
		p += n
		if wide {
			i++
		}
	}
	if p+8 > len(b) {
		return fail(p, "truncated after the constant pool")
	}
	className := func(at, idx int) (string, error) {
		if idx <= 0 || idx >= count || offs[idx] == 0 || b[offs[idx]] != TagClass {
			return "", &FormatError{Class: name, Offset: at, Msg: fmt.Sprintf("%d is not a Class constant", idx)}
		}
		u := int(binary.BigEndian.Uint16(b[offs[idx]+1:]))
		if u <= 0 || u >= count || offs[u] == 0 || b[offs[u]] != TagUtf8 {
			return "", &FormatError{Class: name, Offset: int(offs[idx]), Msg: fmt.Sprintf("Class constant %d names %d, not a Utf8 constant", idx, u)}
		}
		o := int(offs[u])
		n := int(binary.BigEndian.Uint16(b[o+1:]))
		if o+3+n > len(b) {
			return "", &FormatError{Class: name, Offset: o, Msg: "truncated Utf8 constant"}
		}
		return string(b[o+3 : o+3+n]), nil
	}
	ci := &ClassInfo{Access: binary.BigEndian.Uint16(b[p:])}
	var err error
	if ci.Name, err = className(p+2, int(binary.BigEndian.Uint16(b[p+2:]))); err != nil {
		return nil, err
	}
	if super := int(binary.BigEndian.Uint16(b[p+4:])); super != 0 {
		if ci.Super, err = className(p+4, super); err != nil {
			return nil, err
		}
	}
	n := int(binary.BigEndian.Uint16(b[p+6:]))
	p += 8
	if p+2*n > len(b) {
		return fail(p-2, "interfaces_count %d exceeds the remaining %d bytes", n, len(b)-p)
	}
	if n > 0 {
		ci.Interfaces = make([]string, n)
		for i := range ci.Interfaces {
			if ci.Interfaces[i], err = className(p, int(binary.BigEndian.Uint16(b[p:]))); err != nil {
				return nil, err
			}
			p += 2
		}
	}
	return ci, nil
}
