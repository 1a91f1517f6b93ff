package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
)

// ShadowKinds tells a weaver which shadows it need not build: it must
// include every kind Match can answer for, and leave out the kinds a
// pointcut's call/execution designators exclude.
func TestShadowKinds(t *testing.T) {
	const (
		exec  = 1<<advice.MethodExecution | 1<<advice.ConstructorExecution
		calls = 1<<advice.MethodCall | 1<<advice.ConstructorCall | 1<<advice.ArrayConstruction
	)
	for _, tc := range []struct {
		pc   string
		want advice.KindSet
	}{
		{"(execution(* *(..)) || execution(new(..))) && !within(count..*)", exec},
		{"call(* *(..)) && within(a..*)", calls},
		{"call(* *(..)) || execution(* *(..))", calls | exec},
		{"call(* *(..)) && execution(* *(..))", 0},
		{"within(a..*)", advice.AllKinds},
		{"!execution(* *(..))", advice.AllKinds},
		{"get(* *) && within(a..*)", 1 << advice.FieldGet},
		{"set(* *) || call(* *(..))", 1<<advice.FieldSet | calls},
		{"(get(* *) || set(* *)) && !within(a..*)", 1<<advice.FieldGet | 1<<advice.FieldSet},
		{"get(* *) && set(* *)", 0},
	} {
		p := mustResolve(t, "aspect A {\nbefore(): "+tc.pc+" { a.B.c(); }\n}\n")
		if got := p.ShadowKinds(); got != tc.want {
			t.Errorf("%s: ShadowKinds = %07b, want %07b", tc.pc, got, tc.want)
		}
		// Match never applies advice at a kind left out.
		for k := advice.MethodCall; k <= advice.FieldSet; k++ {
			if p.ShadowKinds().Has(k) {
				continue
			}
			s := &advice.Shadow{Kind: k, Within: "x/Y", Member: advice.Member{Owner: "x/Y", Name: "m", Desc: "()V"}}
			switch {
			case k == advice.ArrayConstruction:
				s.Member = advice.Member{Owner: "[I", Name: "<init>", Desc: "(I)V"}
			case k.IsField():
				s.Member = advice.Member{Owner: "x/Y", Name: "f", Desc: "I", AccessKnown: true}
			}
			if got := p.Match(s, nil); len(got) != 0 {
				t.Errorf("%s: Match at a %s shadow = %d advice, want none", tc.pc, k, len(got))
			}
		}
	}
	p := mustResolve(t, "aspect A {\nbefore(): call(*.new(..)) || call(*[].new(..)) { a.B.c(arrayDims); }\n}\n")
	if got := p.ShadowKinds(); got != 1<<advice.ArrayConstruction {
		t.Errorf("arrayDims advice: ShadowKinds = %07b, want array construction only", got)
	}
}

// within() remembers its last class: alternating classes, nested classes
// and a `+` pattern (which consults the hierarchy, never remembered) still
// get their own verdicts.
func TestWithinRemembersLastClass(t *testing.T) {
	p := mustResolve(t, "aspect A {\nbefore(): execution(* *(..)) && !within(count..*) { a.B.c(); }\n}\n")
	for _, tc := range []struct {
		within string
		want   int
	}{
		{"count/Counter", 0}, {"count/Counter", 0}, {"java/lang/String", 1}, {"java/lang/String", 1},
		{"count/x/Y$Z", 0}, {"countx/Y", 1}, {"count/Counter", 0},
	} {
		s := &advice.Shadow{Kind: advice.MethodExecution, Within: tc.within, Member: advice.Member{Owner: tc.within, Name: "m", Desc: "()V"}}
		if got := len(p.Match(s, nil)); got != tc.want {
			t.Errorf("within %s: %d advice, want %d", tc.within, got, tc.want)
		}
	}
	if w := newWithinNode(&namePat{plus: true}); w.last != nil {
		t.Errorf("a + pattern's within verdicts are remembered")
	}
}
