package jdk

import (
	"slices"
	"testing"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver/scope"
)

func TestModulesInScope(t *testing.T) {
	s, err := scope.New(scope.Pattern{Glob: "java.*", Module: true}, scope.Pattern{Glob: "jdk.compiler", Module: true},
		scope.Pattern{Glob: "java.sql*", Module: true, Exclude: true})
	if err != nil {
		t.Fatal(err)
	}
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	mods, err := ModulesInScope(img, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"java.base", "java.logging", "jdk.compiler"} {
		if !slices.Contains(mods, m) {
			t.Errorf("%s not in %v", m, mods)
		}
	}
	for _, m := range mods {
		if m == "java.sql" || m == "java.sql.rowset" || m == "jdk.jfr" {
			t.Errorf("%s in scope: %v", m, mods)
		}
	}
	all, err := ModulesInScope(img, nil)
	if err != nil || len(all) < 60 {
		t.Errorf("no scope: %d modules, %v", len(all), err)
	}
}
