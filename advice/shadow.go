package advice

import "github.com/weft-aop/weft/classfile"

// ShadowKind is the kind of a join point shadow.
type ShadowKind int

const (
	MethodCall           ShadowKind = iota // invoke* of a non-constructor
	MethodExecution                        // a method body
	ConstructorCall                        // new … invokespecial <init>
	ConstructorExecution                   // a constructor body after super(...)/this(...)
	ArrayConstruction                      // newarray, anewarray, multianewarray
)

// String gives the kind as AspectJ's -showWeaveInfo writes it.
func (k ShadowKind) String() string {
	return [...]string{"method-call", "method-execution", "constructor-call",
		"constructor-execution", "array-construction"}[k]
}

// KindSet is a set of shadow kinds, one bit per ShadowKind.
type KindSet uint8

// AllKinds holds every shadow kind.
const AllKinds KindSet = 1<<(ArrayConstruction+1) - 1

// Has reports whether k is in the set.
func (s KindSet) Has(k ShadowKind) bool { return s&(1<<k) != 0 }

// Member is a method or constructor at a shadow.
type Member struct {
	Owner  string // declaring type, internal name; for array construction the array descriptor, e.g. "[[I"
	Name   string // "<init>" for constructors and array construction
	Desc   string // method descriptor; for array construction "(I…I)V", one int per dimension given
	Access uint16 // modifiers; meaningful only if AccessKnown
	// AccessKnown is false for a call whose target member could not be resolved.
	AccessKnown bool
	Exceptions  []string // throws clause, internal names (execution: from the Exceptions attribute)
}

// Shadow is one place in bytecode where a join point may occur.
type Shadow struct {
	Kind   ShadowKind
	Within string // internal name of the class holding the code
	// Code is the method whose body holds the shadow (withincode); for
	// execution shadows it is the executed member itself.
	Code   Member
	Member Member // the called, constructed or executed member
	// Static is true when the shadow has no `this` (static code) – and for
	// calls, when the call has no target (invokestatic, constructor call).
	StaticThis   bool
	StaticTarget bool
}

// ReturnedDesc is the static type of the value a join point returns: the
// new object for constructor calls and array construction, "V" for none
// (and for a malformed descriptor).
func (s *Shadow) ReturnedDesc() string {
	switch s.Kind {
	case ConstructorCall:
		return string(classfile.ObjectType(s.Member.Owner))
	case ArrayConstruction:
		return s.Member.Owner
	case ConstructorExecution:
		return "V"
	}
	if ret := classfile.ReturnType(s.Member.Desc); ret != "" {
		return string(ret)
	}
	return "V"
}

// MethodHierarchy is a classfile.Hierarchy that also knows which methods a
// class declares. Given one, a Matcher matches `call` and `execution`
// through every supertype that has a method of the same name and parameter
// types, whatever its return type (covariant overriding), as AspectJ's join
// point signatures do (a call to HashMap.put also has the signature
// Map.put). Given a plain Hierarchy, only the static owner's signature is
// matched (plus `+` patterns, which still see all supertypes).
type MethodHierarchy interface {
	classfile.Hierarchy
	// DeclaredMethods returns the methods named name that class itself
	// declares, in class file order, bridge methods included (Owner, Name,
	// Desc, Access and Exceptions filled), and false if the class is
	// unknown.
	DeclaredMethods(class, name string) ([]Member, bool)
	// Bridges returns the descriptors of the bridge methods of class that
	// call its method name+desc: the erased signatures the method
	// overrides where they differ from its own (a generic parameter, a
	// covariant return), as javac writes them.
	Bridges(class, name, desc string) []string
}
