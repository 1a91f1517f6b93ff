package pointcut

import (
	"errors"
	"sort"
	"strings"
	"sync"

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

// The parsers are built on first use: building all of them took 5-7 ms
// of every weft command's start, most of them unused by a typical aspect.
var (
	declParser   = sync.OnceValue(build[declGrammar])
	methodParser = sync.OnceValue(build[methodBody])
	fieldParser  = sync.OnceValue(build[fieldBody])
	typeParser   = sync.OnceValue(build[typeBody])
	listParser   = sync.OnceValue(build[listBody])
	annotParser  = sync.OnceValue(build[annotListBody])
	exprParser   = sync.OnceValue(build[exprBody])
	ifParser     = sync.OnceValue(build[ifBody])
)

// Designators lists the primitive pointcut designators weft supports.
var Designators = []string{"call", "execution", "get", "set", "handler", "staticinitialization",
	"initialization", "preinitialization", "within", "withincode", "this", "target", "args",
	"@within", "@withincode", "@annotation", "@this", "@target", "@args", "cflow", "cflowbelow", "if", "leaf"}

// declareKinds are the declare forms weft has.
var declareKinds = map[string]bool{"precedence": true, "warning": true, "error": true, "parents": true}

// reserved are AspectJ designators weft does not support yet.
var reserved = map[string]bool{
	"adviceexecution": true,
	"proceed":         true,
}

// ParseFile parses the .weft source src read from filename. It reports
// syntax errors only (as an ErrorList, all of them); Resolve checks
// meaning. The returned File holds every declaration that parsed, even
// when err is non-nil.
func ParseFile(filename string, src []byte) (*File, error) {
	p := newParser(filename, src)
	p.parse()
	return p.f, p.s.list.Err()
}

// newParser lexes src into a parser of its declarations or, for an
// annotation's text, of one pointcut expression (parseexpr.go).
func newParser(name string, src []byte) *fileParser {
	s := &errorSink{src: src}
	sc := newScanner(name, src)
	walker, err := lexer.Upgrade(sc)
	if err != nil { // the scanner never fails
		panic(err)
	}
	if sc.unterminated != nil {
		s.add(*sc.unterminated, "close it with */", "unterminated comment")
	}
	// The tokens live once, in the walker; toks is a view of them.
	toks := walker.Range(0, lexer.RawCursor(sc.n))
	eof := walker.Range(lexer.RawCursor(sc.n), lexer.RawCursor(sc.n+1))[0].Pos
	return &fileParser{f: &File{Name: name, Src: src}, s: s, toks: toks, eof: eof, walker: walker}
}

type fileParser struct {
	f    *File
	s    *errorSink
	toks []lexer.Token
	i    int
	eof  Position
	// walker is a lexer over toks that at() moves forward.
	walker *lexer.PeekingLexer
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
		// A qualified name (pkg.Aspect) names an aspect translated from an
		// @AspectJ class, so that Java's references to its pointcuts
		// (pkg.Aspect.name()) and its precedence patterns read as written.
		for p.i+1 < len(p.toks) && p.toks[p.i].Value == "." && p.toks[p.i+1].Type == tokName {
			a.Name += "." + p.toks[p.i+1].Value
			p.i += 2
		}
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
		p.decl(a, start, p.i)
		if p.i < len(p.toks) && p.toks[p.i].Type == tokName && p.toks[p.i].Value == "aspect" {
			p.s.add(p.toks[p.i].Pos, "add `}` to close the aspect", "missing `}` at the end of aspect %s", a.Name)
			return
		}
	}
}

// at returns a lexer positioned at token i. Declarations and designator
// bodies are parsed in file order from one lexer over the whole file, so
// the tokens are copied once; walker only moves forward.
func (p *fileParser) at(i int) *lexer.PeekingLexer {
	if p.walker == nil || p.walker.Cursor() > i {
		return peeking(p.toks[i:], p.eof) // not reached: parsing goes forward
	}
	for p.walker.Cursor() < i {
		p.walker.Next()
	}
	lex := *p.walker
	return &lex
}

// index returns the index of the token at a byte offset.
func (p *fileParser) index(offset int) int {
	return sort.Search(len(p.toks), func(i int) bool { return p.toks[i].Pos.Offset >= offset })
}

func (p *fileParser) tokAt(i int) *lexer.Token {
	if i < len(p.toks) {
		return &p.toks[i]
	}
	return &lexer.Token{Type: lexer.EOF, Pos: p.eof}
}

