package javacmd

import (
	"fmt"
	"os"
	"strings"
)

// The tokenizer of java's @argfiles, as the launcher reads them (JDK 9 and
// later, "java Command-Line Argument Files"):
//   - white space (space, \t, \f, \n, \r) separates arguments;
//   - ' or " quotes, anywhere in an argument, keep white space but for
//     line ends: a line end ends the argument, quoted or not;
//   - inside quotes, \n \r \t \f are those characters, \ before anything
//     else is that character, and \ at a line end continues the argument
//     on the next line, its leading white space dropped;
//   - outside quotes, \ is itself (a Windows path) and # starts a comment
//     to the line's end; the launcher drops what the argument had before it.

// lexState is where the tokenizer is.
type lexState int

const (
	findNext lexState = iota // between arguments
	inToken
	inQuote
	inEscape   // after \ in quotes
	skipLeadWS // after \ at a line end in quotes
	inComment
)

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r' }

// splitArgFile returns the arguments of an argfile's text.
func splitArgFile(text string) []string {
	var args []string
	var cur strings.Builder
	state, quote := findNext, byte(0)
	emit := func() {
		args = append(args, cur.String())
		cur.Reset()
		state = findNext
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch state {
		case findNext, skipLeadWS:
			if isSpace(c) {
				continue
			}
			if state == findNext {
				state = inToken
			} else {
				state = inQuote
			}
		case inEscape:
			switch c {
			case '\n', '\r':
				state = skipLeadWS
				continue
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'f':
				c = '\f'
			}
			cur.WriteByte(c)
			state = inQuote
			continue
		case inComment:
			if c == '\n' || c == '\r' {
				state = findNext
			}
			continue
		}
		switch c {
		case ' ', '\t', '\f':
			if state == inQuote {
				cur.WriteByte(c)
				continue
			}
			emit()
		case '\n', '\r':
			emit()
		case '#':
			if state == inQuote {
				cur.WriteByte(c)
				continue
			}
			cur.Reset()
			state = inComment
		case '\\':
			if state != inQuote {
				cur.WriteByte(c)
				continue
			}
			state = inEscape
		case '\'', '"':
			switch {
			case state == inQuote && c != quote:
				cur.WriteByte(c)
			case state == inToken:
				state, quote = inQuote, c
			default:
				state = inToken
			}
		default:
			cur.WriteByte(c)
		}
	}
	if state == inToken || state == inQuote || state == inEscape || state == skipLeadWS {
		args = append(args, cur.String())
	}
	return args
}

// readArgFile reads and splits the argfile named by an @ argument.
func readArgFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("argument file @%s: %w", path, err)
	}
	return splitArgFile(string(b)), nil
}
