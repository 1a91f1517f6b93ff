package pointcut

import (
	"sort"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
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
const ProceedDesc = "L" + rtnames.Proceed + ";"

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

// aspectOrder gives an aspect's advice in the order Match lists them:
// before and around advice in declaration order, then after advice latest
// first. The weaver runs before advice in list order and after advice in
// reverse, which is AspectJ's order for them; where around advice applies,
// orderAround makes the list AspectJ's precedence order.
func aspectOrder(all []*boundAdvice) []*boundAdvice {
	var nonAfter, after []*boundAdvice
	for _, b := range all {
		if isAfter(b.info.Advice.Kind) {
			after = append([]*boundAdvice{b}, after...)
		} else {
			nonAfter = append(nonAfter, b)
		}
	}
	return append(nonAfter, after...)
}

func isAfter(k advice.Kind) bool {
	return k == advice.After || k == advice.AfterReturning || k == advice.AfterThrowing
}

// orderAround puts the advice of each aspect that applies at a shadow with
// around advice in AspectJ's precedence order, highest first: with around
// advice the order of after advice matters (advice of lower precedence
// than an around runs inside its proceed). AspectJ compares two advice of
// an aspect by declaration order: if either is after advice the later
// declared takes precedence, otherwise the earlier. That is an order when
// no after advice is declared between two others (ajc reports "circular
// advice precedence" otherwise, and the list is left as aspectOrder made
// it): after advice declared after the first other advice, latest first;
// the others in declaration order; the after advice declared before them,
// latest first.
func orderAround(out []advice.Applied) []advice.Applied {
	for i := 0; i < len(out); {
		j := i
		around := false
		for j < len(out) && out[j].Advice.Aspect == out[i].Advice.Aspect {
			around = around || out[j].Advice.Kind == advice.Around
			j++
		}
		if around {
			orderAspectRun(out[i:j])
		}
		i = j
	}
	return out
}

// orderAspectRun orders the advice of one aspect at a shadow (see
// orderAround).
func orderAspectRun(run []advice.Applied) {
	byDecl := append([]advice.Applied(nil), run...)
	sort.SliceStable(byDecl, func(a, b int) bool { return byDecl[a].Advice.Order < byDecl[b].Advice.Order })
	var early, others, late []advice.Applied
	seenOther, afterAfterOther := false, false
	for _, a := range byDecl {
		switch {
		case !isAfter(a.Advice.Kind):
			if afterAfterOther {
				return // N .. A .. N: circular
			}
			seenOther = true
			others = append(others, a)
		case seenOther:
			afterAfterOther = true
			late = append([]advice.Applied{a}, late...)
		default:
			early = append([]advice.Applied{a}, early...)
		}
	}
	copy(run, append(append(late, others...), early...))
}

// aroundReturnName is the Java name of an around return type descriptor.
func aroundReturnName(d string) string {
	if d == "" || d == "V" {
		return "void"
	}
	return classfile.Type(d).JavaName()
}
