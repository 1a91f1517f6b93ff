package flame

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestDiff: contexts of either profile are in the diff with both values;
// rows rank by the change of the own value, grown or shrunk; a context
// new in NEW is "new"; Grown finds the whole and the contexts above the
// floor that grew more than the threshold, not a shrunk one.
func TestDiff(t *testing.T) {
	old, new := New("calls", "objects"), New("objects", "calls")
	old.Add([]string{"main", "a"}, 0, 100)
	old.Add([]string{"main", "b"}, 0, 50)
	old.Add([]string{"main"}, 0, 1)
	new.Add([]string{"main", "a"}, 1, 120)
	new.Add([]string{"main", "b"}, 1, 40)
	new.Add([]string{"main", "c"}, 1, 5)
	new.Add([]string{"main"}, 1, 1)
	if _, err := Diff(old, new, "wall-ns"); err == nil || !strings.Contains(err.Error(), "both have: objects, calls") {
		t.Errorf("a metric of neither: %v", err)
	}
	d, err := Diff(old, new, "calls")
	if err != nil {
		t.Fatal(err)
	}
	if d.Root.Total[0] != 166 || d.Root.Total[1] != 151 {
		t.Errorf("totals new %v old %v, want 166 151", d.Root.Total[0], d.Root.Total[1])
	}
	rows := DiffRows(d)
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join(r.Stack, ";"))
	}
	if strings.Join(got, " ") != "main;a main;b main;c" || rows[0].Percent != 20 || rows[1].SelfDelta != -10 || !math.IsInf(rows[2].Percent, 1) {
		t.Errorf("rows %q: %+v", got, rows)
	}
	var b bytes.Buffer
	if err := WriteDiffRows(&b, rows, 2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "+20    +20.0%") || !strings.Contains(b.String(), "-10    -20.0%") || strings.Contains(b.String(), "main;c") {
		t.Errorf("table:\n%s", b.String())
	}
	grown := Grown(d, 5, 10) // c is under 10 % of the whole
	got = nil
	for _, g := range grown {
		got = append(got, strings.Join(g.Stack, ";"))
	}
	if strings.Join(got, " ") != "all main main;a" {
		t.Errorf("grown over 5%% above 10%%: %q", got)
	}
	var page bytes.Buffer
	if err := WriteDiffHTML(&page, d, "t"); err != nil || !strings.Contains(page.String(), `{"diff":true,"data":{"metrics":["calls","calls (old)"]`) {
		t.Errorf("page: %v", err)
	}
}
