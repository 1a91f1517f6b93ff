package classfile

// This file is the one model of Java types as descriptors write them (JVMS
// §4.3), as ASM's Type is: field and method descriptors are parsed here and
// nowhere else, and a type tells what it implies for code: its size in
// slots, its load, store and return instructions, its verification type,
// its wrapper class and the methods that box and unbox it.

import (
	"fmt"
	"strings"
)

// Type is a field type, or void, written as its descriptor: "I", "V",
// "Ljava/lang/String;", "[[J". Being the descriptor itself, it converts to
// and from a string for free. ParseType and ParseMethodDesc check a
// descriptor; the methods of a Type expect a valid one: on anything else
// their results mean nothing, but they do not panic.
type Type string

// The primitive types and void.
const (
	Boolean Type = "Z"
	Byte    Type = "B"
	Char    Type = "C"
	Short   Type = "S"
	Int     Type = "I"
	Float   Type = "F"
	Long    Type = "J"
	Double  Type = "D"
	Void    Type = "V"
)

// MaxArrayDims is the largest number of dimensions of an array type (JVMS
// §4.3.2).
const MaxArrayDims = 255

// MethodType is a parsed method descriptor.
type MethodType struct {
	Params []Type
	Return Type // Void for a method returning nothing
}

// DescriptorError reports a malformed descriptor: Offset is that of the
// first byte that is wrong (len(Desc) if it ends too soon).
type DescriptorError struct {
	Desc   string
	Method bool // a method descriptor was expected, not a field descriptor
	Offset int
}

func (e *DescriptorError) Error() string {
	kind := "field"
	if e.Method {
		kind = "method"
	}
	return fmt.Sprintf("malformed %s descriptor %q at offset %d", kind, e.Desc, e.Offset)
}

// ObjectType returns the type a Class constant names: given an internal
// class name ("java/lang/String") the class type, given an array
// descriptor ("[I") the array type.
func ObjectType(name string) Type {
	if strings.HasPrefix(name, "[") {
		return Type(name)
	}
	return Type("L" + name + ";")
}

// ParseType checks a field descriptor (void is not a field type).
func ParseType(desc string) (Type, error) {
	if bad := typeRest(desc, 0); bad >= 0 || desc == "V" {
		return "", &DescriptorError{Desc: desc, Offset: max(bad, 0)}
	}
	return Type(desc), nil
}

// ParseMethodDesc splits a method descriptor into its parameter types and
// return type.
func ParseMethodDesc(desc string) (MethodType, error) {
	var m MethodType
	for i := 1; ; {
		t, next := nextParam(desc, i)
		if next < 0 {
			return MethodType{}, &DescriptorError{Desc: desc, Method: true, Offset: -next - 1}
		}
		if t == "" {
			if bad := typeRest(desc, next+1); bad >= 0 {
				return MethodType{}, &DescriptorError{Desc: desc, Method: true, Offset: bad}
			}
			m.Return = Type(desc[next+1:])
			return m, nil
		}
		m.Params = append(m.Params, t)
		i = next
	}
}

// ArgSlots returns the number of local-variable slots the parameters of a
// method descriptor take (long and double take two). Of a malformed
// descriptor it counts the parameters before the malformed one.
func ArgSlots(desc string) int {
	n := 0
	for i := 1; ; {
		t, next := nextParam(desc, i)
		if t == "" {
			return n
		}
		n += t.Size()
		i = next
	}
}

// ReturnType returns the return type of a method descriptor, or "" if the
// descriptor is malformed.
func ReturnType(desc string) Type {
	for i := 1; ; {
		t, next := nextParam(desc, i)
		switch {
		case next < 0:
			return ""
		case t == "" && typeRest(desc, next+1) >= 0:
			return ""
		case t == "":
			return Type(desc[next+1:])
		}
		i = next
	}
}

// nextParam reads the parameter type at desc[i] of a method descriptor,
// whose parameters start at index 1, and returns it with the index after
// it. At the ')' closing the parameters it returns "" and the index of the
// ')'; at a malformed byte, "" and -1-offset. Every reader of method
// descriptors loops over it.
func nextParam(desc string, i int) (Type, int) {
	switch {
	case !strings.HasPrefix(desc, "("):
		return "", -1
	case i >= len(desc):
		return "", -1 - len(desc)
	case desc[i] == ')':
		return "", i
	}
	end := typeEnd(desc, i)
	if end < 0 {
		return "", end
	}
	if desc[i] == 'V' {
		return "", -1 - i
	}
	return Type(desc[i:end]), end
}

