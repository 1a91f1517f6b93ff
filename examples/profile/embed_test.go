package profile

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/pointcut"
)

// Both forms of the aspect parse; counting, leaf executions are counted
// apart; timed, every execution is entered and nothing is counted apart.
func TestAspectForms(t *testing.T) {
	for _, timed := range []bool{false, true} {
		a := string(Aspect(timed))
		if _, err := pointcut.ParseFile("profile.weft", []byte(a)); err != nil {
			t.Fatalf("timed %v: %v\n%s", timed, err, a)
		}
		if got := strings.Contains(a, enteredPointcut) && strings.Contains(a, countedPointcut); got == timed {
			t.Errorf("timed %v: leaf executions counted apart: %v\n%s", timed, got, a)
		}
		if got := strings.Contains(a, "pointcut entered(): code();") && strings.Contains(a, "pointcut counted(): if(false);"); got != timed {
			t.Errorf("timed %v: every execution entered: %v\n%s", timed, got, a)
		}
	}
}
