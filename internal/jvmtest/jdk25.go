package jvmtest

import (
	"os"
	"path/filepath"
	"testing"
)

// DefaultJDK25 is where this project's machines have JDK 25 (Temurin).
const DefaultJDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64"

// JDK25 returns the home of JDK 25 for the tests that weave it:
// $WEFT_TEST_JDK25, else DefaultJDK25. The one exception to "a test never
// skips": on a machine without JDK 25, .ci/run says so and sets
// WEFT_TEST_JDK25=none, and the test then reports itself as not run, by
// name. A JDK 25 that is named but missing fails the test.
func JDK25(t testing.TB) string {
	t.Helper()
	h := os.Getenv("WEFT_TEST_JDK25")
	switch h {
	case "none":
		t.Skipf("%s not run: no JDK 25 on this machine (WEFT_TEST_JDK25=none)", t.Name())
	case "":
		h = DefaultJDK25
	}
	for _, f := range []string{"bin/java", "bin/javac", "lib/modules"} {
		if _, err := os.Stat(filepath.Join(h, f)); err != nil {
			t.Fatalf("JDK 25 at %s lacks %s: install it there or set WEFT_TEST_JDK25 (to none on a machine without it)", h, f)
		}
	}
	return h
}
