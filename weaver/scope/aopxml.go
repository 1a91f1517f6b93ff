package scope

import (
	"fmt"
	"os"
	"strings"

	"github.com/weft-aop/weft/internal/aopxml"
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
	c, err := aopxml.Parse(path, text)
	if err != nil {
		return nil, err
	}
	var out []Pattern
	add := func(items []aopxml.Item, exclude bool, name string) error {
		for _, it := range items {
			glob, err := withinGlob(it.Value)
			if err != nil {
				return fmt.Errorf("%s: <%s within=%q>: %v", c.Where(it), name, it.Value, err)
			}
			out = append(out, Pattern{Glob: glob, Exclude: exclude, Where: c.Where(it)})
		}
		return nil
	}
	if err := add(c.Include, false, "include"); err != nil {
		return nil, err
	}
	if err := add(c.Exclude, true, "exclude"); err != nil {
		return nil, err
	}
	return out, nil
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
