package launch

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/weft-aop/weft/weaver/jdk"
	"github.com/weft-aop/weft/weaver/scope"
)

// ScopeOptions narrow what is woven: classes by glob (--include,
// --exclude), or a scope file or aop.xml (--scope).
type ScopeOptions struct {
	Include, Exclude []string
	File             string
	// Keep are classes a tool's own advice needs, in scope whatever the
	// patterns.
	Keep []string
}

// build returns the scope the flags say, nil for none.
func (o *ScopeOptions) build() (*scope.Scope, error) {
	var ps []scope.Pattern
	for _, g := range o.Include {
		ps = append(ps, scope.Pattern{Glob: g, Where: "--include"})
	}
	for _, g := range o.Exclude {
		ps = append(ps, scope.Pattern{Glob: g, Exclude: true, Where: "--exclude"})
	}
	if o.File != "" {
		read := scope.ReadFile
		if strings.HasSuffix(o.File, ".xml") {
			read = scope.ReadAopXML
		}
		more, err := read(o.File)
		if err != nil {
			return nil, err
		}
		ps = append(ps, more...)
	}
	if len(ps) == 0 {
		return nil, nil
	}
	s, err := scope.New(ps...)
	if err == nil {
		s.Keep(o.Keep...)
	}
	return s, err
}

// reportScope says what the scope left out and which patterns matched
// nothing (a misspelt package, as adviceDidNotMatch is a misspelt
// pointcut).
func reportScope(w io.Writer, s *scope.Scope) {
	if s.Empty() {
		return
	}
	left := s.Left()
	var parts []string
	for k, n := range left {
		parts = append(parts, fmt.Sprintf("%d %s", n, k))
	}
	sort.Strings(parts)
	if len(parts) > 0 {
		fmt.Fprintf(w, "weft: scope: classes left as they are: %s\n", strings.Join(parts, ", "))
	}
	for _, u := range s.Unmatched() {
		fmt.Fprintf(w, "weft: warning: %s\n", u)
	}
}

// expandModules returns --modules with its globs (java.*, !jdk.jfr to
// leave one out) expanded to the module names of j, in its image's order;
// "all" and plain lists are returned as they are.
func expandModules(j *JDK, modules string) (string, error) {
	if modules == "" || modules == "all" || !strings.ContainsAny(modules, "*?[{!") {
		return modules, nil
	}
	var ps []scope.Pattern
	for _, m := range strings.Split(modules, ",") {
		p := scope.Pattern{Glob: strings.TrimSpace(m), Module: true, Where: "--modules"}
		if rest, ok := strings.CutPrefix(p.Glob, "!"); ok {
			p.Glob, p.Exclude = rest, true
		}
		ps = append(ps, p)
	}
	s, err := scope.New(ps...)
	if err != nil {
		return "", err
	}
	img, err := j.Image()
	if err != nil {
		return "", err
	}
	mods, err := jdk.ModulesInScope(img, s)
	if err != nil {
		return "", err
	}
	if len(mods) == 0 {
		return "", fmt.Errorf("--modules %s: no module of %s matches", modules, j.Home)
	}
	return strings.Join(mods, ","), nil
}
