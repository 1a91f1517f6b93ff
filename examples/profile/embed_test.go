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
		a := string(Aspect(timed, NoBytecodes))
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

// Counting bytecodes, every exit passes the count, the leaf executions'
// counting too, with the value each kind of block asks for.
func TestAspectBytecodes(t *testing.T) {
	for _, count := range []Bytecodes{DefaultBytecodes, PreciseBytecodes} {
		value := map[Bytecodes]string{DefaultBytecodes: "bytecodes", PreciseBytecodes: "preciseBytecodes"}[count]
		for _, timed := range []bool{false, true} {
			a := string(Aspect(timed, count))
			if _, err := pointcut.ParseFile("profile.weft", []byte(a)); err != nil {
				t.Fatalf("timed %v: %v\n%s", timed, err, a)
			}
			for _, want := range []string{"Profiler.exit(" + value + ");", "after(): counted() {", "Profiler.leaf(joinPointId, " + value + ");"} {
				if !strings.Contains(a, want) {
					t.Errorf("%s, timed %v: no %q in\n%s", value, timed, want, a)
				}
			}
			if strings.Contains(a, "Profiler.exit();") || strings.Contains(a, "leaf(joinPointId);") {
				t.Errorf("%s, timed %v: an exit without the count\n%s", value, timed, a)
			}
		}
	}
}
