package pointcut

import "github.com/alecthomas/participle/v2/lexer"

// The syntax tree of a .weft file. The struct tags are the grammar
// (participle); docs/language.md gives the same grammar in EBNF.
//
// A file is lexed once and cut into aspects and declarations by hand
// (parse.go) so that a syntax error in one declaration does not hide errors
// in the next; each declaration is then parsed with declGrammar, and each
// designator's parenthesized body with the grammar its designator needs.

// Position is a place in a source file: Filename, byte Offset, 1-based Line
// and Column (in characters).
type Position = lexer.Position

// File is a parsed .weft file.
type File struct {
	Name    string
	Src     []byte
	Aspects []*Aspect
}

// Aspect is `aspect Name { declarations }`.
type Aspect struct {
	Pos       Position
	Name      string
	Pointcuts []*PointcutDecl
	Advice    []*AdviceDecl
	Declares  []*DeclareDecl
}

type declGrammar struct {
	Pointcut *PointcutDecl `parser:"  @@"`
	Advice   *AdviceDecl   `parser:"| @@"`
	Declare  *DeclareDecl  `parser:"| @@"`
}

// DeclareDecl is `declare precedence: ...;`, `declare warning|error: ...;`
// or `declare parents: ...;`.
type DeclareDecl struct {
	Pos        Position
	Precedence *DeclarePrecedence `parser:"\"declare\" ( @@"`
	Parents    *DeclareParents    `parser:"          | @@"`
	Message    *DeclareMessage    `parser:"          | @@ )"`
}

// DeclareParents is `parents: TypePattern implements I, J... [defaultImpl
// C];` (after `declare`): the classes the pattern matches implement the
// interfaces; with defaultImpl, the methods of the one interface named
// that a class lacks are delegated to an instance of C per object, as
// AspectJ's @DeclareParents(defaultImpl=C.class) does.
type DeclareParents struct {
	Pos         Position
	Types       *TypePattern `parser:"\"parents\" \":\" @@"`
	Interfaces  []*TypeName  `parser:"\"implements\" @@ ( \",\" @@ )*"`
	DefaultImpl *TypeName    `parser:"( \"defaultImpl\" @@ )? \";\""`
}

// DeclarePrecedence is `precedence: TypePattern, TypePattern...;` (after
// `declare`): the aspects matching earlier patterns take precedence.
type DeclarePrecedence struct {
	Pos   Position
	Types []*TypePattern `parser:"\"precedence\" \":\" @@ ( \",\" @@ )* \";\""`
}

// DeclareMessage is `warning: Expr : "message";` or `error: ...` (after
// `declare`): a message reported at each shadow Expr matches.
type DeclareMessage struct {
	Pos     Position
	Kind    string     `parser:"@( \"warning\" | \"error\" ) \":\""`
	Expr    *Expr      `parser:"@@ \":\""`
	Message *StringLit `parser:"@@ \";\""`
}

// StringLit is a string literal, quotes and escapes as written.
type StringLit struct {
	Pos   Position
	Value string `parser:"@String"`
}

// PointcutDecl is `pointcut name(Formals): Expr;`.
type PointcutDecl struct {
	Pos     Position
	Name    string    `parser:"\"pointcut\" @Name"`
	Formals []*Formal `parser:"\"(\" ( @@ ( \",\" @@ )* )? \")\""`
	Expr    *Expr     `parser:"\":\" @@ \";\""`
}

// Formal is a typed parameter: `Type name`.
type Formal struct {
	Pos  Position
	Type *TypeName `parser:"@@"`
	Name string    `parser:"@Name"`
}

// TypeName is an exact Java type: a dotted name and array dimensions.
type TypeName struct {
	Pos   Position
	Parts []string `parser:"@Name ( \".\" @Name )*"`
	Dims  []string `parser:"( @\"[\" \"]\" )*"`
}

