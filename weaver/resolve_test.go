package weaver

import (
	"fmt"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// cyclicHierarchy is malformed input a jar can hold: A extends B, B
// extends A, neither declaring anything; C extends A and declares s.
type cyclicHierarchy struct{}

func (cyclicHierarchy) Lookup(name string) (*classfile.ClassInfo, error) {
	switch name {
	case "A":
		return &classfile.ClassInfo{Name: "A", Super: "B"}, nil
	case "B":
		return &classfile.ClassInfo{Name: "B", Super: "A"}, nil
	case "C":
		return &classfile.ClassInfo{Name: "C", Super: "A"}, nil
	}
	return nil, fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
}

func (cyclicHierarchy) DeclaredMethods(class, name string) ([]advice.Member, bool) {
	if class == "C" && name == "s" {
		return []advice.Member{{Owner: "C", Name: "s", Desc: "()V", Access: classfile.AccStatic}}, true
	}
	return nil, class == "A" || class == "B"
}

func (cyclicHierarchy) Bridges(class, name, desc string) []string { return nil }

// TestResolveMethodSuperclassCycle: resolving in a superclass cycle ends
// with no declaration (it looped forever before the bound), and a
// declaration found first is still found.
func TestResolveMethodSuperclassCycle(t *testing.T) {
	var mh cyclicHierarchy
	if d, ok := resolveMethod(mh, advice.Member{Owner: "A", Name: "s", Desc: "()V"}); ok {
		t.Errorf("resolved A.s()V in a superclass cycle to %v", d)
	}
	if d, ok := resolveMethod(mh, advice.Member{Owner: "C", Name: "s", Desc: "()V"}); !ok || d.Owner != "C" {
		t.Errorf("C.s()V resolved to %v, %v; want C's", d, ok)
	}
}
