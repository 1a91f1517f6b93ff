package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// collections4Jar is Debian's libcommons-collections4-java.
const collections4Jar = "/usr/share/java/commons-collections4.jar"

// Lines that differ by design:
//   - ajc 1.9.5 matches the name pattern of call(* org.apache.commons.collections4.map..*.*(..))
//     textually against array types, so it selects X[].clone() for a class
//     X of that package (docs/language.md, differences: array types
//     against name patterns);
//   - TreeBidiMap$Inverse.put(V, K), an inner class implementing
//     OrderedBidiMap<V, K> with its outer class's type variables swapped,
//     overrides Map.put: javac's bridge put(Object, Object) says so and
//     weft follows it, while ajc does not see the override (it does for
//     TreeBidiMap.put(K, V) and for Inverse's get and remove).
//
// TestAgainstAspectJOnCollections compares, join point for join point, the
// weave-info lines of ajc and weft on commons-collections4 for execution
// and call pointcuts over packages (Overrides.aj, overrides.weft): a
// method matches through every supertype that has a method of the same
// name and parameter types, whatever its return type (covariant
// overriding: the bidimap decorators' decorated() and values() return
// narrower types than the java.util and map-package methods they
// override), with that supertype's return type and modifiers.
func TestAgainstAspectJOnCollections(t *testing.T) {
	t.Parallel() // see jdkOnce
	for _, f := range []string{ajcPath, aspectjrt, collections4Jar} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: %s", f, installAJ+" libcommons-collections4-java")
		}
	}
	jvmtest.JavaHome(t) // fails the test without a JDK
	adv := diffAdvice(t)
	want := normalizeInfo(ajcWeave(t, collections4Jar, filepath.Join(t.TempDir(), "ajc.jar"), adv, []string{filepath.Join(diffFolder, "Overrides.aj")}))

	text, err := os.ReadFile(filepath.Join(diffFolder, "overrides.weft"))
	if err != nil {
		t.Fatal(err)
	}
	got := weftWeaveInfo(t, collections4Jar, filepath.Join(t.TempDir(), "weft.jar"), "overrides.weft", text, adv, false)
	missing, extra, intentional := weaveInfoDiff(want, got, func(l string, ajcOnly bool) bool {
		if ajcOnly {
			return arrayMethodCall(l)
		}
		return strings.HasPrefix(l, "Join point 'method-execution(java.lang.Comparable org.apache.commons.collections4.bidimap.TreeBidiMap$Inverse.put(")
	})
	t.Logf("ajc: %d distinct lines, weft: %d; %d differ by design", len(want), len(got), intentional)
	if len(want) < 1000 {
		t.Errorf("ajc reported only %d lines: the comparison is vacuous", len(want))
	}
	reportWeaveInfoDiff(t, missing, extra)
}

// arrayMethodCall reports whether a weave-info line is a call of a method
// on an array type (X[].clone()).
func arrayMethodCall(line string) bool {
	return strings.HasPrefix(line, "Join point 'method-call(") && strings.Contains(calledMember(line), "[].")
}
