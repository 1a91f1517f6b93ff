package jdk

import (
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/weaver/scope"
)

// ModulesInScope returns the modules of the JDK's image img that s's
// module patterns take (every module for none), in the image's order:
// Options.Modules for a scope given as globs (java.*, jdk.compiler).
func ModulesInScope(img *classpath.ImageSource, s *scope.Scope) ([]string, error) {
	var out []string
	for _, m := range img.Modules() {
		if s.Module(m) {
			out = append(out, m)
		}
	}
	return out, nil
}
