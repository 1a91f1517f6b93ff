package launch

import (
	"bytes"
	"strings"
	"testing"

	"github.com/weft-aop/weft/weaver/ltw"
)

// TestReportLoadTimeGroups: what was left unwoven is said once per reason,
// a class alone with its reason, several sharing one counted with the
// first names; the methods left unwoven counted with the first reasons.
func TestReportLoadTimeGroups(t *testing.T) {
	acc := "a reflection accessor the JDK generates"
	sum := ltw.Summary{
		Unwoven: []ltw.Unwoven{
			{Class: "G1", Kind: "normal", Reason: acc}, {Class: "Bad", Kind: "normal", Reason: "corrupt"},
			{Class: "G2", Kind: "normal", Reason: acc}, {Class: "G3", Kind: "normal", Reason: acc}, {Class: "G4", Kind: "normal", Reason: acc},
		},
		UnwovenCount: 6,
		Methods:      []ltw.Unwoven{{Class: "A", Reason: "A.m()V: left unwoven: a type unknown"}},
		MethodsCount: 1,
	}
	var b bytes.Buffer
	if err := reportLoadTime(&b, sum, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"weft: warning: 4 classes left unwoven: " + acc + " (G1, G2, G3, 1 more)\n",
		"weft: warning: Bad (normal class) left unwoven: corrupt\n",
		"weft: ... and 1 more classes not listed\n",
		"weft: warning: 1 methods left unwoven in classes woven (--ltw-report lists them), as:\nweft:   A.m()V: left unwoven: a type unknown\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
