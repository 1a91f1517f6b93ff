package scope

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
)

// ReadAopXML reads the <weaver> element's <include within="..."/> and
// <exclude within="..."/> of an AspectJ META-INF/aop.xml as patterns. A
// within type pattern maps to a glob over internal names: . separates
// packages (/), .. any number of packages (/**/), * any part of a name;
// com.acme..* is com/acme/**/*. What the glob syntax cannot say is refused
// with the file and line: subtypes (+), annotations (@), boolean
// operators (&&, ||, !) and parentheses. Nested types are written with $
// (Outer$Inner), as in the class file. The aspects, options and other
// elements of the file are ignored.
func ReadAopXML(path string) ([]Pattern, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseAopXML(path, b)
}

// ParseAopXML is ReadAopXML of the file's text.
func ParseAopXML(path string, text []byte) ([]Pattern, error) {
	d := xml.NewDecoder(bytes.NewReader(text))
	d.Strict = true
	var out []Pattern
	var stack []string
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			if (name == "include" || name == "exclude") && len(stack) > 0 && stack[len(stack)-1] == "weaver" {
				where := fmt.Sprintf("%s:%d", path, 1+bytes.Count(text[:off], []byte("\n")))
				within := ""
				for _, a := range t.Attr {
					if a.Name.Local == "within" {
						within = a.Value
					}
				}
				glob, err := withinGlob(within)
				if err != nil {
					return nil, fmt.Errorf("%s: <%s within=%q>: %v", where, name, within, err)
				}
				out = append(out, Pattern{Glob: glob, Exclude: name == "exclude", Where: where})
			}
			stack = append(stack, name)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// withinGlob maps an AspectJ within type pattern to a glob.
func withinGlob(within string) (string, error) {
	w := strings.TrimSpace(within)
	switch {
	case w == "":
		return "", fmt.Errorf("no within type pattern")
	case strings.ContainsAny(w, "+"):
		return "", fmt.Errorf("subtypes (+) depend on the hierarchy: not a name pattern; use within() in the aspect")
	case strings.ContainsAny(w, "@"):
		return "", fmt.Errorf("annotation patterns are not name patterns; use within(@A *) in the aspect")
	case strings.ContainsAny(w, "!&|()"):
		return "", fmt.Errorf("boolean type patterns are not supported: give one include or exclude per pattern")
	case strings.ContainsAny(w, " \t/"):
		return "", fmt.Errorf("not a type pattern")
	case w == "*" || w == "*..*" || w == "..*":
		return "**", nil
	}
	g := strings.ReplaceAll(w, "..", "\x00")
	g = strings.ReplaceAll(g, ".", "/")
	g = strings.ReplaceAll(g, "\x00", "/**/")
	g = strings.TrimPrefix(g, "/")
	return g, nil
}
