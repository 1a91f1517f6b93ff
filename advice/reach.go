package advice

import (
	"fmt"
	"regexp"
)

// Reach is a set of classes, by internal name, that a Matcher's shadows can
// be in: a shadow of a class outside it matches no advice and no
// declaration, so a load-time weaver can leave the class unwoven without
// parsing it, or without the JVM even sending it. A nil *Reach is every
// class.
type Reach struct {
	// Patterns are regular expressions over internal names ("com/acme/Foo$1"),
	// each anchored, written in the common subset of Go's regexp and Java's
	// java.util.regex syntax (literals escaped with \, [..] classes, (?:..)
	// groups, * and ?), so that the JVM can apply them itself.
	Patterns []string
	res      []*regexp.Regexp
}

// ClassLimiter is implemented by a Matcher that knows which classes its
// shadows can be in.
type ClassLimiter interface {
	// ClassReach returns those classes; nil for every class.
	ClassReach() *Reach
}

// ClassReach returns the classes m's shadows can be in: every class (nil)
// unless m is a ClassLimiter.
func ClassReach(m Matcher) *Reach {
	if l, ok := m.(ClassLimiter); ok {
		return l.ClassReach()
	}
	return nil
}

// NewReach compiles patterns into a Reach. No pattern is no class.
func NewReach(patterns []string) (*Reach, error) {
	r := &Reach{Patterns: patterns}
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("class reach pattern %q: %v", p, err)
		}
		r.res = append(r.res, re)
	}
	return r, nil
}

// Has reports whether the class of internal name is in r.
func (r *Reach) Has(internal string) bool {
	if r == nil {
		return true
	}
	for _, re := range r.res {
		if re.MatchString(internal) {
			return true
		}
	}
	return false
}