// typeRest checks that desc[i:] is one field type or void: it returns -1
// if so, else the offset of the first wrong byte.
func typeRest(desc string, i int) int {
	switch end := typeEnd(desc, i); {
	case end < 0:
		return -end - 1
	case end != len(desc):
		return end
	}
	return -1
}

// typeEnd returns the index after the field type or void whose descriptor
// starts at desc[i], or -1-offset of the first malformed byte. It is the
// scanner every descriptor parser uses.
func typeEnd(desc string, i int) int {
	j := i
	for j < len(desc) && desc[j] == '[' {
		j++
	}
	if j-i > MaxArrayDims {
		return -1 - (i + MaxArrayDims)
	}
	if j >= len(desc) {
		return -1 - j
	}
	switch desc[j] {
	case 'Z', 'B', 'C', 'S', 'I', 'F', 'J', 'D':
		return j + 1
	case 'V':
		if j == i { // void[] is no type
			return j + 1
		}
	case 'L':
		k := strings.IndexByte(desc[j+1:], ';')
		if k < 0 {
			return -1 - len(desc)
		}
		name := desc[j+1 : j+1+k]
		if name == "" {
			return -1 - (j + 1)
		}
		if bad := strings.IndexAny(name, ".["); bad >= 0 {
			return -1 - (j + 1 + bad)
		}
		return j + 1 + k + 1
	}
	return -1 - j
}

// KeywordType returns the type a Java keyword names: a primitive type
// ("int") or void.
func KeywordType(keyword string) (Type, bool) {
	for i, k := range keywords {
		if k == keyword {
			return Type(primitives[i : i+1]), true
		}
	}
	return "", false
}

// NewarrayType returns the element type of the arrays a newarray
// instruction with operand atype creates (4 boolean … 11 long).
func NewarrayType(atype int32) (Type, bool) {
	if atype < 4 || atype > 11 {
		return "", false
	}
	return Type(newarrayTypes[atype-4 : atype-3]), true
}

// primitives lists the primitive types and void; keywords, wrappers and
// unboxers are indexed like it.
const primitives = "ZBCSIFJDV"

var (
	keywords = [...]string{"boolean", "byte", "char", "short", "int", "float", "long", "double", "void"}
	wrappers = [...]string{"java/lang/Boolean", "java/lang/Byte", "java/lang/Character", "java/lang/Short",
		"java/lang/Integer", "java/lang/Float", "java/lang/Long", "java/lang/Double"}
	unboxers = [...]string{"booleanValue", "byteValue", "charValue", "shortValue",
		"intValue", "floatValue", "longValue", "doubleValue"}
)

// newarrayTypes holds the element types of newarray's atypes 4 to 11.
const newarrayTypes = "ZCFDBSIJ"

// primitive returns the index of t in primitives, or -1 if t is not a
// primitive type (void excluded).
func (t Type) primitive() int {
	if len(t) != 1 || t == Void {
		return -1
	}
	return strings.IndexByte(primitives, t[0])
}

// IsPrimitive reports whether t is one of the eight primitive types.
func (t Type) IsPrimitive() bool { return t.primitive() >= 0 }

// IsReference reports whether t is a class or array type.
func (t Type) IsReference() bool { return len(t) > 1 && (t[0] == 'L' || t[0] == '[') }

// IsArray reports whether t is an array type.
func (t Type) IsArray() bool { return len(t) > 1 && t[0] == '[' }

// Dims returns the number of dimensions of an array type, 0 for others.
func (t Type) Dims() int {
	n := 0
	for n < len(t) && t[n] == '[' {
		n++
	}
	return n
}

// Component returns the type of an array's components (one dimension
// less), or "" if t is not an array.
func (t Type) Component() Type {
	if !t.IsArray() {
		return ""
	}
	return t[1:]
}

