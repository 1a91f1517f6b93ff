package flame

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Diff returns the profile of one metric of two profiles, old and new,
// context by context: its metrics are the new value then the old
// (metric, then metric+" (old)"), a context of either present in it.
// WriteDiffHTML draws it as a differential flame graph; DiffRows ranks
// its contexts by change.
func Diff(old, new *Profile, metric string) (*Profile, error) {
	mo, mn := index(old.Metrics, metric), index(new.Metrics, metric)
	if mo < 0 || mn < 0 {
		var have []string
		for _, m := range new.Metrics {
			if index(old.Metrics, m) >= 0 {
				have = append(have, m)
			}
		}
		return nil, fmt.Errorf("flame: no metric %q in both profiles (both have: %s)", metric, strings.Join(have, ", "))
	}
	d := New(metric, metric+" (old)")
	for i, side := range []struct {
		p *Profile
		m int
	}{{new, mn}, {old, mo}} {
		side.p.Walk(func(stack []string, n *Node) {
			if v := n.Self[side.m]; v != 0 {
				d.Add(stack, i, v)
			}
		})
	}
	d.Sort()
	return d, nil
}

func index(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// A DiffRow is one calling context of a Diff: its stack, and its values
// new and old, exclusive (Self) and inclusive (Total).
type DiffRow struct {
	Stack              []string
	Self, OldSelf      float64
	Total, OldTotal    float64
	SelfDelta, Percent float64 // Self-OldSelf, and that in per cent of OldSelf (+Inf from 0)
}

// DiffRows returns the contexts of d (a Diff) whose exclusive value
// changed, the largest change (grown or shrunk) first.
func DiffRows(d *Profile) []DiffRow {
	var rows []DiffRow
	d.Walk(func(stack []string, n *Node) {
		delta := n.Self[0] - n.Self[1]
		if delta == 0 {
			return
		}
		r := DiffRow{Stack: append([]string(nil), stack...), Self: n.Self[0], OldSelf: n.Self[1],
			Total: n.Total[0], OldTotal: n.Total[1], SelfDelta: delta, Percent: change(n.Self[1], n.Self[0])}
		rows = append(rows, r)
	})
	sort.SliceStable(rows, func(i, j int) bool { return math.Abs(rows[i].SelfDelta) > math.Abs(rows[j].SelfDelta) })
	return rows
}

// change is the change from old to new in per cent of old: +Inf from 0.
func change(old, new float64) float64 {
	if old == 0 {
		return math.Inf(1)
	}
	return 100 * (new - old) / old
}

// WriteDiff writes what changed from old (named oldName) to new in d, a
// Diff: the whole of each, then the n contexts whose own value changed
// most (DiffRows, WriteDiffRows).
func WriteDiff(w io.Writer, d *Profile, oldName, newName string, n int) error {
	whole, oldWhole := d.Root.Total[0], d.Root.Total[1]
	fmt.Fprintf(w, "%s: %s in %s, %s in %s (%s)\n\n", d.Metrics[0], formatValue(oldWhole), oldName, formatValue(whole), newName,
		signedChange(oldWhole, whole, 2))
	return WriteDiffRows(w, DiffRows(d), n)
}

// WriteGrown writes the contexts Grown found, each with its inclusive
// value old and new and its change.
func WriteGrown(w io.Writer, grown []DiffRow) error {
	bw := bufio.NewWriter(w)
	for _, g := range grown {
		fmt.Fprintf(bw, "  %s: %s → %s (%s)\n", strings.Join(g.Stack, ";"), formatValue(g.OldTotal), formatValue(g.Total),
			signedChange(g.OldTotal, g.Total, 2))
	}
	return bw.Flush()
}

// signedChange is the change from old to new in per cent of old, signed,
// with digits decimals; "new" from 0.
func signedChange(old, new float64, digits int) string {
	if old == 0 {
		return "new"
	}
	return fmt.Sprintf("%+.*f%%", digits, change(old, new))
}

// WriteDiffRows writes the first n rows as a table: the change of each
// context's exclusive value, absolute and relative, its values old and
// new, and its frame under its caller's.
func WriteDiffRows(w io.Writer, rows []DiffRow, n int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%14s %9s %14s %14s  %s\n", "change", "%", "old", "new", "context (frame < caller)")
	for _, r := range rows[:min(n, len(rows))] {
		pct := signedChange(r.OldSelf, r.Self, 1)
		frame := r.Stack[len(r.Stack)-1]
		if len(r.Stack) > 1 {
			frame += " < " + r.Stack[len(r.Stack)-2]
		}
		change := formatValue(r.SelfDelta)
		if r.SelfDelta > 0 {
			change = "+" + change
		}
		fmt.Fprintf(bw, "%14s %9s %14s %14s  %s\n", change, pct, formatValue(r.OldSelf), formatValue(r.Self), frame)
	}
	return bw.Flush()
}

// WriteDiffHTML writes d (a Diff) as a differential flame graph: the page
// of WriteHTML, each context as wide as its new value (its old one with
// the metric switched), red where its inclusive value grew, blue where it
// shrank, the deeper the more (as Brendan Gregg's and async-profiler's
// differential flame graphs).
func WriteDiffHTML(w io.Writer, d *Profile, title string) error {
	return writePage(w, title, func(bw *bufio.Writer) error {
		bw.WriteString(`{"diff":true,"data":`)
		if err := writeData(bw, d); err != nil {
			return err
		}
		bw.WriteByte('}')
		return nil
	})
}

// Grown returns the contexts of d (a Diff) whose inclusive value grew by
// more than pct per cent from old to new, among those whose old or new
// inclusive value is at least floor per cent of the whole's; the whole
// first (stack ["all"]) if it grew so. It is the check of a CI run
// against a baseline.
func Grown(d *Profile, pct, floor float64) []DiffRow {
	var out []DiffRow
	whole, oldWhole := d.Root.Total[0], d.Root.Total[1]
	grew := func(old, new float64) bool { return new > old && change(old, new) > pct }
	if grew(oldWhole, whole) {
		out = append(out, DiffRow{Stack: []string{d.Root.Name}, Total: whole, OldTotal: oldWhole, Percent: change(oldWhole, whole)})
	}
	min := floor / 100 * math.Max(whole, oldWhole)
	d.Walk(func(stack []string, n *Node) {
		if math.Max(n.Total[0], n.Total[1]) >= min && grew(n.Total[1], n.Total[0]) {
			out = append(out, DiffRow{Stack: append([]string(nil), stack...), Self: n.Self[0], OldSelf: n.Self[1],
				Total: n.Total[0], OldTotal: n.Total[1], SelfDelta: n.Self[0] - n.Self[1], Percent: change(n.Total[1], n.Total[0])})
		}
	})
	return out
}
