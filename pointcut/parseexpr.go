package pointcut

import (
	"errors"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parsing a pointcut expression or a list of type patterns on its own, as
// @AspectJ annotations hold them (ataspectj.go): `@Before("call(* f(..))")`
// is the expression of advice without the declaration around it. The text
// is lexed as a .weft file is and parsed with the same grammar, designator
// bodies included, so that an aspect in either style accepts exactly the
// same pointcuts.

// exprOnly is a whole text that is one pointcut expression.
type exprOnly struct {
	E *Expr `parser:"@@"`
}

// typePatternsOnly is a whole text that is a comma-separated list of type
// patterns (declare precedence, pertypewithin, declare parents).
type typePatternsOnly struct {
	L []*TypePattern `parser:"@@ ( \",\" @@ )*"`
}

var (
	exprOnlyParser     = sync.OnceValue(build[exprOnly])
	typePatternsParser = sync.OnceValue(build[typePatternsOnly])
)

// parseExprText parses src, a pointcut expression and nothing else. Errors
// are an ErrorList whose positions are in src (Filename name), as
// ParseFile's are in a file.
func parseExprText(name, src string) (*Expr, error) {
	p := newParser(name, []byte(src))
	lex := p.at(0)
	trailing := participle.AllowTrailing(true)
	e, err := exprOnlyParser().ParseFromLexer(lex, trailing)
	if err == nil && lex.Cursor() < len(p.toks) {
		// The parser backs out of a `&& X` or `|| X` whose X fails (it
		// looks ahead), stopping before the operator; the error is in X.
		if op := p.toks[lex.Cursor()].Value; op == "&&" || op == "||" {
			if _, inX := exprOnlyParser().ParseFromLexer(p.at(lex.Cursor()+1), trailing); inX != nil {
				err = inX
			}
		}
	}
	if !p.complete(lex, err, "the pointcut") {
		return nil, p.s.list.Err()
	}
	ok := true
	walkDesignators(&declGrammar{Pointcut: &PointcutDecl{Expr: e.E}}, func(d *Designator) { ok = p.designator(d) && ok })
	if !ok || len(p.s.list) > 0 {
		return nil, p.s.list.Err()
	}
	return e.E, nil
}

// parseTypePatternsText parses src, a comma-separated list of type
// patterns and nothing else; errors as parseExprText's.
func parseTypePatternsText(name, src string) ([]*TypePattern, error) {
	p := newParser(name, []byte(src))
	lex := p.at(0)
	l, err := typePatternsParser().ParseFromLexer(lex, participle.AllowTrailing(true))
	if !p.complete(lex, err, "the type pattern") || len(p.s.list) > 0 {
		return nil, p.s.list.Err()
	}
	return l.L, nil
}

// complete reports whether the parse that left lex where it is read all of
// the text without error; if not it adds the error, what being what the
// text should have been.
func (p *fileParser) complete(lex *lexer.PeekingLexer, err error, what string) bool {
	if err == nil && lex.Cursor() != len(p.toks) {
		t := p.tokAt(lex.Cursor())
		err = participle.Errorf(t.Pos, "unexpected %s after %s", describe(t), what)
	}
	if err == nil {
		return true
	}
	var pe participle.Error
	pos, msg := p.eof, err.Error()
	if errors.As(err, &pe) {
		pos, msg = pe.Position(), pe.Message()
	}
	if pos.Line == 0 {
		pos = p.eof
	}
	p.s.add(pos, "", "%s", tidy(msg))
	return false
}