// Element returns the element type of an array (all dimensions stripped),
// or t itself if it is not an array.
func (t Type) Element() Type { return t[t.Dims():] }

// Size returns the number of local-variable or operand-stack slots a value
// of type t takes: 2 for long and double, 0 for void, 1 for the others.
func (t Type) Size() int {
	switch t {
	case Long, Double:
		return 2
	case Void, "":
		return 0
	}
	return 1
}

// InternalName returns what a Class constant holds for t: the internal name
// of a class type ("java/lang/String"); an array type's descriptor as it is
// ("[I"); for a primitive type, its descriptor.
func (t Type) InternalName() string {
	if len(t) > 2 && t[0] == 'L' && t[len(t)-1] == ';' {
		return string(t[1 : len(t)-1])
	}
	return string(t)
}

// JavaName returns t as Java source (and AspectJ) writes it: "int",
// "java.lang.String[]", "java.util.Map$Entry".
func (t Type) JavaName() string {
	dims := t.Dims()
	e := t[dims:]
	var s string
	if i := strings.IndexByte(primitives, firstByte(e)); len(e) == 1 && i >= 0 {
		s = keywords[i]
	} else {
		s = strings.ReplaceAll(e.InternalName(), "/", ".")
	}
	return s + strings.Repeat("[]", dims)
}

func firstByte(t Type) byte {
	if t == "" {
		return 0
	}
	return t[0]
}

// LoadOp returns the instruction that loads a local variable of type t:
// iload for boolean, byte, char, short and int, aload for references.
func (t Type) LoadOp() uint16 {
	switch t {
	case Long:
		return OpLload
	case Float:
		return OpFload
	case Double:
		return OpDload
	case Boolean, Byte, Char, Short, Int:
		return OpIload
	}
	return OpAload
}

// StoreOp returns the instruction that stores into a local variable of
// type t (the JVM numbers each xstore as its xload plus a constant).
func (t Type) StoreOp() uint16 { return t.LoadOp() + OpIstore - OpIload }

// ReturnOp returns the instruction that returns a value of type t: return
// for void.
func (t Type) ReturnOp() uint16 {
	if t == Void {
		return OpReturn
	}
	return t.LoadOp() + OpIreturn - OpIload
}

// VType returns the verification type of a value of type t: Integer for
// the int-like types, an Object of the class or array for references, Top
// for void.
func (t Type) VType() VType {
	switch t {
	case Boolean, Byte, Char, Short, Int:
		return VType{Kind: VInteger}
	case Float:
		return VType{Kind: VFloat}
	case Long:
		return VType{Kind: VLong}
	case Double:
		return VType{Kind: VDouble}
	}
	if t.IsReference() {
		return VType{Kind: VObject, Class: t.InternalName()}
	}
	return VType{Kind: VTop}
}

// Boxed returns the wrapper class type of a primitive type
// ("Ljava/lang/Integer;" for int), and any other type unchanged.
func (t Type) Boxed() Type {
	if i := t.primitive(); i >= 0 {
		return ObjectType(wrappers[i])
	}
	return t
}

// Unboxed returns the primitive type a wrapper class type wraps (int for
// "Ljava/lang/Integer;"), and any other type unchanged.
func (t Type) Unboxed() Type {
	if len(t) > 12 && strings.HasPrefix(string(t), "Ljava/lang/") {
		name := t.InternalName()
		for i, w := range wrappers {
			if w == name {
				return Type(primitives[i : i+1])
			}
		}
	}
	return t
}

// BoxMethod returns the static method that boxes a value of primitive
// type t: ("java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;") for
// int; empty strings for other types.
func (t Type) BoxMethod() (owner, name, desc string) {
	i := t.primitive()
	if i < 0 {
		return "", "", ""
	}
	return wrappers[i], "valueOf", "(" + string(t) + ")" + string(t.Boxed())
}

// UnboxMethod returns the virtual method of the wrapper class that unboxes
// a value of primitive type t: ("java/lang/Integer", "intValue", "()I")
// for int; empty strings for other types.
func (t Type) UnboxMethod() (owner, name, desc string) {
	i := t.primitive()
	if i < 0 {
		return "", "", ""
	}
	return wrappers[i], unboxers[i], "()" + string(t)
}
