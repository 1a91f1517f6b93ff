package jdk

import (
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// TestRuntimeVariantsAgree: woven code is the same in application and JDK
// mode, so every class of the JDK-mode runtime offers exactly the public
// members of its application-mode counterpart (a method added to one
// variant and not the other would fail at run time, in one mode only).
func TestRuntimeVariantsAgree(t *testing.T) {
	home := jvmtest.JavaHome(t)
	app, err := rtjava.Build(home, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	jdkRT, err := BuildRuntime(home, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range app {
		if strings.Contains(name, "$") {
			continue // a variant's own nested classes (DIB's ThreadLocal cell)
		}
		jb, ok := jdkRT[name]
		if !ok {
			t.Errorf("%s: missing from the JDK-mode runtime", name)
			continue
		}
		if a, j := publicMembers(t, name, b), publicMembers(t, name, jb); !equal(a, j) {
			t.Errorf("%s: public members differ:\napp: %v\njdk: %v", name, a, j)
		}
	}
	for _, n := range []string{"weft/rt/BIB", "weft/rt/DIB", "weft/rt/Weft"} {
		if _, ok := jdkRT[n]; !ok {
			t.Errorf("JDK-mode runtime lacks %s", n)
		}
	}
}

func publicMembers(t *testing.T, name string, b []byte) []string {
	c, err := classfile.Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ms := range [][]*classfile.Member{c.Fields, c.Methods} {
		for _, m := range ms {
			if m.Access&classfile.AccPublic != 0 {
				out = append(out, c.MemberName(m)+" "+c.MemberDesc(m))
			}
		}
	}
	sort.Strings(out)
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