// decl parses the declaration of tokens [start, end).
func (p *fileParser) decl(a *Aspect, start, end int) {
	toks := p.toks[start:end]
	if len(toks) > 1 && toks[0].Value == "declare" && toks[1].Type == tokName && !declareKinds[toks[1].Value] {
		p.s.add(toks[1].Pos, "weft has declare precedence, declare warning, declare error and declare parents",
			"declare %s is not supported", toks[1].Value)
		return
	}
	var d *declGrammar
	var lex *lexer.PeekingLexer
	var err error
	if isAroundDecl(toks) {
		if d, lex, err = p.aroundDecl(toks, start); d == nil && err == nil {
			return
		}
	} else {
		lex = p.at(start)
		d, err = declParser().ParseFromLexer(lex, participle.AllowTrailing(true))
	}
	if err == nil && lex.Cursor() != end {
		t := p.tokAt(lex.Cursor())
		err = participle.Errorf(t.Pos, "unexpected %s after the declaration", describe(t))
	}
	if err != nil {
		p.syntaxError(err, toks, p.tokAt(end).Pos)
		return
	}
	ok := true
	walkDesignators(d, func(ds *Designator) { ok = p.designator(ds) && ok })
	if !ok {
		return
	}
	switch {
	case d.Pointcut != nil:
		a.Pointcuts = append(a.Pointcuts, d.Pointcut)
	case d.Advice != nil:
		a.Advice = append(a.Advice, d.Advice)
	default:
		a.Declares = append(a.Declares, d.Declare)
	}
}

// syntaxError reports a declaration's syntax error; cut is where the
// declaration was cut from the next.
func (p *fileParser) syntaxError(err error, toks []lexer.Token, cut Position) {
	var pe participle.Error
	pos, msg := cut, err.Error()
	if errors.As(err, &pe) {
		pos, msg = pe.Position(), pe.Message()
	}
	if pos.Line == 0 {
		pos = cut
	}
	hint := ""
	if pos.Offset >= cut.Offset {
		hint = "a pointcut declaration ends with `;`, advice with its body `{ Class.method(...); }`"
	}
	if len(toks) > 0 {
		switch toks[0].Value {
		case "pointcut", "before", "after":
		case "declare":
			switch {
			case len(toks) > 1 && toks[1].Value == "precedence":
				hint = "write declare precedence: Aspect1, Aspect2, ...;"
			case len(toks) > 1 && toks[1].Value == "parents":
				hint = "write declare parents: TypePattern implements pkg.Interface [defaultImpl pkg.Class];"
			case len(toks) > 1 && declareKinds[toks[1].Value]:
				hint = "write declare " + toks[1].Value + ": Pointcut : \"message\";"
			default:
				hint = "write declare precedence, declare warning, declare error or declare parents"
			}
		default:
			hint = "declarations start with `pointcut`, `before`, `after` or `declare`"
			if isAroundDecl(toks) {
				hint = "around advice is `Type around(Formals): Pointcut { pkg.Advice.m(proceed, ...); }`"
			}
		}
	}
	p.s.add(pos, hint, "%s", tidy(msg))
}

// tidy rewrites participle's messages into this package's style, cutting
// a long list of expected grammar to its first token.
func tidy(msg string) string {
	msg = strings.ReplaceAll(msg, `unexpected token "<EOF>"`, "unexpected end")
	msg = strings.ReplaceAll(msg, `<EOF>`, "end")
	msg = strings.ReplaceAll(msg, "StringLit", "a string")
	if i := strings.Index(msg, " (expected "); i >= 0 && strings.HasSuffix(msg, ")") {
		exp := msg[i+len(" (expected ") : len(msg)-1]
		if len(exp) > 24 {
			if j := strings.IndexByte(exp, ' '); j > 0 {
				exp = exp[:j] + " ..."
			}
			msg = msg[:i] + " (expected " + exp + ")"
		}
	}
	if i := strings.Index(msg, " (expected (DeclarePrecedence"); i >= 0 {
		msg = msg[:i] + ` (expected "precedence", "parents", "warning" or "error")`
	}
	return msg
}

