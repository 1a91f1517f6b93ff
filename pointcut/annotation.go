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

// AnnotItem is `@Name`, `@Name(values)`, `@(TypePattern)` or any of them
// with `!` before.
type AnnotItem struct {
	Pos    Position
	Not    bool
	Type   *TypePattern
	Values *AnnotValues // after @Name only, or nil
}

// AnnotValues is an annotation's value patterns, `(k = v, k != v)`, where
// a lone value stands for `value = v` (AspectJ's shorthand).
type AnnotValues struct {
	Pos   Position
	Pairs []*AnnotPair
}

// AnnotPair is one value pattern: the element Name (empty for the
// shorthand) equals, or with Not differs from, Value.
type AnnotPair struct {
	Pos   Position
	Name  string
	Not   bool
	Value *AnnotLiteral
}

// AnnotLiteral is a value in a value pattern: a string, char or number
// literal (Kind tokString, tokChar, tokNumber: Text is the token), true or
// false, an enum constant `pkg.Enum.NAME`, a class literal `pkg.T.class`
// or `int[].class` (Kind tokName: Name), or a marker annotation `@pkg.A`
// (At set, Name the type).
type AnnotLiteral struct {
	Pos  Position
	Kind lexer.TokenType
	Text string
	Name *SimpleType
	At   bool
}

// Parse implements participle.Parseable for AnnotValues: the parenthesized
// values after an annotation designator's type (`@within(pkg.A(k = v))`).
func (v *AnnotValues) Parse(lex *lexer.PeekingLexer) error {
	if !isPunctTok(lex.Peek(), "(") {
		return participle.NextMatch
	}
	return parseAnnotValues(lex, v)
}

// parseAnnotValues reads `( pair { , pair } )`.
func parseAnnotValues(lex *lexer.PeekingLexer, v *AnnotValues) error {
	v.Pos = lex.Next().Pos // (
	for {
		p := &AnnotPair{Pos: lex.Peek().Pos}
		t := lex.Peek()
		if t.Type == tokName {
			cp := lex.MakeCheckpoint()
			lex.Next()
			switch op := lex.Peek(); {
			case isPunctTok(op, "="), isPunctTok(op, "!="):
				p.Name, p.Not = t.Value, op.Value == "!="
				lex.Next()
			default:
				lex.LoadCheckpoint(cp)
			}
		}
		lit, err := parseAnnotLiteral(lex)
		if err != nil {
			return err
		}
		p.Value = lit
		v.Pairs = append(v.Pairs, p)
		switch c := lex.Peek(); {
		case isPunctTok(c, ","):
			lex.Next()
		case isPunctTok(c, ")"):
			lex.Next()
			return nil
		default:
			return participle.Errorf(c.Pos, "unexpected %s (expected \",\" or \")\" after an annotation value)", tokenText(c))
		}
	}
}

func parseAnnotLiteral(lex *lexer.PeekingLexer) (*AnnotLiteral, error) {
	t := lex.Peek()
	lit := &AnnotLiteral{Pos: t.Pos, Kind: t.Type}
	switch {
	case t.Type == tokString, t.Type == tokChar, t.Type == tokNumber:
		lit.Text = t.Value
		lex.Next()
	case isPunctTok(t, "@"):
		lex.Next()
		lit.At, lit.Kind = true, tokName
		fallthrough
	case t.Type == tokName:
		st := &SimpleType{}
		if err := st.Parse(lex); err != nil || st.Head == "" {
			return nil, participle.Errorf(lex.Peek().Pos, "unexpected %s (expected an annotation type)", tokenText(lex.Peek()))
		}
		lit.Name = st
	default:
		return nil, participle.Errorf(t.Pos, "unexpected %s (expected an annotation value: a string, number, char, "+
			"true or false, an enum constant pkg.Enum.NAME or a class literal pkg.T.class)", tokenText(t))
	}
	return lit, nil
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
			// Values follow the name without a blank, as in AspectJ:
			// `@A (T)` in a parameter list is the parameter's type.
			if p := lex.Peek(); isPunctTok(p, "(") && p.Pos.Offset == st.end {
				it.Values = &AnnotValues{}
				if err := parseAnnotValues(lex, it.Values); err != nil {
					return err
				}
			}
		default:
			return participle.Errorf(t.Pos, "unexpected %s (expected an annotation type after @)", tokenText(t))
		}
		a.Items = append(a.Items, it)
	}
	return nil
}
