package pointcut

import (
	"fmt"
	"regexp"
	"strings"
)

// @AspectJ aspects: classes compiled by plain javac with the annotations of
// org.aspectj.lang.annotation (AspectJ 5's annotation style), read from
// their class files. ReadAtAspect turns one class into an AtAspect, a
// neutral model of what the annotations say, checked as far as one class
// file allows: every pointcut text parses with weft's grammar, parameter
// names are bound as AspectJ binds them, and what weft will not support is
// an error, never a silent skip. Nothing here resolves names across
// classes or weaves; translating the model into weft's Program is the job
// of its user.
//
// Strings are as the class file holds them: modified UTF-8, which is UTF-8
// for text without NUL or supplementary characters.

// AtAspect is a class annotated @org.aspectj.lang.annotation.Aspect.
type AtAspect struct {
	Class      string // internal name, e.g. "com/acme/Tracing"
	SourceFile string // the SourceFile attribute ("Tracing.java"), "" if none
	Super      string // internal name of the superclass, which may be an abstract aspect
	Abstract   bool   // an abstract aspect applies only through a concrete aspect extending it
	// Generated says that no class file holds the aspect: an aop.xml's
	// <concrete-aspect>, which weft.at defines at run time as a class
	// extending Super with a no-argument constructor.
	Generated bool
	// AjcWoven says that AspectJ's weaver processed the class after javac
	// (it has org.aspectj.weaver.* attributes but is no code-style aspect):
	// it has ajc's aspectOf(), whose instance weft.at uses.
	AjcWoven  bool
	Per       AtPerClause
	Pointcuts []*AtPointcut // in class-file order, which is javac's source order
	// Advice in class-file order: AspectJ's declaration order, which
	// decides precedence among the advice of one aspect.
	Advice     []*AtAdvice
	Precedence string              // @DeclarePrecedence's comma-separated type patterns as written, "" if none
	Messages   []*AtDeclareMessage // @DeclareWarning and @DeclareError, in field order
	Parents    []*AtDeclareParents // in field order
}

// AtPerKind is an aspect's instantiation model.
type AtPerKind uint8

// The per-clauses of AspectJ.
const (
	PerSingleton AtPerKind = iota
	PerThis
	PerTarget
	PerCflow
	PerCflowBelow
	PerTypeWithin
)

var perKindNames = [...]string{"singleton", "perthis", "pertarget", "percflow", "percflowbelow", "pertypewithin"}

func (k AtPerKind) String() string {
	if int(k) < len(perKindNames) {
		return perKindNames[k]
	}
	return fmt.Sprintf("AtPerKind(%d)", k)
}

// AtPerClause is the per-clause of @Aspect("perthis(...)").
type AtPerClause struct {
	Kind AtPerKind
	// Text is the clause's argument as written: a pointcut for perthis,
	// pertarget, percflow and percflowbelow, a type pattern for
	// pertypewithin, "" for a singleton.
	Text string
	// Declared is false when @Aspect names no per-clause: the aspect is a
	// singleton unless it extends an aspect, whose per-clause it then
	// inherits (AspectJ's PerFromSuper). Only a reader of the superclass
	// can tell which.
	Declared bool
}

// AtPointcut is a method annotated @Pointcut: a named pointcut whose
// formals are the method's parameters.
type AtPointcut struct {
	Name   string
	Desc   string // the method's descriptor
	Params []AtParam
	// Expr is the pointcut as written; "" for an abstract pointcut and for
	// @Pointcut("") on a concrete method, which AspectJ reads as a
	// pointcut matching nothing.
	Expr     string
	Abstract bool // an abstract method: a concrete aspect extending this one defines it
	// If marks an if() pointcut: Expr is `if()` or ends with `&& if()`,
	// and the method, public static boolean, is the test, called with the
	// formals (and any JoinPoint parameters) at each join point the rest
	// of Expr matches.
	If   bool
	Line int // the source line of the method's first instruction, 0 if unknown (or abstract)
}

// ifEnd matches the `if()` that ends an if() pointcut's expression.
var ifEnd = regexp.MustCompile(`(^|&&)\s*if\s*\(\s*\)\s*$`)

// WithoutIf returns the pointcut of an if() pointcut without its `&& if()`:
// the join points at which the method's test runs ("" for a bare `if()`,
// every join point). Of any other pointcut it returns Expr.
func (p *AtPointcut) WithoutIf() string {
	if !p.If {
		return p.Expr
	}
	if loc := ifEnd.FindStringIndex(p.Expr); loc != nil {
		return strings.TrimSpace(p.Expr[:loc[0]])
	}
	return p.Expr
}

