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
	FieldGet                               // getfield, getstatic
	FieldSet                               // putfield, putstatic
	ExceptionHandler                       // the start of a catch block (one per exception table entry with a type)
	StaticInitialization                   // a class's <clinit>
	PreInitialization                      // a constructor calling super(...), up to that call
	Initialization                         // a constructor calling super(...), after that call
)

// String gives the kind as AspectJ's -showWeaveInfo writes it.
func (k ShadowKind) String() string {
	return [...]string{"method-call", "method-execution", "constructor-call",
		"constructor-execution", "array-construction", "field-get", "field-set",
		"exception-handler", "staticinitialization", "preinitialization", "initialization"}[k]
}

// IsField reports whether k is a field access (get or set).
func (k ShadowKind) IsField() bool { return k == FieldGet || k == FieldSet }

// KindSet is a set of shadow kinds, one bit per ShadowKind.
type KindSet uint16

// AllKinds holds every shadow kind.
const AllKinds KindSet = 1<<(Initialization+1) - 1

// Has reports whether k is in the set.
func (s KindSet) Has(k ShadowKind) bool { return s&(1<<k) != 0 }

// Member is a method, constructor or field at a shadow.
//
// For a field access (FieldGet, FieldSet) it is the field as the JVM
// resolves the instruction's reference (JVMS 5.4.3.2), as ajc does: Owner
// is the class or interface that declares the field (app/A for a getfield
// of app/B.x when B inherits x from A), Name its name, Desc its field
// descriptor ("I", "Ljava/lang/String;") and Access its modifiers.
//
// For an exception handler it is AspectJ's handler signature: Owner is the
// class holding the catch block, Name "<catch>" and Desc "(LCaught;)V".
// For static initialization it is Owner.<clinit>()V; for (pre-)
// initialization the constructor.
type Member struct {
	Owner  string // declaring type, internal name; for array construction the array descriptor, e.g. "[[I"
	Name   string // "<init>" for constructors and array construction
	Desc   string // method descriptor; for array construction "(I…I)V", one int per dimension given; for a field its type
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
	// calls, when the call has no target (invokestatic, constructor call);
	// for field accesses, when the field is static.
	StaticThis   bool
	StaticTarget bool
	// Leaf is true when the code holding the shadow runs no code but its
	// own (classfile.SelfContained): the pointcut leaf().
	Leaf bool
}

// ReturnedDesc is the static type of the value a join point returns: the
// new object for constructor calls and array construction, the field's
// value for a field get, "V" for none (and for a malformed descriptor).
func (s *Shadow) ReturnedDesc() string {
	switch s.Kind {
	case ConstructorCall:
		return string(classfile.ObjectType(s.Member.Owner))
	case ArrayConstruction:
		return s.Member.Owner
	case ConstructorExecution, FieldSet:
		return "V"
	case FieldGet:
		return s.Member.Desc
	}
	if ret := classfile.ReturnType(s.Member.Desc); ret != "" {
		return string(ret)
	}
	return "V"
}

// ArgTypes returns the types of the join point's arguments: the
// parameters of the called or executed method or constructor, the
// dimension sizes of an array construction, the new value of a field set,
// the caught exception at a handler (its Member.Desc says so) and none for
// a field get or a static initialization. ok is false for a malformed
// descriptor.
func (s *Shadow) ArgTypes() (args []classfile.Type, ok bool) {
	switch s.Kind {
	case FieldGet:
		return nil, true
	case FieldSet:
		return []classfile.Type{classfile.Type(s.Member.Desc)}, true
	}
	mt, err := classfile.ParseMethodDesc(s.Member.Desc)
	if err != nil {
		return nil, false
	}
	return mt.Params, true
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