// AdviceDecl is `before(Formals): Expr { Body }` or
// `after(Formals) [returning|throwing [(Formal)]]: Expr { Body }`.
type AdviceDecl struct {
	Pos     Position
	Returns *TypeName   // around advice's return type (around.go parses around advice)
	Kind    string      `parser:"@( \"before\" | \"after\" )"`
	Formals []*Formal   `parser:"\"(\" ( @@ ( \",\" @@ )* )? \")\""`
	Exit    *ExitClause `parser:"@@?"`
	Expr    *Expr       `parser:"\":\" @@"`
	Body    *Call       `parser:"\"{\" @@ \"}\""`
}

// ExitClause is `returning [(Formal)]` or `throwing [(Formal)]`.
type ExitClause struct {
	Pos    Position
	Kind   string  `parser:"@( \"returning\" | \"throwing\" )"`
	Paren  bool    `parser:"( @\"(\""`
	Formal *Formal `parser:"  @@? \")\" )?"`
}

// Call is the advice body: one call of a static Java method.
type Call struct {
	Pos  Position
	Name []string   `parser:"@Name ( \".\" @Name )*"`
	Args []*CallArg `parser:"\"(\" ( @@ ( \",\" @@ )* )? \")\" \";\""`
}

// CallArg is an argument of the advice call: a formal or a context value.
type CallArg struct {
	Pos  Position
	Name string `parser:"@Name"`
}

// Expr is a pointcut expression: `A || B || ...`.
type Expr struct {
	Pos Position
	Or  []*AndExpr `parser:"@@ ( \"||\" @@ )*"`
}

// AndExpr is `A && B && ...`.
type AndExpr struct {
	Pos Position
	And []*UnaryExpr `parser:"@@ ( \"&&\" @@ )*"`
}

// UnaryExpr is `!U`, `(Expr)` or a designator.
type UnaryExpr struct {
	Pos   Position
	Not   *UnaryExpr  `parser:"  \"!\" @@"`
	Paren *Expr       `parser:"| \"(\" @@ \")\""`
	Prim  *Designator `parser:"| @@"`
}

// Designator is a primitive pointcut (`call(...)`) or a reference to a
// named one (`allocs()`, `Other.allocs(x)`). Its body is parsed in a second
// step, by the grammar the designator takes; the result is in exactly one
// of Method, Type or List (none for a reserved designator).
type Designator struct {
	Pos  Position
	At   bool     `parser:"@\"@\"?"` // @within, @annotation, ... (annotation.go)
	Name []string `parser:"@Name ( \".\" @Name )*"`
	Body *rawBody `parser:"@@"`

	Close  Position       // the closing parenthesis
	Method *MethodPattern // call, execution, withincode, initialization, preinitialization
	Field  *FieldPattern  // get, set
	Type   *TypePattern   // within, handler, staticinitialization
	List   []*ListElem    // this, target, args, named pointcuts
	Cflow  *Expr          // cflow, cflowbelow
	If     *IfCall        // if
}

type exprBody struct {
	E *Expr `parser:"@@ \")\""`
}

type ifBody struct {
	C *IfCall `parser:"@@ \")\""`
}

// IfCall is the body of if(...): a call of a public static boolean method,
// `pkg.Class.method(formals)`, or the literal true or false (a Name with
// no parenthesis).
type IfCall struct {
	Pos   Position
	Name  []string   `parser:"@Name ( \".\" @Name )*"`
	Paren bool       `parser:"( @\"(\""`
	Args  []*CallArg `parser:"  ( @@ ( \",\" @@ )* )? \")\" )?"`
}

type methodBody struct {
	P *MethodPattern `parser:"@@ \")\""`
}

type typeBody struct {
	P *TypePattern `parser:"@@ \")\""`
}

type listBody struct {
	L []*ListElem `parser:"( @@ ( \",\" @@ )* )? \")\""`
}

// MethodPattern is a method or constructor signature pattern:
//
//	[Modifiers] RetType [DeclType.]Name(Params) [throws ThrowsItems]
//	[Modifiers] [DeclType.]new(Params) [throws ThrowsItems]
//
// The grammar cannot tell the two apart before the parameter list, so it
// reads a type pattern (First) and an optional second one (Second);
// compileSig decides: with Second it is a method (First is the return
// type), without it First must end in `.new`.
type MethodPattern struct {
	Pos    Position
	Annot  *AnnotPattern  `parser:"@@?"`
	Mods   []*Modifier    `parser:"@@*"`
	First  *TypePattern   `parser:"@@"`
	Second *SigName       `parser:"@@?"`
	Params []*ListElem    `parser:"\"(\" ( @@ ( \",\" @@ )* )? \")\""`
	Throws []*TypePattern `parser:"( \"throws\" @@ ( \",\" @@ )* )?"`
}

