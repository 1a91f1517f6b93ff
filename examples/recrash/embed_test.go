package recrash

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/pointcut"
)

// TestAspectVariants: both aspects parse; without JDK frames, the frames'
// pointcut leaves out every JDK package (the edit of recrash.weft's text
// took), with them it does not.
func TestAspectVariants(t *testing.T) {
	for _, jdk := range []bool{false, true} {
		a := string(Aspect(jdk))
		if _, err := pointcut.ParseFile("recrash.weft", []byte(a)); err != nil {
			t.Fatalf("jdkFrames %v: %v\n%s", jdk, err, a)
		}
		for _, p := range jdkPackages {
			if got := strings.Contains(a, "!within("+p+"..*)"); got == jdk {
				t.Errorf("jdkFrames %v: !within(%s..*) in the aspect: %v\n%s", jdk, p, got, a)
			}
		}
	}
}
