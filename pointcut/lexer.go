package pointcut

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// weftLexer tokenizes .weft files. It never fails: a character that is no
// part of the language becomes an Other token, so the parser (not the lexer)
// reports it, with a position. Name covers identifiers and the name patterns
// of AspectJ (`*`, `get*`, `*Map`): whether a wildcard is allowed is decided
// by the grammar's users, which give a better message than a lexer could.
var weftLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
	{Name: "Unterminated", Pattern: `/\*`},
	{Name: "Whitespace", Pattern: `\s+`},
	{Name: "Name", Pattern: `[\p{L}_$*][\p{L}\p{N}_$*]*`},
	{Name: "Punct", Pattern: `\.\.\.|\.\.|&&|\|\||[.,;:(){}\[\]!+@]`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Other", Pattern: `(?s:.)`},
})

var (
	tokName         = weftLexer.Symbols()["Name"]
	tokComment      = weftLexer.Symbols()["Comment"]
	tokWhitespace   = weftLexer.Symbols()["Whitespace"]
	tokUnterminated = weftLexer.Symbols()["Unterminated"]
)

// tokenStream replays a slice of tokens as a lexer.Lexer, ending with an EOF
// token at eof. The file is lexed once, split into declarations and each is
// parsed on its own, so one syntax error does not hide the next.
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