// walkDesignators calls fn for each designator of a declaration.
func walkDesignators(d *declGrammar, fn func(*Designator)) {
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
			if u.Prim.Cflow != nil {
				expr(u.Prim.Cflow) // parsed by fn
			}
		}
	}
	expr = func(e *Expr) {
		for _, a := range e.Or {
			for _, u := range a.And {
				unary(u)
			}
		}
	}
	switch {
	case d.Pointcut != nil && d.Pointcut.Expr != nil:
		expr(d.Pointcut.Expr)
	case d.Advice != nil && d.Advice.Expr != nil:
		expr(d.Advice.Expr)
	case d.Declare != nil && d.Declare.Message != nil && d.Declare.Message.Expr != nil:
		expr(d.Declare.Message.Expr)
	}
}

// designator parses a designator's body with the grammar it takes.
func (p *fileParser) designator(d *Designator) bool {
	d.Close = d.Body.Close.Pos
	open, close := p.index(d.Body.Open.Pos.Offset), p.index(d.Body.Close.Pos.Offset)
	body := p.toks[open+1 : close+1] // the body and the closing parenthesis
	name := strings.Join(d.Name, ".")
	if d.At {
		name = "@" + name // annotation designators take a list (annotation.go)
		if !isDesignator(name) {
			p.s.add(d.Pos, "annotation designators are @within, @withincode, @annotation, @this, @target, @args",
				"unknown designator %s", name)
			return false
		}
	}
	if reserved[name] {
		p.s.add(d.Pos, "supported designators: "+strings.Join(Designators, ", "), "%s() is not supported yet", name)
		return false
	}
	lex := p.at(open + 1)
	trailing := participle.AllowTrailing(true)
	var err error
	switch name {
	case "call", "execution", "withincode", "initialization", "preinitialization":
		var b *methodBody
		if b, err = methodParser().ParseFromLexer(lex, trailing); err == nil {
			d.Method = b.P
		}
	case "get", "set":
		var b *fieldBody
		if b, err = fieldParser().ParseFromLexer(lex, trailing); err == nil {
			d.Field = b.P
		}
	case "within", "handler", "staticinitialization":
		var b *typeBody
		if b, err = typeParser().ParseFromLexer(lex, trailing); err == nil {
			d.Type = b.P
		}
	case "cflow", "cflowbelow":
		var b *exprBody
		if b, err = exprParser().ParseFromLexer(lex, trailing); err == nil {
			d.Cflow = b.E
		}
	case "if":
		var b *ifBody
		if b, err = ifParser().ParseFromLexer(lex, trailing); err == nil {
			d.If = b.C
		}
	case "@within", "@withincode", "@annotation", "@this", "@target", "@args":
		var b *annotListBody
		if b, err = annotParser().ParseFromLexer(lex, trailing); err == nil {
			for _, e := range b.L {
				d.List = append(d.List, &ListElem{Pos: e.Pos, Ellipsis: e.Ellipsis, Type: e.Type, Values: e.Values})
			}
		}
	default:
		var b *listBody
		if b, err = listParser().ParseFromLexer(lex, trailing); err == nil {
			d.List = b.L
		}
	}
	if err == nil && lex.Cursor() != close+1 {
		t := p.tokAt(lex.Cursor())
		err = participle.Errorf(t.Pos, "unexpected %s", describe(t))
	}
	if err == nil {
		return true
	}
	var pe participle.Error
	pos, msg := d.Pos, err.Error()
	if errors.As(err, &pe) {
		pos, msg = pe.Position(), pe.Message()
	}
	switch name {
	case "call", "execution", "withincode", "initialization", "preinitialization":
		p.s.add(pos, sigHint(body), "in %s(...): %s", name, tidy(msg))
	case "get", "set":
		msg = strings.Replace(tidy(msg), "(expected SigName)", "(expected the field's [DeclaringType.]name)", 1)
		p.s.add(pos, fieldHint(body), "in %s(...): %s", name, msg)
	case "this", "target", "args", "within", "cflow", "cflowbelow":
		p.s.add(pos, "", "in %s(...): %s", name, tidy(msg))
	case "handler", "staticinitialization":
		p.s.add(pos, name+" takes a type pattern, e.g. "+name+"(java.io.IOException+)", "in %s(...): %s", name, tidy(msg))
	case "if":
		p.s.add(pos, "write if(pkg.Class.method(formals)) calling a public static boolean method, or if(true)",
			"in if(...): %s", tidy(msg))
	default:
		p.s.add(d.Pos, "designators are "+strings.Join(Designators, ", ")+
			"; a named pointcut takes types or formals: name(Type, id)",
			"unknown designator %s (or a malformed pointcut reference: %s at %d:%d)", name, tidy(msg), pos.Line, pos.Column)
	}
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
