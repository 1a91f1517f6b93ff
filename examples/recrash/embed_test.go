package recrash

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/pointcut"
)

// TestAspectVariants: the four aspects parse; without JDK frames, the
// frames' pointcut leaves out every JDK package (the edit of recrash.weft's
// text took), with them it does not; with deep copies, every execution is
// copied on entry, without them those taking an array.
func TestAspectVariants(t *testing.T) {
	for _, v := range []struct{ jdk, deep bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		jdk := v.jdk
		a := string(Aspect(jdk, v.deep))
		if _, err := pointcut.ParseFile("recrash.weft", []byte(a)); err != nil {
			t.Fatalf("jdkFrames %v deep %v: %v\n%s", jdk, v.deep, err, a)
		}
		if got := strings.Contains(a, "pointcut copied(): code();"); got != v.deep {
			t.Errorf("deep %v: copied() is code(): %v\n%s", v.deep, got, a)
		}
		if got := strings.Contains(a, copiedPointcut+";"); got == v.deep {
			t.Errorf("deep %v: copied() takes arrays: %v\n%s", v.deep, got, a)
		}
		for _, p := range jdkPackages {
			if got := strings.Contains(a, "!within("+p+"..*)"); got == jdk {
				t.Errorf("jdkFrames %v: !within(%s..*) in the aspect: %v\n%s", jdk, p, got, a)
			}
		}
	}
}
