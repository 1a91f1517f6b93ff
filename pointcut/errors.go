package pointcut

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Error is a syntax or semantic error (or a warning) in a .weft file.
// Its text is
//
//	file:line:col: message
//	    the source line
//	    ^
//	    hint: what to do
type Error struct {
	Pos    Position
	Msg    string
	Hint   string // "" when no hint is obvious
	Source string // the source line holding Pos, without its newline
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.Pos, e.Msg)
	if e.Source != "" {
		b.WriteString("\n    ")
		b.WriteString(e.Source)
		b.WriteString("\n    ")
		b.WriteString(caretIndent(e.Source, e.Pos.Column))
		b.WriteString("^")
	}
	if e.Hint != "" {
		b.WriteString("\n    hint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// caretIndent returns the blanks that put a caret under column col (1-based,
// in characters) of line, keeping the line's tabs so the caret lines up.
func caretIndent(line string, col int) string {
	var b strings.Builder
	i := 1
	for _, r := range line {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	return b.String()
}

// ErrorList is a list of errors, like go/scanner's: Resolve and ParseFile
// report every error they find, sorted by position.
type ErrorList []*Error

func (l ErrorList) Error() string { return listText(l) }

// listText is the text of a list of errors: each on its lines, then their
// count.
func listText[E error](l []E) string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	fmt.Fprintf(&b, "\n(%d errors)", len(l))
	return b.String()
}

// Sort sorts the list by file and position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Err returns l as an error, or nil if l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

// errorSink collects errors for one file, adding the source line.
type errorSink struct {
	src  []byte
	list ErrorList
}

func (s *errorSink) add(pos Position, hint, format string, args ...any) *Error {
	e := &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Hint: hint, Source: sourceLine(s.src, pos)}
	s.list = append(s.list, e)
	return e
}

// sourceLine returns the line of src holding pos, or "" if pos is outside.
func sourceLine(src []byte, pos Position) string {
	off := pos.Offset
	if off < 0 || off > len(src) {
		return ""
	}
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	return strings.TrimRight(string(src[start:end]), "\r")
}
