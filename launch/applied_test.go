package launch

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/weaver"
)

// TestAppliedRoundTrip: the advice applied in a woven JDK, written in its
// cache entry, is read back by a later run for its lint.
func TestAppliedRoundTrip(t *testing.T) {
	a, b := &advice.Advice{Aspect: "A", Order: 0}, &advice.Advice{Aspect: "B", Order: 2}
	s := Applied{}
	s.Add([]weaver.WeaveInfo{{Advice: a}, {Advice: a}, {Advice: b}})
	dir := t.TempDir()
	if err := writeApplied(dir, s); err != nil {
		t.Fatal(err)
	}
	got := Applied{}
	if err := readApplied(dir, got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got["A#0"] || !got["B#2"] {
		t.Errorf("read back %v, want A#0 and B#2", got)
	}
	if err := readApplied(t.TempDir(), got); err == nil {
		t.Error("no advice-applied file: no error")
	}
}
