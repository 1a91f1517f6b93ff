package pointcut

import (
	"bytes"
	"strconv"
	"strings"
)

// A .weft file written by a translation (an @AspectJ aspect's) says where
// each advice was written with a source comment on the line before it:
//
//	// source: com/acme/Trace.java:12, method enter(JoinPoint)
//	before(): ... { ... }
//
// The advice's File and Line are then that place, so that warnings about
// it (adviceDidNotMatch, weave-info) name the source the user wrote.

// sourceNote returns the text of the source comment of the declaration
// holding line (1-based) of src ("com/acme/Trace.java:12, method
// enter(JoinPoint)"), "" if there is none: an error in a translation's
// .weft file then names what the user wrote too.
func sourceNote(src []byte, line int) string {
	if line < 2 || !bytes.Contains(src, []byte("// source: ")) {
		return ""
	}
	lines := bytes.SplitN(src, []byte("\n"), line)
	if len(lines) < line {
		return ""
	}
	// The comment is on the line before the declaration, which may
	// span a few lines (an advice's body).
	for i := line - 2; i >= 0 && i >= line-5; i-- {
		text := strings.TrimSpace(string(lines[i]))
		if note, ok := strings.CutPrefix(text, "// source: "); ok {
			return note
		}
		if text == "}" || strings.HasSuffix(text, ";") || strings.HasPrefix(text, "//") {
			return ""
		}
	}
	return ""
}

// sourceComment returns the file and line of the source comment on the
// line before line (1-based) of src, if there is one.
func sourceComment(src []byte, line int) (string, int, bool) {
	if line < 2 {
		return "", 0, false
	}
	lines := bytes.SplitN(src, []byte("\n"), line)
	if len(lines) < line {
		return "", 0, false
	}
	text, ok := strings.CutPrefix(strings.TrimSpace(string(lines[line-2])), "// source: ")
	if !ok {
		return "", 0, false
	}
	if i := strings.IndexAny(text, ", "); i >= 0 {
		text = text[:i]
	}
	colon := strings.LastIndexByte(text, ':')
	if colon <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(text[colon+1:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return text[:colon], n, true
}
