package ltw

import (
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/weaver/scope"
)

// ScopeFile is the file of -Dweft.ltw.scope, which the JVM reads
// (weft.rt.LTWScope) to leave classes unwoven itself: the scope's
// class patterns, a line each, + to include, - to exclude; then, unless
// every class is reached, = and each regexp of the aspects' reach (a lone
// = when they reach no class).
func ScopeFile(s *scope.Scope, reach *advice.Reach) []byte {
	var b strings.Builder
	if reach != nil {
		if len(reach.Patterns) == 0 {
			b.WriteString("=\n")
		}
		for _, re := range reach.Patterns {
			b.WriteString("=" + re + "\n")
		}
	}
	for _, p := range s.Patterns() {
		if p.Module {
			continue
		}
		if p.Exclude {
			b.WriteString("-")
		} else {
			b.WriteString("+")
		}
		b.WriteString(p.Glob + "\n")
	}
	return []byte(b.String())
}
