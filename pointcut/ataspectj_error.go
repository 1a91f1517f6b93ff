package pointcut

import (
	"fmt"
	"strings"
)

// AtAspectError is an error in an @AspectJ aspect. Its text is
//
//	com/acme/Tracing.java:12: aspect com.acme.Tracing, method trace(JoinPoint, int): message
//	    the annotation string
//	    ^
//	    hint: what to do
//
// naming the source file (or, without a SourceFile attribute, the class
// file) and the member's first line when the class has them.
type AtAspectError struct {
	Class  string // the aspect's internal name
	File   string // "com/acme/Tracing.java", or "com/acme/Tracing.class" if the source is unknown
	Line   int    // the member's first source line, 0 if unknown
	Member string // "method trace(JoinPoint, int)", "field noJdbc", "" for the class itself
	Text   string // the annotation string the error is in, "" if none
	Column int    // 1-based column (in characters) in Text, 0 if none
	Msg    string
	Hint   string // "" when no hint is obvious
}

func (e *AtAspectError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	b.WriteString("aspect ")
	b.WriteString(strings.ReplaceAll(e.Class, "/", "."))
	if e.Member != "" {
		b.WriteString(", ")
		b.WriteString(e.Member)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Text != "" && e.Column > 0 {
		// One line, each newline a blank, so the caret stays under its column.
		text := strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, e.Text)
		b.WriteString("\n    ")
		b.WriteString(text)
		b.WriteString("\n    ")
		b.WriteString(caretIndent(text, e.Column))
		b.WriteString("^")
	}
	if e.Hint != "" {
		b.WriteString("\n    hint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// AtAspectErrors is every error ReadAtAspect found in one class, in the
// order it met them: the class's, then its methods', then its fields'.
type AtAspectErrors []*AtAspectError

func (l AtAspectErrors) Error() string { return listText(l) }
