package pointcut

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// Around advice: `Type around(Formals): Pointcut { C.m(proceed, ...); }`.
//
// It has a grammar of its own (it starts with a type, where other advice
// starts with a keyword) and is parsed into an AdviceDecl with Kind
// "around" and Returns set, so resolution treats it like other advice. The
// context value `proceed` is its handle on the rest of the join point, a
// weft.rt.Proceed; the advice method returns the declared type.

// aroundGrammar is an around advice declaration.
type aroundGrammar struct {
	Pos     Position
	Returns *TypeName `parser:"@@ \"around\""`
	Formals []*Formal `parser:"\"(\" ( @@ ( \",\" @@ )* )? \")\""`
	Expr    *Expr     `parser:"\":\" @@"`
	Body    *Call     `parser:"\"{\" @@ \"}\""`
}

var aroundParser = build[aroundGrammar]()

// ProceedDesc is the descriptor of the context value proceed's Java type.
const ProceedDesc = "L" + rtjava.Proceed + ";"

// isAroundDecl reports whether a declaration's tokens start as around
// advice: a type (a dotted name with array dimensions) then `around (`.
// `around(` without a type is around advice too, reported as lacking it.
func isAroundDecl(toks []lexer.Token) bool {
	for k := 0; k+1 < len(toks); k++ {
		t := toks[k]
		if t.Type == tokName && t.Value == "around" && toks[k+1].Value == "(" {
			return true
		}
		if t.Type != tokName && t.Value != "." && t.Value != "[" && t.Value != "]" {
			return false
		}
	}
	return false
}

// aroundDecl parses around advice; toks[0] is its first token.
func (p *fileParser) aroundDecl(toks []lexer.Token, start int) (*declGrammar, *lexer.PeekingLexer, error) {
	if toks[0].Value == "around" {
		p.s.add(toks[0].Pos, "write Object around(...) (or the join point's type: int around(...), void around(...))",
			"around advice needs a return type")
		return nil, nil, nil
	}
	lex := p.at(start)
	g, err := aroundParser.ParseFromLexer(lex, participle.AllowTrailing(true))
	if err != nil {
		return nil, lex, err
	}
	return &declGrammar{Advice: &AdviceDecl{Pos: g.Pos, Kind: "around", Returns: g.Returns,
		Formals: g.Formals, Expr: g.Expr, Body: g.Body}}, lex, nil
}

// aroundType resolves around advice's declared return type to a
// descriptor ("V" for void).
func (c *compiler) aroundType(t *TypeName) string {
	d, err := typeNameDesc(t.Parts, len(t.Dims))
	if err != nil {
		hint := ""
		if len(t.Parts) == 1 && !isWild(t.Parts[0]) {
			hint = c.qualifyHint("write the fully qualified name", t.Parts[0])
		}
		c.errorf(t.Pos, hint, "around advice's return type: %v", err)
		return "Ljava/lang/Object;"
	}
	return d
}

// aspectOrder gives an aspect's advice in precedence order, highest first.
// AspectJ compares two advice of one aspect by declaration order: if
// either is after advice the later declared takes precedence, otherwise
// the earlier. With around advice the order matters (advice of lower
// precedence than an around runs inside its proceed), so when the aspect
// has around advice and those rules give a total order, that order is
// used. Otherwise (no around advice, or the rules form a cycle, which ajc
// reports as circular precedence) the order is: before and around advice
// in declaration order, then after advice latest first; the weaver runs
// before advice in list order and after advice in reverse, which is
// AspectJ's order for them.
func aspectOrder(all []*boundAdvice) []*boundAdvice {
	var nonAfter, after []*boundAdvice
	around := false
	for _, b := range all {
		switch b.info.Advice.Kind {
		case advice.Before:
			nonAfter = append(nonAfter, b)
		case advice.Around:
			nonAfter = append(nonAfter, b)
			around = true
		default:
			after = append([]*boundAdvice{b}, after...)
		}
	}
	fallback := append(nonAfter, after...)
	if !around {
		return fallback
	}
	// The relation is a tournament (every pair is ordered): it is a total
	// order iff each advice beats a distinct number of the others.
	n := len(all)
	wins := make([]int, n)
	isAfter := func(b *boundAdvice) bool {
		k := b.info.Advice.Kind
		return k == advice.After || k == advice.AfterReturning || k == advice.AfterThrowing
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if isAfter(all[i]) || isAfter(all[j]) {
				wins[j]++
			} else {
				wins[i]++
			}
		}
	}
	out := make([]*boundAdvice, n)
	for i, w := range wins {
		k := n - 1 - w
		if out[k] != nil {
			return fallback // a cycle
		}
		out[k] = all[i]
	}
	return out
}

// aroundReturnName is the Java name of an around return type descriptor.
func aroundReturnName(d string) string {
	if d == "" || d == "V" {
		return "void"
	}
	return classfile.Type(d).JavaName()
}
