package pointcut

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

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

// Verdict is the static answer of matching a shadow.
type Verdict int

const (
	Never  Verdict = iota // never matches
	Always                // matches with no runtime test
	Maybe                 // matches when Residue holds at run time
)

// Residue is a runtime test the weaver emits before calling advice: a tree
// of instanceof tests on join point values combined with And, Or and Not.
type Residue struct {
	Op       ResidueOp
	Value    advice.Value // for InstanceOf: which value (This, Target, Arg)
	Type     string       // for InstanceOf: internal name or array descriptor
	Children []*Residue   // for And, Or (two or more) and Not (one)
}

// ResidueOp is a Residue node's operator.
type ResidueOp int

const (
	InstanceOf ResidueOp = iota
	And
	Or
	Not
)

// Matcher decides which advice applies at a shadow. Implemented by this
// package's resolved aspects; used by the weaver.
type Matcher interface {
	// Match returns, for each advice in precedence order, whether it
	// applies at s. h resolves subtypes for `+` patterns and declaring
	// types for `call`; it may be nil (then unresolved questions answer
	// conservatively as AspectJ would with the class missing).
	Match(s *Shadow, h classfile.Hierarchy) []Applied
}

// Applied is one advice that applies at a shadow.
type Applied struct {
	Advice  *advice.Advice
	Verdict Verdict  // Always or Maybe
	Residue *Residue // non-nil iff Verdict == Maybe
	// Args are the advice call's arguments at this shadow: Advice.Args
	// with each Arg index resolved (an args(.., x) binding's index
	// depends on the shadow; Advice.Args has Index -1 there). Use these.
	Args []advice.Value
	// ExitCheck, for after returning(T x) / after throwing(T x), is the
	// internal name the returned or thrown value must be an instance of
	// for the advice to run ("" when that holds statically, or at a void
	// join point where x is null).
	ExitCheck string
}
