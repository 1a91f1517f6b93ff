// Package scope says which classes and JDK modules a weaving may touch:
// include and exclude patterns, from command-line flags, a scope file or
// the <weaver> element of an AspectJ META-INF/aop.xml. Patterns are
// doublestar globs over internal class names (com/acme/**,
// **/generated/**, java/util/*: the entry name without .class; $ is an
// ordinary character, so com/acme/Foo* takes Foo's nested classes) and over
// module names (java.*, jdk.compiler).
//
// A class is in scope if no include pattern is given or one matches it,
// and no exclude pattern matches it. A scope narrows what the aspects'
// pointcuts select; it never widens it, and the JDK's own exclusion list
// stays in force whatever it includes.
package scope

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"
)

// Pattern is one include or exclude pattern and where it was given.
type Pattern struct {
	Glob    string
	Exclude bool
	Where   string // "--include", "scope.txt:3", "META-INF/aop.xml:12"
	Module  bool   // a pattern over module names, not class names
}

// rule is a Pattern and its counts.
type rule struct {
	Pattern
	left atomic.Int64 // names it left out (an exclude's matches that an include took)
	hits atomic.Int64 // names it matched
}

// Scope is a list of patterns. The zero Scope (and nil) takes everything.
// It is safe for concurrent use.
type Scope struct {
	patterns []*rule
	classes  bool // some pattern is over classes
	includes bool // some class pattern includes
	modIncl  bool // some module pattern includes
	missed   atomic.Int64
	kept     map[string]bool // classes in scope whatever the patterns (Keep)
}

// New returns the scope of patterns, checking each glob.
func New(patterns ...Pattern) (*Scope, error) {
	s := &Scope{}
	for _, p := range patterns {
		if !doublestar.ValidatePattern(p.Glob) {
			return nil, fmt.Errorf("%s: %q is not a valid pattern (doublestar syntax: *, **, ?, [a-z], {a,b})", p.Where, p.Glob)
		}
		s.patterns = append(s.patterns, &rule{Pattern: p})
		switch {
		case p.Module:
			s.modIncl = s.modIncl || !p.Exclude
		default:
			s.classes = true
			s.includes = s.includes || !p.Exclude
		}
	}
	return s, nil
}

// Empty reports whether s takes every class and module.
func (s *Scope) Empty() bool { return s == nil || len(s.patterns) == 0 }

// Class reports whether the class of internal name is in scope, counting
// the patterns' matches.
func (s *Scope) Class(name string) bool {
	if s == nil || !s.classes || s.kept[name] {
		return true
	}
	return s.match(name, false)
}

// Keep puts the classes named (internal names) in scope whatever the
// patterns say: those a tool's own advice needs (recrash's
// java/lang/Thread, where it sees a thread end by an exception). Call it
// before the scope is used.
func (s *Scope) Keep(names ...string) {
	if s == nil {
		return
	}
	if s.kept == nil {
		s.kept = map[string]bool{}
	}
	for _, n := range names {
		s.kept[n] = true
	}
}

// Module reports whether the JDK module name is in scope.
func (s *Scope) Module(name string) bool {
	if s == nil || len(s.patterns) == 0 {
		return true
	}
	return s.match(name, true)
}

func (s *Scope) match(name string, module bool) bool {
	included := module && !s.modIncl || !module && !s.includes
	var excludedBy *rule
	for _, p := range s.patterns {
		if p.Module != module || !doublestar.MatchUnvalidated(p.Glob, name) {
			continue
		}
		p.hits.Add(1)
		if p.Exclude {
			if excludedBy == nil {
				excludedBy = p
			}
		} else {
			included = true
		}
	}
	switch {
	case !included && !module:
		s.missed.Add(1)
	case excludedBy != nil:
		excludedBy.left.Add(1)
	}
	return included && excludedBy == nil
}

// Left says how many classes the scope left out so far: for each exclude
// pattern, the classes it excluded (that the includes took), and under
// "outside the includes" those no include took. Modules are not counted.
func (s *Scope) Left() map[string]int64 {
	out := map[string]int64{}
	if s == nil {
		return out
	}
	if n := s.missed.Load(); n > 0 {
		out["outside the includes"] = n
	}
	for _, p := range s.patterns {
		if n := p.left.Load(); n > 0 {
			out[p.describe()] = n
		}
	}
	return out
}

// Unmatched returns the patterns that matched no name so far, as
// warnings (like AspectJ's adviceDidNotMatch): a misspelt package.
func (s *Scope) Unmatched() []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, p := range s.patterns {
		if p.hits.Load() == 0 {
			out = append(out, fmt.Sprintf("%s: %s matched no %s", p.Where, p.describe(), map[bool]string{false: "class", true: "module"}[p.Module]))
		}
	}
	return out
}

func (p *rule) describe() string {
	if p.Exclude {
		return "exclude " + p.Glob
	}
	return "include " + p.Glob
}

// Key is a digest of the patterns, for cache keys: two scopes with the
// same patterns, in any order of the same kind, have the same key; ""
// for the empty scope.
func (s *Scope) Key() string {
	if s.Empty() {
		return ""
	}
	var lines []string
	for _, p := range s.patterns {
		lines = append(lines, fmt.Sprintf("%v %v %s", p.Module, p.Exclude, p.Glob))
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:8])
}

// Patterns returns the patterns, in order.
func (s *Scope) Patterns() []Pattern {
	if s == nil {
		return nil
	}
	out := make([]Pattern, len(s.patterns))
	for i, p := range s.patterns {
		out[i] = p.Pattern
	}
	return out
}
