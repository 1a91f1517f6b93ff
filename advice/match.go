package advice

import "github.com/weft-aop/weft/classfile"

// Matcher decides which advice applies at a shadow. Implemented by package
// pointcut's resolved aspects; used by the weaver.
type Matcher interface {
	// Match returns, for each advice in precedence order, whether it
	// applies at s. h resolves subtypes for `+` patterns and declaring
	// types for `call`; it may be nil (then unresolved questions answer
	// conservatively as AspectJ would with the class missing).
	Match(s *Shadow, h classfile.Hierarchy) []Applied
}

// KindLimiter is implemented by a Matcher that knows which shadow kinds it
// can match at all: a weaver need not even build shadows of other kinds.
type KindLimiter interface {
	ShadowKinds() KindSet
}

// ShadowKinds returns the shadow kinds m can match: all of them unless m
// is a KindLimiter.
func ShadowKinds(m Matcher) KindSet {
	if k, ok := m.(KindLimiter); ok {
		return k.ShadowKinds()
	}
	return AllKinds
}

// LeafLimiter is implemented by a Matcher that knows whether all the
// advice it can apply is leaf advice (Advice.Leaf) with no code of the
// user's around it: no around advice, no cflow and no if() test. Nothing
// a weaving with such a Matcher runs in a thread's bypass can then reach
// woven code, so its woven methods need not read the flag (weaver/leaf.go).
type LeafLimiter interface {
	AllLeaf() bool
}

// AllLeaf reports whether m is a LeafLimiter whose advice is all leaf.
func AllLeaf(m Matcher) bool {
	l, ok := m.(LeafLimiter)
	return ok && l.AllLeaf()
}

// CodeTester is implemented by a Matcher that knows whether any of its
// pointcuts tests the code holding a shadow (Shadow.Leaf): a weaver need
// not read a method's code for it otherwise.
type CodeTester interface {
	TestsLeaf() bool
}

// TestsLeaf reports whether m may test Shadow.Leaf: true unless m is a
// CodeTester that says it does not.
func TestsLeaf(m Matcher) bool {
	t, ok := m.(CodeTester)
	return !ok || t.TestsLeaf()
}

// Verdict is the static answer of matching a shadow.
type Verdict int

const (
	Never  Verdict = iota // never matches
	Always                // matches with no runtime test
	Maybe                 // matches when Residue holds at run time
)

// Applied is one advice that applies at a shadow.
type Applied struct {
	Advice  *Advice
	Verdict Verdict  // Always or Maybe
	Residue *Residue // non-nil iff Verdict == Maybe
	// Args are the advice call's arguments at this shadow: Advice.Args
	// with each Arg index resolved (an args(.., x) binding's index
	// depends on the shadow; Advice.Args has Index -1 there). Use these.
	Args []Value
	// ExitCheck, for after returning(T x) / after throwing(T x), is the
	// internal name the returned or thrown value must be an instance of
	// for the advice to run ("" when that holds statically, or at a void
	// join point where x is null).
	ExitCheck string
}

// Residue is a runtime test the weaver emits before calling advice: a tree
// of instanceof and annotation tests on join point values, cflow tests and
// if() calls combined with And, Or and Not.
type Residue struct {
	Op       ResidueOp
	Value    Value      // for InstanceOf, HasAnnotation: which value (This, Target, Arg)
	Type     string     // for InstanceOf: internal name or array descriptor; for HasAnnotation: the annotation type's internal name
	Children []*Residue // for And, Or (two or more) and Not (one)
	Cflow    int32      // for InCflow: the cflow's key (CflowEntry.Key)
	Method   Method     // for If: the public static boolean method
	Args     []Value    // for If: its arguments
}

// ResidueOp is a Residue node's operator.
type ResidueOp int

const (
	InstanceOf ResidueOp = iota
	And
	Or
	Not
	// HasAnnotation holds when the value is not null and its class has
	// an annotation of type Type (Class.isAnnotationPresent, so
	// @Inherited ones of superclasses count): @this, @target, @args.
	HasAnnotation
	InCflow // the current thread is in the control flow of cflow Cflow
	If      // Method(Args) returns true
)
