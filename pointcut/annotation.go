package pointcut

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Annotations, as AspectJ matches them.
//
// An annotation pattern (`@A`, `!@A`, `@(A || B)`, several for all of them)
// stands before a signature pattern, for the member's annotations
// (`execution(@A * *(..))`), before a type pattern, for the type's
// (`within(@A *)`, `call(* (@A *).*(..))`), and in a parameter list before a
// parenthesized type pattern, for the parameter's (`execution(* *(@A (*)))`).
//
// The designators @within(A), @withincode(A) and @annotation(A) test the
// annotations of the class holding the code, of the method holding it and
// of the join point's subject (the member called, executed or accessed)
// statically; @this(A), @target(A) and @args(A, ..) test the class of a
// value at run time (a HasAnnotation residue) unless the static type has an
// @Inherited A. Each may name a formal instead of A: it binds the annotation.
// Annotations are read from class files, runtime-visible and
// class-retention ones alike; only the run-time tests and bindings need
// runtime retention.

// AnnotPattern is an annotation pattern: every item must hold.
type AnnotPattern struct {
	Pos   Position
	Items []*AnnotItem
}

// AnnotItem is `@Name`, `@(TypePattern)` or either with `!` before.
type AnnotItem struct {
	Pos  Position
	Not  bool
	Type *TypePattern
}

// Parse implements participle.Parseable for AnnotPattern (a signature's
// leading annotations).
func (a *AnnotPattern) Parse(lex *lexer.PeekingLexer) error {
	if !startsAnnot(lex) {
		return participle.NextMatch
	}
	return parseAnnotPattern(lex, a, 0)
}

// startsAnnot reports whether the next tokens are `@` or `!@`.
func startsAnnot(lex *lexer.PeekingLexer) bool {
	t := lex.Peek()
	if isPunctTok(t, "@") {
		return true
	}
	if !isPunctTok(t, "!") {
		return false
	}
	cp := lex.MakeCheckpoint()
	lex.Next()
	ok := isPunctTok(lex.Peek(), "@")
	lex.LoadCheckpoint(cp)
	return ok
}

func parseAnnotPattern(lex *lexer.PeekingLexer, a *AnnotPattern, depth int) error {
	a.Pos = lex.Peek().Pos
	for startsAnnot(lex) {
		it := &AnnotItem{Pos: lex.Peek().Pos}
		if isPunctTok(lex.Peek(), "!") {
			it.Not = true
			lex.Next()
		}
		lex.Next() // @
		t := lex.Peek()
		switch {
		case isPunctTok(t, "("):
			lex.Next()
			it.Type = &TypePattern{}
			if err := parseTypePattern(lex, it.Type, depth+1); err != nil {
				return err
			}
			if c := lex.Peek(); !isPunctTok(c, ")") {
				return participle.Errorf(c.Pos, "unexpected %s (expected \")\")", tokenText(c))
			}
			lex.Next()
		case t.Type == tokName:
			st := &SimpleType{}
			if err := st.Parse(lex); err != nil {
				return err
			}
			u := &TypeUnary{Pos: st.Pos, Simple: st}
			it.Type = &TypePattern{Pos: st.Pos, Or: []*TypeAnd{{Pos: st.Pos, And: []*TypeUnary{u}}}}
		default:
			return participle.Errorf(t.Pos, "unexpected %s (expected an annotation type after @)", tokenText(t))
		}
		a.Items = append(a.Items, it)
	}
	return nil
}
