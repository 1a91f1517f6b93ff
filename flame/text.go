package flame

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// A Rank is what a table of top frames ranks them by: a metric, or a value
// made of a context's own metrics (wall time less the time spent waiting).
type Rank struct {
	Name string                       // as the table's header says it
	Of   func(self []float64) float64 // a context's own value
}

// MetricRank ranks by metric m.
func MetricRank(p *Profile, m int) Rank {
	return Rank{Name: p.Metrics[m], Of: func(v []float64) float64 { return v[m] }}
}

// RunningRank is how weft profile's top list ranks frames: by CPU time
// when it was measured (cpu-ns); else by time in running code, wall time
// less the time spent waiting in blocking calls (run-ns: wall-ns less
// wait-ns), so that a thread that only waits does not lead the list; else
// by wall time. ok is false for a profile with none of these.
func RunningRank(p *Profile) (r Rank, why string, ok bool) {
	idx := map[string]int{}
	for i, m := range p.Metrics {
		idx[m] = i
	}
	cpu, hasCPU := idx["cpu-ns"]
	wall, hasWall := idx["wall-ns"]
	wait, hasWait := idx["wait-ns"]
	switch {
	case hasCPU:
		return MetricRank(p, cpu), "thread CPU time (cpu-ns)", true
	case hasWall && hasWait:
		return Rank{Name: "run-ns", Of: func(v []float64) float64 { return max(0, v[wall]-v[wait]) }},
			"time in running code (run-ns: wall-ns less wait-ns, the time in blocking calls)", true
	case hasWall:
		return MetricRank(p, wall), "wall time (wall-ns)", true
	}
	return Rank{}, "", false
}

// WriteTop writes the n frames with the largest self value of metric m,
// then the n with the largest total (WriteTopBy).
func WriteTop(w io.Writer, p *Profile, m, n int) error {
	return WriteTopBy(w, p, MetricRank(p, m), n)
}

// WriteTopBy writes the n frames with the largest self value by rank r,
// then the n with the largest total, summed over every context of each
// frame (a recursive frame's total counts its outermost contexts only).
// A self frame of the JDK's (or a hidden one) is followed by the program's
// frame it runs under most (the nearest of the program's frames above it
// in each context), so that the table names the program's code that made
// the JDK's work.
func WriteTopBy(w io.Writer, p *Profile, r Rank, n int) error {
	self := map[string]float64{}
	total := map[string]float64{}
	under := map[string]map[string]float64{} // a JDK frame's self value by the program frame above it
	onStack := map[string]int{}
	var walk func(x *Node, program string) float64
	walk = func(x *Node, program string) float64 {
		sum := 0.0
		for _, c := range x.Children {
			v := r.Of(c.Self)
			self[c.Name] += v
			inner := program
			switch KindOf(c.Name) {
			case ProgramFrame:
				inner = c.Name
			case JDKFrame, HiddenFrame:
				if program != "" && v > 0 {
					if under[c.Name] == nil {
						under[c.Name] = map[string]float64{}
					}
					under[c.Name][program] += v
				}
			}
			outermost := onStack[c.Name] == 0
			onStack[c.Name]++
			t := v + walk(c, inner)
			onStack[c.Name]--
			if outermost {
				total[c.Name] += t
			}
			sum += t
		}
		return sum
	}
	all := r.Of(p.Root.Self) + walk(p.Root, "")
	for k, part := range []struct {
		title string
		by    map[string]float64
	}{{"self", self}, {"total", total}} {
		if k > 0 {
			fmt.Fprintln(w)
		}
		keys := top(part.by, n)
		width := len(r.Name)
		for _, f := range keys {
			width = max(width, len(formatValue(part.by[f])))
		}
		fmt.Fprintf(w, "%*s  %6s  top %d frames by %s %s\n", width, r.Name, "%", n, part.title, r.Name)
		for _, f := range keys {
			note := ""
			if k == 0 {
				note = underNote(under[f], part.by[f])
			}
			if _, err := fmt.Fprintf(w, "%*s  %5.1f%%  %s%s\n", width, formatValue(part.by[f]), percent(part.by[f], all), f, note); err != nil {
				return err
			}
		}
	}
	return nil
}

// underNote names the program frame with the largest share of a frame's
// self value v ("" if none): "  (under Main.run)", with its share if it
// has not all of it.
func underNote(by map[string]float64, v float64) string {
	best := top(by, 1)
	if len(best) == 0 || v <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("  (under ")
	b.WriteString(best[0])
	if share := by[best[0]] / v; share < 0.995 {
		fmt.Fprintf(&b, ", %.0f%%", 100*share)
	}
	b.WriteString(")")
	return b.String()
}

func percent(v, all float64) float64 {
	if all == 0 {
		return 0
	}
	return 100 * v / all
}

// top returns the n keys of by with the largest values (ties by name).
func top(by map[string]float64, n int) []string {
	keys := make([]string, 0, len(by))
	for k, v := range by {
		if v > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if by[keys[i]] != by[keys[j]] {
			return by[keys[i]] > by[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}
