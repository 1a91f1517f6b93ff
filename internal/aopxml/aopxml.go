// Package aopxml reads AspectJ's load-time weaving configuration, the
// META-INF/aop.xml files (and aop-ajc.xml, org/aspectj/aop.xml) of a class
// path, as AspectJ's agent reads them: the aspects to run, which of them
// (<aspects><include|exclude>), the types woven (<weaver><include|exclude>)
// and the weaver's options. Each element read keeps its line, for errors.
// A DOCTYPE is read, never fetched.
package aopxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Resources are the names AspectJ's agent looks for on the class path, in
// its order.
var Resources = []string{"META-INF/aop.xml", "META-INF/aop-ajc.xml", "org/aspectj/aop.xml"}

// Config is one aop.xml file.
type Config struct {
	File    string // where it was read, as given (e.g. app.jar!/META-INF/aop.xml)
	Aspects []Item // <aspects><aspect name>: binary names, in document order
	// Concrete are <aspects><concrete-aspect>: aspects the file defines,
	// each extending an abstract aspect with its pointcuts.
	Concrete []*ConcreteAspect
	// AspectInclude and AspectExclude are <aspects>' within patterns:
	// which aspects of all the files' lists run.
	AspectInclude, AspectExclude []Item
	// Include and Exclude are <weaver>'s within patterns: the types woven.
	Include, Exclude []Item
	Options          []string // <weaver options="...">, split at blanks
}

// Item is an element's name or within pattern and the line it is on.
type Item struct {
	Value string
	Line  int
}

// ConcreteAspect is <concrete-aspect name extends [precedence]
// [perclause]> with its <pointcut name expression/> elements.
type ConcreteAspect struct {
	Name, Extends         string
	Precedence, PerClause string // "" if not given
	Pointcuts             []Pointcut
	Line                  int
	// Other names the first element or attribute weft does not read
	// (AspectJ's <before>, <around>... advice), "" if none.
	Other string
}

// Pointcut is a concrete aspect's <pointcut name expression/>.
type Pointcut struct {
	Name, Expression string
	Line             int
}

// Where is "file:line" of an item of c.
func (c *Config) Where(it Item) string { return fmt.Sprintf("%s:%d", c.File, it.Line) }

// MaxSize bounds an aop.xml read whole (they are a few hundred bytes).
const MaxSize = 4 << 20

// Parse reads the aop.xml text b, named file in errors.
func Parse(file string, b []byte) (*Config, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%s: %d bytes is too large for an aop.xml", file, len(b))
	}
	c := &Config{File: file}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var stack []string
	root := false
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		line := 1 + bytes.Count(b[:off], []byte("\n"))
		switch t := tok.(type) {
		case xml.StartElement:
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			if len(stack) == 0 {
				if t.Name.Local != "aspectj" || root {
					return nil, fmt.Errorf("%s:%d: <%s>: an aop.xml holds one <aspectj> element", file, line, t.Name.Local)
				}
				root = true
			}
			if err := c.element(parent, t, line); err != nil {
				return nil, err
			}
			stack = append(stack, t.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if !root {
		return nil, fmt.Errorf("%s: no <aspectj> element", file)
	}
	return c, nil
}

// element reads one start element under parent.
func (c *Config) element(parent string, t xml.StartElement, line int) error {
	attr := func(name string) string {
		for _, a := range t.Attr {
			if a.Name.Local == name {
				return strings.TrimSpace(a.Value)
			}
		}
		return ""
	}
	name := t.Name.Local
	where := fmt.Sprintf("%s:%d", c.File, line)
	within := func(list *[]Item) error {
		w := attr("within")
		if w == "" {
			return fmt.Errorf("%s: <%s> without a within pattern", where, name)
		}
		*list = append(*list, Item{w, line})
		return nil
	}
	switch {
	case parent == "aspects" && name == "aspect":
		n := attr("name")
		if n == "" {
			return fmt.Errorf("%s: <aspect> without a name", where)
		}
		c.Aspects = append(c.Aspects, Item{n, line})
	case parent == "aspects" && name == "concrete-aspect":
		ca := &ConcreteAspect{Name: attr("name"), Extends: attr("extends"), Precedence: attr("precedence"),
			PerClause: attr("perclause"), Line: line}
		for _, a := range t.Attr {
			switch a.Name.Local {
			case "name", "extends", "precedence", "perclause":
			default:
				if ca.Other == "" {
					ca.Other = "attribute " + a.Name.Local
				}
			}
		}
		if ca.Name == "" || ca.Extends == "" {
			return fmt.Errorf("%s: <concrete-aspect> needs a name and the aspect it extends", where)
		}
		c.Concrete = append(c.Concrete, ca)
	case parent == "concrete-aspect" && name == "pointcut":
		ca := c.Concrete[len(c.Concrete)-1]
		n, e := attr("name"), attr("expression")
		if n == "" || e == "" {
			return fmt.Errorf("%s: <pointcut> needs a name and an expression", where)
		}
		ca.Pointcuts = append(ca.Pointcuts, Pointcut{n, e, line})
	case parent == "concrete-aspect":
		if ca := c.Concrete[len(c.Concrete)-1]; ca.Other == "" {
			ca.Other = "<" + name + ">"
		}
	case parent == "aspects" && name == "include":
		return within(&c.AspectInclude)
	case parent == "aspects" && name == "exclude":
		return within(&c.AspectExclude)
	case parent == "weaver" && name == "include":
		return within(&c.Include)
	case parent == "weaver" && name == "exclude":
		return within(&c.Exclude)
	case parent == "aspectj" && name == "weaver":
		c.Options = append(c.Options, strings.Fields(attr("options"))...)
	}
	return nil
}
