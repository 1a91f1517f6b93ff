package rtjava

import (
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// TestNamesExist checks every runtime member woven code refers to against
// the compiled runtime: it exists, with that descriptor, public and static.
// (The JDK-mode runtime offers the same public members: weaver/jdk's
// TestRuntimeVariantsAgree.)
func TestNamesExist(t *testing.T) {
	classes, err := Build(jvmtest.JavaHome(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rtnames.Refs() {
		b, ok := classes[r.Owner]
		if !ok {
			t.Errorf("%s.%s: the runtime has no class %s", r.Owner, r.Name, r.Owner)
			continue
		}
		c, err := classfile.Parse(r.Owner, b)
		if err != nil {
			t.Fatal(err)
		}
		members := c.Methods
		if r.Field {
			members = c.Fields
		}
		var found *classfile.Member
		for _, m := range members {
			if c.MemberName(m) == r.Name && c.MemberDesc(m) == r.Desc {
				found = m
			}
		}
		const publicStatic = classfile.AccPublic | classfile.AccStatic
		switch {
		case found == nil:
			t.Errorf("%s.%s%s: not in the compiled runtime", r.Owner, r.Name, r.Desc)
		case found.Access&publicStatic != publicStatic:
			t.Errorf("%s.%s%s: access %#x, want public static", r.Owner, r.Name, r.Desc, found.Access)
		}
	}
	// In application mode rtnames.BIB.ready is a constant (final, with a
	// ConstantValue): the JIT folds the guard's read and branch away.
	bib, err := classfile.Parse(rtnames.BIB, classes[rtnames.BIB])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bib.Fields {
		if bib.MemberName(f) == rtnames.BIBReady.Name && (f.Access&classfile.AccFinal == 0 || bib.Attr(f.Attributes, "ConstantValue") == nil) {
			t.Errorf("%s.%s: access %#x, no ConstantValue or not final: not a constant", rtnames.BIB, rtnames.BIBReady.Name, f.Access)
		}
	}
	// rtnames.Proceed's members sister classes call or implement (not public
	// static): they exist.
	c, err := classfile.Parse(rtnames.Proceed, classes[rtnames.Proceed])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rtnames.ProceedRefs() {
		found := false
		for _, m := range c.Methods {
			found = found || c.MemberName(m) == r.Name && c.MemberDesc(m) == r.Desc
		}
		if !found {
			t.Errorf("%s.%s%s: not in the compiled runtime", r.Owner, r.Name, r.Desc)
		}
	}
}
