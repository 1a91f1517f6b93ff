package pointcut

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// weftLexer defines the token types of .weft files for participle; the
// file is tokenized by scan below, a hand-written equivalent that is
// several times faster than the regexp-driven lexer.
//
// Tokenizing never fails: a character that is no part of the language
// becomes an Other token, so the parser (not the lexer) reports it, with a
// position. Name covers identifiers and the name patterns of AspectJ (`*`,
// `get*`, `*Map`): whether a wildcard is allowed is decided by the
// grammar's users, which give a better message than a lexer could.
var weftLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
	{Name: "Unterminated", Pattern: `/\*`},
	{Name: "Whitespace", Pattern: `\s+`},
	{Name: "Name", Pattern: `[\p{L}_$*][\p{L}\p{N}_$*]*`},
	{Name: "Number", Pattern: `-?[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?([eEpP][-+][0-9][0-9A-Za-z_]*)?`},
	{Name: "Punct", Pattern: `\.\.\.|\.\.|&&|\|\||!=|[.,;:(){}\[\]!+@=]`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Char", Pattern: `'(\\.|[^'\\\n])*'`},
	{Name: "Other", Pattern: `(?s:.)`},
})

var (
	tokName   = weftLexer.Symbols()["Name"]
	tokPunct  = weftLexer.Symbols()["Punct"]
	tokString = weftLexer.Symbols()["String"]
	tokNumber = weftLexer.Symbols()["Number"]
	tokChar   = weftLexer.Symbols()["Char"]
	tokOther  = weftLexer.Symbols()["Other"]
)

// scanner tokenizes src as weftLexer's rules do, dropping comments and
// blanks; it is a lexer.Lexer, so participle's PeekingLexer is filled
// straight from it (the file's tokens are stored once). An unterminated
// block comment ends the input: Next returns EOF there and unterminated
// holds the comment's position.
type scanner struct {
	src          string
	pos          Position
	n            int // tokens returned, EOF excluded
	unterminated *Position
}

func newScanner(filename string, src []byte) *scanner {
	return &scanner{src: string(src), pos: Position{Filename: filename, Line: 1, Column: 1}}
}

// advance moves pos over n bytes.
func (s *scanner) advance(n int) {
	for _, r := range s.src[s.pos.Offset : s.pos.Offset+n] {
		if r == '\n' {
			s.pos.Line++
			s.pos.Column = 1
		} else {
			s.pos.Column++
		}
	}
	s.pos.Offset += n
}

func (s *scanner) token(typ lexer.TokenType, n int) (lexer.Token, error) {
	t := lexer.Token{Type: typ, Value: s.src[s.pos.Offset : s.pos.Offset+n], Pos: s.pos}
	s.advance(n)
	s.n++
	return t, nil
}

// Next implements lexer.Lexer.
func (s *scanner) Next() (lexer.Token, error) {
	for s.pos.Offset < len(s.src) && s.unterminated == nil {
		rest := s.src[s.pos.Offset:]
		r, size := utf8.DecodeRuneInString(rest)
		switch {
		case r == '\n' || r == ' ' || r == '\t' || r == '\r' || r != utf8.RuneError && unicode.IsSpace(r):
			s.advance(size)
		case r == '/' && len(rest) > 1 && rest[1] == '/':
			n := strings.IndexByte(rest, '\n')
			if n < 0 {
				n = len(rest)
			}
			s.advance(n)
		case r == '/' && len(rest) > 1 && rest[1] == '*':
			n := strings.Index(rest[2:], "*/")
			if n < 0 {
				p := s.pos
				s.unterminated = &p
				break
			}
			s.advance(n + 4)
		case isNameStart(r):
			n := size
			for n < len(rest) {
				r2, s2 := utf8.DecodeRuneInString(rest[n:])
				if !isNameStart(r2) && !unicode.IsNumber(r2) {
					break
				}
				n += s2
			}
			return s.token(tokName, n)
		case isDigit(r) || r == '-' && len(rest) > 1 && isDigit(rune(rest[1])):
			return s.token(tokNumber, numberLen(rest))
		case r == '.' && strings.HasPrefix(rest, "..."):
			return s.token(tokPunct, 3)
		case strings.HasPrefix(rest, ".."), strings.HasPrefix(rest, "&&"), strings.HasPrefix(rest, "||"),
			strings.HasPrefix(rest, "!="):
			return s.token(tokPunct, 2)
		case r < utf8.RuneSelf && isPunct[r]:
			return s.token(tokPunct, 1)
		case r == '"' || r == '\'':
			n := 1
			for n < len(rest) && rest[n] != rest[0] && rest[n] != '\n' {
				if rest[n] == '\\' && n+1 < len(rest) && rest[n+1] != '\n' {
					n++
				}
				n++
			}
			if n < len(rest) && rest[n] == rest[0] {
				if r == '"' {
					return s.token(tokString, n+1)
				}
				return s.token(tokChar, n+1)
			}
			return s.token(tokOther, 1)
		default:
			return s.token(tokOther, size)
		}
	}
	return lexer.EOFToken(s.pos), nil
}

