package launch

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
	if h, err := JavaHome(""); err != nil || h != jvmtest.JavaHome(t) {
		t.Errorf(`JavaHome("") = %q, %v; want %s`, h, err, jvmtest.JavaHome(t))
	}
	if h, err := JavaHome(jvmtest.JavaHome(t)); err != nil || h != jvmtest.JavaHome(t) {
		t.Errorf("JavaHome(%s) = %q, %v", jvmtest.JavaHome(t), h, err)
	}
	if _, err := JavaHome(other); err == nil || !strings.Contains(err.Error(), other+" is not a JDK") {
		t.Errorf("JavaHome(%s): error %v, want one saying it is not a JDK", other, err)
	}
}
