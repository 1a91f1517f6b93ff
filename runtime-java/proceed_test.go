package rtjava

import (
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestProceedRefsExist checks the members of Proceed that sister classes
// call or implement (not public static, so not in Refs).
func TestProceedRefsExist(t *testing.T) {
	classes, err := Build(jvmtest.JavaHome(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(Proceed, classes[Proceed])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ProceedRefs() {
		found := false
		for _, m := range c.Methods {
			found = found || c.MemberName(m) == r.Name && c.MemberDesc(m) == r.Desc
		}
		if !found {
			t.Errorf("%s.%s%s: not in the compiled runtime", r.Owner, r.Name, r.Desc)
		}
	}
}
