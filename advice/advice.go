// Package advice is the contract between the aspect language and the weaver.
//
// The weaver finds shadows (Shadow: a place in bytecode where a join point
// may occur) and asks a Matcher which advice applies there (Applied, with a
// Residue when only a runtime test can tell). The bound advice model says,
// for each piece of advice, which values the woven code must push, in what
// order and with what type, to call the user's static Java advice method,
// and when to call it.
//
// Package pointcut parses, resolves and binds aspects into a Matcher; the
// weaver depends on this package only, never on the grammar.
package advice

// Kind is when advice runs relative to its join point.
type Kind int

const (
	Before         Kind = iota
	AfterReturning      // after a normal exit; may bind the returned value
	AfterThrowing       // after an exceptional exit; may bind the throwable
	After               // after any exit (finally)
	Around              // instead of the join point, which it may proceed to (around.go)
)

// Names in AspectJ's -showWeaveInfo form.
func (k Kind) String() string {
	return [...]string{"before", "afterReturning", "afterThrowing", "after", "around"}[k]
}

// ValueKind says where one argument of the advice call comes from.
type ValueKind int

const (
	This                ValueKind = iota // the executing object (this)
	Target                               // the call's target object / the executing object for execution
	Arg                                  // argument Index of the join point (for arrays: dimension Index)
	Returned                             // the returned value (after returning); the new object for constructor-call
	Thrown                               // the throwable (after throwing)
	JoinPointStaticPart                  // thisJoinPointStaticPart
	EnclosingStaticPart                  // thisEnclosingJoinPointStaticPart
	JoinPointID                          // joinPointId: an int unique per shadow
	ArrayDims                            // arrayDims: int[] of the dimension sizes
	JoinPoint                            // thisJoinPoint: the static part with this, target and all arguments
	// The annotation of type Value.Annotation (annotation.go) on:
	ThisAnnotation       // the class of this (@this(a)), read at run time
	TargetAnnotation     // the class of the target (@target(a)), read at run time
	ArgAnnotation        // the class of argument Index (@args(.., a, ..)), read at run time
	MemberAnnotation     // the join point's subject member (@annotation(a)), at Value.Site
	WithinAnnotation     // the class holding the code (@within(a)), at Value.Site
	WithincodeAnnotation // the method or constructor holding the code (@withincode(a)), at Value.Site
	Proceed              // proceed: around advice's handle to the rest of the join point
	CflowValue           // value Index of the innermost entry of cflow Cflow (bound inside cflow(...))
	EachArg              // eachArg: the advice is called once per argument of the join point, with it
	// Bytecodes is, at an execution's exit, the number of bytecode
	// instructions its own body ran (a long), counted per basic block as
	// JP does with its default blocks, which end at jumps, returns and
	// throws only: a block an exception leaves early counts whole.
	Bytecodes
	// PreciseBytecodes is Bytecodes counted per precise block, which
	// also ends at every instruction that can throw: exact, at more
	// counting (weaver/bytecodes.go).
	PreciseBytecodes
)

// String gives the kind as the aspect language writes it.
func (k ValueKind) String() string {
	names := [...]string{"this", "target", "arg", "returned", "thrown", "thisJoinPointStaticPart",
		"thisEnclosingJoinPointStaticPart", "joinPointId", "arrayDims", "thisJoinPoint",
		"@this", "@target", "@args", "@annotation", "@within", "@withincode", "proceed", "cflow", "eachArg", "bytecodes", "preciseBytecodes"}
	if int(k) < len(names) {
		return names[k]
	}
	return "ValueKind(" + itoa(int(k)) + ")"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// Value is one argument of the advice call.
type Value struct {
	Kind  ValueKind
	Index int // for Arg
	// Desc is the advice method's parameter descriptor for this value
	// (e.g. "I", "Ljava/lang/Object;"). The weaver boxes a primitive when
	// Desc is a reference type and casts a reference when Desc is narrower
	// than the static type.
	Desc string
	// Annotation is, for the annotation kinds, the annotation type's
	// internal name; Site is where a static one (MemberAnnotation,
	// WithinAnnotation, WithincodeAnnotation) is read.
	Annotation string
	Site       *AnnotationSite
	// Cflow is, for CflowValue, the key of the cflow whose state holds
	// the value (see CflowEntry).
	Cflow int32
}

// Method names a static advice method.
type Method struct {
	Owner string // internal name, e.g. "example/tracker/Tracker"
	Name  string
	Desc  string // e.g. "(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V"
}

// Advice is one resolved, bound piece of advice.
type Advice struct {
	Kind   Kind
	Aspect string // aspect name as written
	File   string // .weft file
	Line   int    // line of the advice declaration
	// Order is the declaration order within the aspect; with Aspect it
	// gives AspectJ's precedence (earlier before advice runs first, later
	// after advice runs first).
	Order  int
	Method Method
	Args   []Value
	// Overloads are, for advice passing eachArg, the methods of Method's
	// class and name that differ from Method only in eachArg's parameter
	// (Method's is Object): each argument goes to the one taking its type
	// (or a primitive it widens to), unboxed, else to Method.
	Overloads []Method
	// ReturnType / ThrowType restrict after returning(T x) / throwing(T x)
	// to values of that type (descriptor); "" means any.
	ReturnType string
	ThrowType  string
	// AroundType is, for Around advice, the declared return type
	// (descriptor): the advice method's return type, which the woven
	// code converts to the join point's.
	AroundType string
	// Cflow is set on the advice a Matcher adds at the shadows of a
	// cflow's pointcut to keep its per-thread state (cflow.go); it is
	// weft's own, not the user's, and calls no Method.
	Cflow *CflowEntry
	// Leaf says that Method's code, and that of the static methods it
	// calls, run and resolve no class but theirs (static initializers
	// aside) and, for around advice, call nothing else but
	// Proceed.proceed(): called once those classes are initialized, it
	// cannot reach woven code where the JDK is not woven but through
	// proceed (docs/jdk.md, leaf advice). LeafReach lists those classes
	// other than Method's own (internal names), to initialize first.
	Leaf      bool
	LeafReach []string
}
