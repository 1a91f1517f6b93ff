package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
)

// The table-driven checks shared by the match tests of each kind of join
// point (match_test.go, field_test.go, kinds_init_test.go).

// matchCase is a pointcut and the shadows of a table it applies at:
// shadow name → "always" or "maybe " and the residue.
type matchCase struct {
	pc   string
	want map[string]string
}

// checkMatchTable resolves each case's pointcut in before advice and
// matches it at every shadow of shadows.
func checkMatchTable(t *testing.T, shadows map[string]*advice.Shadow, cases []matchCase) {
	t.Helper()
	h := testHier()
	for _, tt := range cases {
		p := mustResolve(t, "aspect A {\nbefore(): "+tt.pc+" { a.B.c(); }\n}\n")
		for name, s := range shadows {
			got := ""
			if as := p.Match(s, h); len(as) > 0 {
				got = "always"
				if as[0].Verdict == advice.Maybe {
					got = "maybe " + residueString(as[0].Residue)
				}
			}
			if got != tt.want[name] {
				t.Errorf("%s at %s: got %q, want %q", tt.pc, name, got, tt.want[name])
			}
		}
	}
}

// adviceCase is a piece of advice (with its body, or without for
// checkExitTable) at one shadow, and what matching it there gives.
type adviceCase struct {
	advice string
	shadow *advice.Shadow
	want   string
}

// checkBindTable matches each case's advice at its shadow: want is
// "residue | args", "" where it does not apply ("several" where more than
// one advice applies).
func checkBindTable(t *testing.T, cases []adviceCase) {
	t.Helper()
	h := testHier()
	for _, tt := range cases {
		p := mustResolve(t, "aspect A {\n"+tt.advice+"\n}\n")
		as := p.Match(tt.shadow, h)
		got := ""
		if len(as) == 1 {
			got = residueString(as[0].Residue) + " | " + valuesString(as[0].Args)
		} else if len(as) > 1 {
			got = "several"
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.advice, got, tt.want)
		}
	}
}

// checkExitTable matches each case's after advice (given a body here) at
// its shadow: want is "" where it does not apply, else "always" or the
// exit check (the type the returned or thrown value is tested against).
func checkExitTable(t *testing.T, cases []adviceCase) {
	t.Helper()
	h := testHier()
	for _, tt := range cases {
		p := mustResolve(t, "aspect A {\n"+tt.advice+" { a.B.c(); }\n}\n")
		as := p.Match(tt.shadow, h)
		got := ""
		if len(as) == 1 {
			got = "always"
			if as[0].ExitCheck != "" {
				got = as[0].ExitCheck
			}
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.advice, got, tt.want)
		}
	}
}

// errorCase is advice (after a prefix, such as "before(): ") that does not
// resolve, and what the errors must contain; nil for none.
type errorCase struct {
	src  string
	want []string
}

// checkErrorTable resolves each case's prefix+src with a body, in an
// aspect of its own.
func checkErrorTable(t *testing.T, prefix string, cases []errorCase) {
	t.Helper()
	for _, tt := range cases {
		got := resolveErr("aspect A {\n" + prefix + tt.src + " { a.B.c(); }\n}\n")
		if tt.want == nil {
			if got != "" {
				t.Errorf("%s: unexpected error %s", tt.src, got)
			}
			continue
		}
		if !contains(got+"\n", tt.want...) {
			t.Errorf("%s: got\n%s\nwant it to contain %q", tt.src, got, tt.want)
		}
	}
}
