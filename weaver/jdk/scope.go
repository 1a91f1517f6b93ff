package jdk

import (
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/weaver/scope"
)

// ModulesInScope returns the modules of the JDK at javaHome that s's
// module patterns take (every module for none), in the image's order:
// Options.Modules for a scope given as globs (java.*, jdk.compiler).
func ModulesInScope(javaHome string, s *scope.Scope) ([]string, error) {
	img, err := classpath.OpenJDK(javaHome)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	var out []string
	for _, m := range img.Modules() {
		if s.Module(m) {
			out = append(out, m)
		}
	}
	return out, nil
}