// scan returns all tokens of src (for tests and small inputs).
func scan(filename string, src []byte) []lexer.Token {
	s := newScanner(filename, src)
	var toks []lexer.Token
	for {
		t, _ := s.Next()
		if t.EOF() {
			return toks
		}
		toks = append(toks, t)
	}
}

var isPunct = [utf8.RuneSelf]bool{'.': true, ',': true, ';': true, ':': true, '(': true, ')': true,
	'{': true, '}': true, '[': true, ']': true, '!': true, '+': true, '@': true, '=': true}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// numberLen returns the length of the number literal rest starts with (an
// annotation value: `-3`, `7L`, `2.5`, `1e-3`, `0x1F`): a sign, digits,
// letters and underscores, one fraction, one signed exponent.
func numberLen(rest string) int {
	word := func(n int) int {
		for n < len(rest) && (isDigit(rune(rest[n])) || rest[n] == '_' || rest[n] < utf8.RuneSelf && unicode.IsLetter(rune(rest[n]))) {
			n++
		}
		return n
	}
	n := 0
	if rest[0] == '-' {
		n++
	}
	n = word(n)
	if n+1 < len(rest) && rest[n] == '.' && isDigit(rune(rest[n+1])) {
		n = word(n + 1)
	}
	if e := rest[n-1]; (e == 'e' || e == 'E' || e == 'p' || e == 'P') && n+1 < len(rest) &&
		(rest[n] == '-' || rest[n] == '+') && isDigit(rune(rest[n+1])) && !strings.HasPrefix(rest, "0x") {
		n = word(n + 1)
	}
	return n
}

func isNameStart(r rune) bool {
	return r == '_' || r == '$' || r == '*' || r != utf8.RuneError && unicode.IsLetter(r)
}

// tokenStream replays a slice of tokens as a lexer.Lexer, ending with an EOF
// token at eof. The file is scanned once, split into declarations and each
// is parsed on its own, so one syntax error does not hide the next.
type tokenStream struct {
	toks []lexer.Token
	eof  lexer.Position
}

func (s *tokenStream) Next() (lexer.Token, error) {
	if len(s.toks) == 0 {
		return lexer.EOFToken(s.eof), nil
	}
	t := s.toks[0]
	s.toks = s.toks[1:]
	return t, nil
}

func peeking(toks []lexer.Token, eof lexer.Position) *lexer.PeekingLexer {
	p, err := lexer.Upgrade(&tokenStream{toks: toks, eof: eof})
	if err != nil { // tokenStream never fails
		panic(err)
	}
	return p
}

// rawBody is a designator's parenthesized body: `(`, any tokens with
// balanced parentheses, `)`. Parsed by hand (participle.Parseable) because
// a grammar rule would branch per token.
type rawBody struct {
	Open, Close lexer.Token
	Toks        []lexer.Token // between the parentheses
}

func (b *rawBody) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Value != "(" || t.Type != tokPunct {
		return participle.NextMatch
	}
	b.Open = *lex.Next()
	depth := 0
	for {
		t := lex.Peek()
		switch {
		case t.EOF() || t.Type == tokPunct && (t.Value == ";" || t.Value == "{" || t.Value == "}"):
			return participle.Errorf(b.Open.Pos, "missing `)`: this `(` is not closed")
		case t.Value == "(" && t.Type == tokPunct:
			depth++
		case t.Value == ")" && t.Type == tokPunct:
			if depth == 0 {
				b.Close = *lex.Next()
				return nil
			}
			depth--
		}
		b.Toks = append(b.Toks, *lex.Next())
	}
}

