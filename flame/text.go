package flame

import (
	"fmt"
	"io"
	"sort"
)

// WriteTop writes the n frames with the largest self value of metric m,
// then the n with the largest total, summed over every context of each
// frame (a recursive frame's total counts its outermost contexts only).
func WriteTop(w io.Writer, p *Profile, m, n int) error {
	self := map[string]float64{}
	total := map[string]float64{}
	onStack := map[string]int{}
	var walk func(x *Node)
	walk = func(x *Node) {
		for _, c := range x.Children {
			self[c.Name] += c.Self[m]
			if onStack[c.Name] == 0 {
				total[c.Name] += c.Total[m]
			}
			onStack[c.Name]++
			walk(c)
			onStack[c.Name]--
		}
	}
	walk(p.Root)
	all := p.Root.Total[m]
	for k, part := range []struct {
		title string
		by    map[string]float64
	}{{"self", self}, {"total", total}} {
		if k > 0 {
			fmt.Fprintln(w)
		}
		keys := top(part.by, n)
		width := len(p.Metrics[m])
		for _, f := range keys {
			width = max(width, len(formatValue(part.by[f])))
		}
		fmt.Fprintf(w, "%*s  %6s  top %d frames by %s %s\n", width, p.Metrics[m], "%", n, part.title, p.Metrics[m])
		for _, f := range keys {
			if _, err := fmt.Fprintf(w, "%*s  %5.1f%%  %s\n", width, formatValue(part.by[f]), percent(part.by[f], all), f); err != nil {
				return err
			}
		}
	}
	return nil
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