// AtAdviceKind is the kind of an advice annotation.
type AtAdviceKind uint8

// The advice annotations.
const (
	AdviceBefore AtAdviceKind = iota
	AdviceAfter
	AdviceAfterReturning
	AdviceAfterThrowing
	AdviceAround
)

var adviceKindNames = [...]string{"before", "after", "afterReturning", "afterThrowing", "around"}

func (k AtAdviceKind) String() string {
	if int(k) < len(adviceKindNames) {
		return adviceKindNames[k]
	}
	return fmt.Sprintf("AtAdviceKind(%d)", k)
}

// AtAdvice is a method annotated @Before, @After, @AfterReturning,
// @AfterThrowing or @Around: the advice body is the method itself.
type AtAdvice struct {
	Kind   AtAdviceKind
	Method string
	Desc   string
	// Expr is the pointcut as written: the annotation's value, or its
	// pointcut element, which @AfterReturning and @AfterThrowing also
	// have and which overrides value when set.
	Expr      string
	Returning string // @AfterReturning(returning=...): the formal bound to the returned value, "" if none
	Throwing  string // @AfterThrowing(throwing=...): the formal bound to the exception, "" if none
	Params    []AtParam
	Line      int // the source line of the method's first instruction, 0 if unknown
}

// AtParam is a parameter of a pointcut or advice method.
type AtParam struct {
	// Name binds the parameter in the pointcut text. It is "" only where
	// no name is needed and none was found: a special parameter, or a
	// parameter of an abstract pointcut.
	Name string
	Desc string // field descriptor
	Role AtParamRole
}

// AtParamRole says what a parameter receives. AspectJ recognizes the
// special parameters by their type, in any position.
type AtParamRole uint8

// The roles of parameters.
const (
	ParamFormal              AtParamRole = iota // bound by the pointcut: this, target, args, annotations, a named pointcut
	ParamReturning                              // the returned value of @AfterReturning(returning=...)
	ParamThrowing                               // the exception of @AfterThrowing(throwing=...)
	ParamJoinPoint                              // org.aspectj.lang.JoinPoint: thisJoinPoint
	ParamProceedingJoinPoint                    // org.aspectj.lang.ProceedingJoinPoint: around advice's thisJoinPoint, with proceed
	ParamStaticPart                             // JoinPoint.StaticPart: thisJoinPointStaticPart
	ParamEnclosingStaticPart                    // JoinPoint.EnclosingStaticPart: thisEnclosingJoinPointStaticPart
)

var paramRoleNames = [...]string{"formal", "returning", "throwing", "JoinPoint", "ProceedingJoinPoint",
	"JoinPoint.StaticPart", "JoinPoint.EnclosingStaticPart"}

func (r AtParamRole) String() string {
	if int(r) < len(paramRoleNames) {
		return paramRoleNames[r]
	}
	return fmt.Sprintf("AtParamRole(%d)", r)
}

// Special reports whether the role is one of the join point parameters,
// which the pointcut does not bind.
func (r AtParamRole) Special() bool { return r >= ParamJoinPoint }

// specialRoles maps the descriptors of the special parameters to their roles.
var specialRoles = map[string]AtParamRole{
	"Lorg/aspectj/lang/JoinPoint;":                     ParamJoinPoint,
	"Lorg/aspectj/lang/ProceedingJoinPoint;":           ParamProceedingJoinPoint,
	"Lorg/aspectj/lang/JoinPoint$StaticPart;":          ParamStaticPart,
	"Lorg/aspectj/lang/JoinPoint$EnclosingStaticPart;": ParamEnclosingStaticPart,
}

// AtDeclareMessage is @DeclareWarning or @DeclareError on a String
// constant: a message reported at each shadow the pointcut matches.
type AtDeclareMessage struct {
	Error   bool   // @DeclareError; else @DeclareWarning
	Field   string // the annotated field
	Expr    string // the pointcut as written
	Message string // the field's constant value
}

// AtDeclareParents is @DeclareParents on a field: the types matching the
// pattern implement the field's type, an interface, whose methods are
// delegated to a new DefaultImpl for each instance when DefaultImpl is set.
type AtDeclareParents struct {
	Field       string
	Types       string // the type pattern as written
	Interface   string // internal name of the field's type (that it is an interface takes its class file to tell)
	DefaultImpl string // internal name of defaultImpl, "" if none
}