// FieldPattern is a field signature pattern, `[Modifiers] Type
// [DeclType.]name`, as get and set take it.
type FieldPattern struct {
	Pos   Position
	Annot *AnnotPattern `parser:"@@?"`
	Mods  []*Modifier   `parser:"@@*"`
	Type  *TypePattern  `parser:"@@"`
	Name  *SigName      `parser:"@@"`
}

type fieldBody struct {
	P *FieldPattern `parser:"@@ \")\""`
}

// Modifier is `[!]public` etc.
type Modifier struct {
	Pos  Position
	Not  bool   `parser:"@\"!\"?"`
	Name string `parser:"@( \"public\" | \"protected\" | \"private\" | \"static\" | \"final\" | \"synchronized\" | \"native\" | \"abstract\" | \"strictfp\" | \"transient\" | \"volatile\" )"`
}

// SigName is the `DeclType.name` part of a method or field pattern, or a
// bare name.
type SigName struct {
	Pos       Position
	ParenType *TypePattern `parser:"( \"(\" @@ \")\" \".\""`
	ParenName string       `parser:"  @Name )"`
	Simple    *SimpleType  `parser:"| @@"`
}

// TypePattern is `A || B || ...`. The type pattern rules,
//
//	TypePattern = TypeAnd { "||" TypeAnd } .
//	TypeAnd     = TypeUnary { "&&" TypeUnary } .
//	TypeUnary   = AnnotPattern TypeUnary | "!" TypeUnary | "(" TypePattern ")" | SimpleType .
//
// are parsed by hand (TypePattern.Parse, a participle.Parseable): they are
// the most frequent rules of signatures, and participle would branch at
// every optional part of them.
type TypePattern struct {
	Pos Position
	Or  []*TypeAnd
}

// TypeAnd is `A && B && ...`.
type TypeAnd struct {
	Pos Position
	And []*TypeUnary
}

// TypeUnary is `!T`, `(T)` or a simple type pattern, with Annot, if set,
// an annotation pattern the type must have (`@A *`, `!@A (T || U)`).
type TypeUnary struct {
	Pos    Position
	Annot  *AnnotPattern
	Not    *TypeUnary
	Paren  *TypePattern
	Simple *SimpleType
}

// SimpleType is a name pattern with optional `+`, array dimensions and
// varargs: `java..*Map+[]`, `String...`. Member is a trailing `.name` after
// `+` or `[]` (`Foo+.new`), meaningful only in signatures. Parsed by hand
// (see TypePattern):
//
//	SimpleType = Name { ("." | "..") Name } [ "+" ] { "[" "]" } [ "." Name ] [ "..." ] .
type SimpleType struct {
	Pos     Position
	Head    string
	Rest    []*NamePart
	Plus    bool
	Dims    []string
	Member  string
	Varargs bool
	end     int // offset after the last token
}

// NamePart is one `.name` or `..name` step of a dotted name pattern.
type NamePart struct {
	Sep  string
	Name string
}

// ListElem is an element of a parameter or args list: `..` or a type
// pattern (which may be a formal's name).
type ListElem struct {
	Pos      Position
	Ellipsis bool         `parser:"  @\"..\""`
	Type     *TypePattern `parser:"| @@"`
	Values   *AnnotValues // an annotation designator's value patterns (annotation.go)
}

// annotElem is an element of an annotation designator's list: a ListElem
// whose type may be followed by value patterns, `pkg.A(k = v)`.
type annotElem struct {
	Pos      Position
	Ellipsis bool         `parser:"  @\"..\""`
	Type     *TypePattern `parser:"| @@"`
	Values   *AnnotValues `parser:"  @@?"`
}

type annotListBody struct {
	L []*annotElem `parser:"( @@ ( \",\" @@ )* )? \")\""`
}
