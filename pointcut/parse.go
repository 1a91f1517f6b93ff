package pointcut

import (
	"errors"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// lookahead bounds participle's backtracking. Method patterns need it: in
// `* (A || B).m(..)` versus `T.new(A || B)` the parser learns which of the
// two a parenthesized group was only after reading it.
const lookahead = 64

func build[G any]() *participle.Parser[G] {
	return participle.MustBuild[G](participle.Lexer(weftLexer), participle.UseLookahead(lookahead))
}

var (
	declParser   = build[declGrammar]()
	methodParser = build[methodBody]()
	typeParser   = build[typeBody]()
	listParser   = build[listBody]()
)

// Designators lists the primitive pointcut designators weft supports.
var Designators = []string{"call", "execution", "within", "withincode", "this", "target", "args"}

// reserved are AspectJ designators weft does not support yet.
var reserved = map[string]bool{
	"get": true, "set": true, "handler": true, "staticinitialization": true,
	"initialization": true, "preinitialization": true, "adviceexecution": true,
	"cflow": true, "cflowbelow": true, "if": true, "proceed": true,
}

// ParseFile parses the .weft source src read from filename. It reports
// syntax errors only (as an ErrorList, all of them); Resolve checks
// meaning. The returned File holds every declaration that parsed, even
// when err is non-nil.
func ParseFile(filename string, src []byte) (*File, error) {
	f := &File{Name: filename, Src: src}
	s := &errorSink{src: src}
	toks := lexFile(filename, src, s)
	p := &fileParser{f: f, s: s, toks: toks, eof: endOf(filename, src)}
	p.parse()
	return f, s.list.Err()
}

func endOf(filename string, src []byte) Position {
	pos := Position{Filename: filename, Line: 1, Column: 1}
	pos.Advance(string(src))
	return pos
}

// lexFile returns src's tokens without comments and blanks.
func lexFile(filename string, src []byte, s *errorSink) []lexer.Token {
	lx, err := weftLexer.LexString(filename, string(src))
	if err != nil {
		s.add(Position{Filename: filename, Line: 1, Column: 1}, "", "%v", err)
		return nil
	}
	var toks []lexer.Token
	for {
		t, err := lx.Next()
		if err != nil {
			var pe participle.Error
			if errors.As(err, &pe) {
				s.add(pe.Position(), "", "%s", pe.Message())
			} else {
				s.add(Position{Filename: filename, Line: 1, Column: 1}, "", "%v", err)
			}
			return toks
		}
		switch t.Type {
		case lexer.EOF:
			return toks
		case tokComment, tokWhitespace:
			continue
		case tokUnterminated:
			s.add(t.Pos, "close it with */", "unterminated comment")
			return toks
		}
		toks = append(toks, t)
	}
}

type fileParser struct {
	f    *File
	s    *errorSink
	toks []lexer.Token
	i    int
	eof  Position
}

func (p *fileParser) peek() *lexer.Token {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return &lexer.Token{Type: lexer.EOF, Pos: p.eof}
}

func describe(t *lexer.Token) string {
	if t.EOF() {
		return "end of file"
	}
	return "`" + t.Value + "`"
}

// parse reads `aspect Name { decl... }` repeatedly, skipping to the next
// `aspect` after an error in a header.
func (p *fileParser) parse() {
	for p.i < len(p.toks) {
		t := p.peek()
		if !(t.Type == tokName && t.Value == "aspect") {
			p.s.add(t.Pos, "a .weft file holds aspects: aspect Name { pointcut ...; advice ... }",
				"expected `aspect`, found %s", describe(t))
			p.skipToAspect()
			continue
		}
		a := &Aspect{Pos: t.Pos}
		p.i++
		t = p.peek()
		if t.Type != tokName {
			p.s.add(t.Pos, "", "expected the aspect's name, found %s", describe(t))
			p.skipToAspect()
			continue
		}
		a.Name = t.Value
		p.i++
		t = p.peek()
		if t.Value != "{" || t.EOF() {
			p.s.add(t.Pos, "", "expected `{` after `aspect %s`, found %s", a.Name, describe(t))
			p.skipToAspect()
			continue
		}
		p.i++
		p.f.Aspects = append(p.f.Aspects, a)
		p.body(a)
	}
}

func (p *fileParser) skipToAspect() {
	p.i++
	for p.i < len(p.toks) && !(p.toks[p.i].Type == tokName && p.toks[p.i].Value == "aspect") {
		p.i++
	}
}

// body reads declarations up to the aspect's closing brace. A declaration
// ends at a `;` outside braces (pointcut) or at the brace closing its body
// (advice); cutting there lets each declaration be parsed on its own.
func (p *fileParser) body(a *Aspect) {
	for {
		t := p.peek()
		if t.EOF() {
			p.s.add(t.Pos, "add `}` to close the aspect", "missing `}` at the end of aspect %s", a.Name)
			return
		}
		if t.Value == "}" {
			p.i++
			return
		}
		start := p.i
		braces, closed := 0, false
		for p.i < len(p.toks) && !closed {
			t := &p.toks[p.i]
			switch {
			case t.Value == "{":
				braces++
			case t.Value == "}":
				if braces == 0 {
					closed = true // the aspect's brace: the declaration lacks its end
					continue
				}
				braces--
				closed = braces == 0
			case t.Value == ";" && braces == 0:
				closed = true
			case t.Type == tokName && t.Value == "aspect" && braces == 0 && p.i > start:
				closed = true // a missing `}`: let the next aspect parse
				continue
			}
			p.i++
		}
		if p.i == start { // `aspect` right at the start cannot happen; guard anyway
			p.i++
			continue
		}
		p.decl(a, p.toks[start:p.i])
		if p.i < len(p.toks) && p.toks[p.i].Type == tokName && p.toks[p.i].Value == "aspect" {
			p.s.add(p.toks[p.i].Pos, "add `}` to close the aspect", "missing `}` at the end of aspect %s", a.Name)
			return
		}
	}
}

func endPos(t lexer.Token) Position {
	pos := t.Pos
	pos.Advance(t.Value)
	return pos
}

// decl parses one declaration.
func (p *fileParser) decl(a *Aspect, toks []lexer.Token) {
	for k := 0; k < len(toks) && k < 2; k++ {
		if toks[k].Type == tokName && toks[k].Value == "around" {
			p.s.add(toks[k].Pos, "use before() and after() advice", "around advice is not supported yet")
			return
		}
	}
	eof := endOf(p.f.Name, nil)
	if len(toks) > 0 {
		eof = endPos(toks[len(toks)-1])
	}
	if p.i >= len(p.toks) || p.toks[p.i-1].Value != ";" && p.toks[p.i-1].Value != "}" {
		// the declaration was cut short: report where it stops
		eof = p.peek().Pos
	}
	d, err := declParser.ParseFromLexer(peeking(toks, eof))
	if err != nil {
		p.syntaxError(err, toks, eof)
		return
	}
	ok := true
	walkDesignators(d.Pointcut, d.Advice, func(ds *Designator) { ok = p.designator(ds) && ok })
	if !ok {
		return
	}
	if d.Pointcut != nil {
		a.Pointcuts = append(a.Pointcuts, d.Pointcut)
	} else {
		a.Advice = append(a.Advice, d.Advice)
	}
}

func (p *fileParser) syntaxError(err error, toks []lexer.Token, eof Position) {
	var pe participle.Error
	pos, msg := eof, err.Error()
	if errors.As(err, &pe) {
		pos, msg = pe.Position(), pe.Message()
	}
	if pos.Line == 0 {
		pos = eof
		if len(toks) > 0 {
			pos = toks[0].Pos
		}
	}
	hint := ""
	if strings.Contains(msg, `unexpected token "<EOF>" (expected ")")`) {
		p.s.add(pos, "", "missing `)`: the parentheses of this declaration do not balance")
		return
	}
	if strings.Contains(msg, "unexpected token \"}\"") || pos == eof {
		hint = "a pointcut declaration ends with `;`, advice with its body `{ Class.method(...); }`"
	}
	if len(toks) > 0 {
		switch toks[0].Value {
		case "pointcut", "before", "after":
		default:
			hint = "declarations start with `pointcut`, `before` or `after`"
		}
	}
	p.s.add(pos, hint, "%s", tidy(msg))
}

// tidy rewrites participle's messages into this package's style, cutting
// a long list of expected grammar to its first token.
func tidy(msg string) string {
	msg = strings.ReplaceAll(msg, `unexpected token "<EOF>"`, "unexpected end")
	msg = strings.ReplaceAll(msg, `<EOF>`, "end")
	if i := strings.Index(msg, " (expected "); i >= 0 && strings.HasSuffix(msg, ")") {
		exp := msg[i+len(" (expected ") : len(msg)-1]
		if len(exp) > 24 {
			if j := strings.IndexByte(exp, ' '); j > 0 {
				exp = exp[:j] + " ..."
			}
			msg = msg[:i] + " (expected " + exp + ")"
		}
	}
	return msg
}

// walkDesignators calls fn for each designator of a declaration.
func walkDesignators(pd *PointcutDecl, ad *AdviceDecl, fn func(*Designator)) {
	var expr func(e *Expr)
	var unary func(u *UnaryExpr)
	unary = func(u *UnaryExpr) {
		switch {
		case u.Not != nil:
			unary(u.Not)
		case u.Paren != nil:
			expr(u.Paren)
		case u.Prim != nil:
			fn(u.Prim)
		}
	}
	expr = func(e *Expr) {
		for _, a := range e.Or {
			for _, u := range a.And {
				unary(u)
			}
		}
	}
	if pd != nil && pd.Expr != nil {
		expr(pd.Expr)
	}
	if ad != nil && ad.Expr != nil {
		expr(ad.Expr)
	}
}

// designator parses a designator's body with the grammar it takes.
func (p *fileParser) designator(d *Designator) bool {
	nameToks := 2*len(d.Name) - 1
	if len(d.Tokens) < nameToks+2 {
		p.s.add(d.Pos, "", "malformed designator")
		return false
	}
	closeTok := d.Tokens[len(d.Tokens)-1]
	d.Close = closeTok.Pos
	body := d.Tokens[nameToks+1:] // the body and the closing parenthesis
	eof := endPos(closeTok)
	name := strings.Join(d.Name, ".")
	var err error
	switch {
	case name == "call" || name == "execution" || name == "withincode":
		var b *methodBody
		b, err = methodParser.ParseFromLexer(peeking(body, eof))
		if err == nil {
			d.Method = b.P
		}
	case name == "within":
		var b *typeBody
		b, err = typeParser.ParseFromLexer(peeking(body, eof))
		if err == nil {
			d.Type = b.P
		}
	case reserved[name]:
		p.s.add(d.Pos, "supported designators: "+strings.Join(Designators, ", "), "%s() is not supported yet", name)
		return false
	default:
		var b *listBody
		b, err = listParser.ParseFromLexer(peeking(body, eof))
		if err == nil {
			d.List = b.L
		}
	}
	if err == nil {
		return true
	}
	var pe participle.Error
	pos, msg := d.Pos, err.Error()
	if errors.As(err, &pe) {
		pos, msg = pe.Position(), pe.Message()
	}
	hint := ""
	switch name {
	case "call", "execution", "withincode":
		hint = sigHint(body)
	case "this", "target", "args", "within":
	default:
		hint = "designators are " + strings.Join(Designators, ", ") +
			"; a named pointcut takes types or formals: name(Type, id)"
	}
	p.s.add(pos, hint, "in %s(...): %s", name, tidy(msg))
	return false
}

// sigHint guesses what is wrong with a signature pattern.
func sigHint(body []lexer.Token) string {
	hasParen := false
	for i, t := range body[:len(body)-1] {
		if t.Value == "(" {
			hasParen = true
		}
		if t.Type == tokName && t.Value == "new" && (i+1 >= len(body)-1 || body[i+1].Value != "(") {
			return "a constructor pattern needs a parameter list: write T.new(..)"
		}
	}
	if !hasParen {
		return "a method pattern needs a parameter list: e.g. call(* java.util.Map.put(..))"
	}
	return "signature patterns are [modifiers] ReturnType [DeclaringType.]name(Params) [throws T], or [DeclaringType.]new(Params)"
}

// isWild reports whether a name has a wildcard.
func isWild(s string) bool { return strings.Contains(s, "*") }