// Parse implements participle.Parseable for SimpleType.
func (st *SimpleType) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokName {
		return participle.NextMatch
	}
	st.Pos, st.Head = t.Pos, t.Value
	st.end = t.Pos.Offset + len(t.Value)
	lex.Next()
	next := func() {
		t := lex.Next()
		st.end = t.Pos.Offset + len(t.Value)
	}
	// punctName consumes punct followed by a Name, returning the Name.
	punctName := func(puncts ...string) (sep, name string, ok bool) {
		t := lex.Peek()
		if t.Type != tokPunct {
			return "", "", false
		}
		for _, p := range puncts {
			if t.Value == p {
				cp := lex.MakeCheckpoint()
				lex.Next()
				if n := lex.Peek(); n.Type == tokName {
					next()
					return p, n.Value, true
				}
				lex.LoadCheckpoint(cp)
			}
		}
		return "", "", false
	}
	for {
		sep, name, ok := punctName(".", "..")
		if !ok {
			break
		}
		st.Rest = append(st.Rest, &NamePart{Sep: sep, Name: name})
	}
	if t := lex.Peek(); t.Type == tokPunct && t.Value == "+" {
		st.Plus = true
		next()
	}
	for {
		t := lex.Peek()
		if t.Type != tokPunct || t.Value != "[" {
			break
		}
		cp := lex.MakeCheckpoint()
		lex.Next()
		if c := lex.Peek(); c.Type != tokPunct || c.Value != "]" {
			lex.LoadCheckpoint(cp)
			break
		}
		next()
		st.Dims = append(st.Dims, "[")
	}
	if st.Plus || len(st.Dims) > 0 {
		if _, name, ok := punctName("."); ok {
			st.Member = name
		}
	}
	if t := lex.Peek(); t.Type == tokPunct && t.Value == "..." {
		st.Varargs = true
		next()
	}
	return nil
}

func isPunctTok(t *lexer.Token, v string) bool { return t.Type == tokPunct && t.Value == v }

// maxTypeNesting bounds the parentheses of a type pattern (and the
// recursion parsing them).
const maxTypeNesting = 200

// Parse implements participle.Parseable for TypePattern.
func (tp *TypePattern) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokName && !isPunctTok(t, "!") && !isPunctTok(t, "(") && !isPunctTok(t, "@") {
		return participle.NextMatch
	}
	return parseTypePattern(lex, tp, 0)
}

func parseTypePattern(lex *lexer.PeekingLexer, tp *TypePattern, depth int) error {
	tp.Pos = lex.Peek().Pos
	for {
		a := &TypeAnd{Pos: lex.Peek().Pos}
		for {
			u, err := parseTypeUnary(lex, depth)
			if err != nil {
				return err
			}
			a.And = append(a.And, u)
			if !isPunctTok(lex.Peek(), "&&") {
				break
			}
			lex.Next()
		}
		tp.Or = append(tp.Or, a)
		if !isPunctTok(lex.Peek(), "||") {
			return nil
		}
		lex.Next()
	}
}

func parseTypeUnary(lex *lexer.PeekingLexer, depth int) (*TypeUnary, error) {
	t := lex.Peek()
	u := &TypeUnary{Pos: t.Pos}
	if depth > maxTypeNesting {
		return nil, participle.Errorf(t.Pos, "type pattern nested too deeply")
	}
	switch {
	case startsAnnot(lex):
		a := &AnnotPattern{}
		if err := parseAnnotPattern(lex, a, depth); err != nil {
			return nil, err
		}
		inner, err := parseTypeUnary(lex, depth+1)
		if err != nil {
			return nil, err
		}
		if inner.Annot != nil { // cannot happen: parseAnnotPattern reads every item
			a.Items = append(a.Items, inner.Annot.Items...)
		}
		inner.Pos, inner.Annot = u.Pos, a
		return inner, nil
	case isPunctTok(t, "!"):
		lex.Next()
		inner, err := parseTypeUnary(lex, depth+1)
		if err != nil {
			return nil, err
		}
		u.Not = inner
	case isPunctTok(t, "("):
		lex.Next()
		inner := &TypePattern{}
		if err := parseTypePattern(lex, inner, depth+1); err != nil {
			return nil, err
		}
		if c := lex.Peek(); !isPunctTok(c, ")") {
			return nil, participle.Errorf(c.Pos, "unexpected %s (expected \")\")", tokenText(c))
		}
		lex.Next()
		u.Paren = inner
	case t.Type == tokName:
		st := &SimpleType{}
		if err := st.Parse(lex); err != nil {
			return nil, err
		}
		u.Simple = st
	default:
		return nil, participle.Errorf(t.Pos, "unexpected %s (expected a type pattern)", tokenText(t))
	}
	return u, nil
}

// tokenText quotes a token as participle's messages do.
func tokenText(t *lexer.Token) string {
	if t.EOF() {
		return "end"
	}
	return "token \"" + t.Value + "\""
}
