package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// Commands default to the JDK of the java on PATH, as the tests do, even
// with $JAVA_HOME elsewhere; --java-home must name a JDK.
func TestJDKHome(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other")
	t.Setenv("JAVA_HOME", other)
	if h, err := jdkHome(""); err != nil || h != jvmtest.JavaHome(t) {
		t.Errorf(`jdkHome("") = %q, %v; want %s`, h, err, jvmtest.JavaHome(t))
	}
	if h, err := jdkHome(jvmtest.JavaHome(t)); err != nil || h != jvmtest.JavaHome(t) {
		t.Errorf("jdkHome(%s) = %q, %v", jvmtest.JavaHome(t), h, err)
	}
	if _, err := jdkHome(other); err == nil || !strings.Contains(err.Error(), other+" is not a JDK") {
		t.Errorf("jdkHome(%s): error %v, want one saying it is not a JDK", other, err)
	}
}
