package rtjava

import (
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

func TestBuildIsCachedAndParses(t *testing.T) {
	home := jvmtest.JavaHome(t)
	cache := t.TempDir()
	classes, err := Build(home, cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"weft/rt/Weft", "weft/rt/BIB", "weft/rt/DIB", "weft/rt/JoinPointStaticPart"} {
		b, ok := classes[want]
		if !ok {
			t.Fatalf("runtime lacks %s (have %d classes)", want, len(classes))
		}
		if _, err := classfile.Parse(want, b); err != nil {
			t.Fatal(err)
		}
	}
	// The second build must come from the cache: same bytes, no javac.
	again, err := Build("/nonexistent-jdk", cache)
	if err != nil {
		t.Fatalf("cached build ran javac: %v", err)
	}
	if len(again) != len(classes) {
		t.Fatalf("cache gave %d classes, build gave %d", len(again), len(classes))
	}
}
