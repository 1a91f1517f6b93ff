package leak

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// historyCheckSrc feeds each argument, "CAPACITY:A1,A2,..." (the
// program's allocations at each sample), to a History, and a context's
// counts beside it (its count at sample i is i), and prints the points,
// the spacing, the thinnings, then the marks, the counts and the samples
// that wrote the points, each line of values space-separated.
const historyCheckSrc = `package weft.tools.leak;
public class HistoryCheck {
    public static void main(String[] args) {
        for (String a : args) {
            String[] f = a.split(":");
            int capacity = Integer.parseInt(f[0]);
            History h = new History(capacity);
            long[] counts = new long[capacity];
            String[] v = f[1].split(",");
            int thinnings = 0;
            for (int i = 0; i < v.length; i++) {
                int n = h.add(i, Long.parseLong(v[i]));
                if (h.thinned) {
                    h.thin(counts);
                    thinnings++;
                }
                counts[n] = i;
            }
            System.out.println(h.points + " " + h.spacing + " " + thinnings);
            StringBuilder m = new StringBuilder(), c = new StringBuilder(), w = new StringBuilder();
            for (int k = 0; k < h.points; k++) {
                m.append(h.marks[k]).append(' ');
                c.append(counts[k]).append(' ');
                w.append(h.written[k]).append(' ');
            }
            System.out.println(m.toString().trim());
            System.out.println(c.toString().trim());
            System.out.println(w.toString().trim());
        }
    }
}
`

// history is what HistoryCheck printed for one sequence.
type history struct {
	points, thinnings    int
	spacing              int64
	marks, counts, wrote []int64
}

// TestHistory runs the point arithmetic of
// examples/leak/weft/tools/leak/History.java: the collections of a quiet
// moment refine one point; a full history keeps every other point and
// spaces the next ones as far apart; and however the collections are
// spaced — evenly, a hundred times denser at the end (a small heap whose
// old generation fills), or sparser — the last half of the points spans
// half of the allocations or more, and every context's counts stay with
// their points.
func TestHistory(t *testing.T) {
	seq := func(gaps ...[2]int64) []int64 { // (samples, allocations between them) runs
		var v []int64
		var a int64
		for _, g := range gaps {
			for i := int64(0); i < g[0]; i++ {
				a += g[1]
				v = append(v, a)
			}
		}
		return v
	}
	cases := []struct {
		name     string
		capacity int
		allocs   []int64
	}{
		{"quiet moment", 16, []int64{100, 200, 300, 301, 302, 303}},
		{"thinning", 8, seq([2]int64{9, 1000})},
		{"even", 16, seq([2]int64{2000, 1000})},
		{"denser at the end", 16, seq([2]int64{100, 10000}, [2]int64{500, 100})},
		{"sparser at the end", 16, seq([2]int64{500, 100}, [2]int64{100, 10000})},
		{"dense throughout", 96, seq([2]int64{100, 30000}, [2]int64{258, 3000})},
	}
	args := []string{"-cp", compileJava(t, "History.java", "HistoryCheck", historyCheckSrc), "weft.tools.leak.HistoryCheck"}
	for _, c := range cases {
		var f []string
		for _, a := range c.allocs {
			f = append(f, strconv.FormatInt(a, 10))
		}
		args = append(args, fmt.Sprintf("%d:%s", c.capacity, strings.Join(f, ",")))
	}
	out, _ := jvmtest.Run(t, args...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4*len(cases) {
		t.Fatalf("HistoryCheck printed %d lines for %d cases:\n%s", len(lines), len(cases), out)
	}
	got := map[string]history{}
	for i, c := range cases {
		var h history
		fmt.Sscanf(lines[4*i], "%d %d %d", &h.points, &h.spacing, &h.thinnings)
		h.marks, h.counts, h.wrote = ints(lines[4*i+1]), ints(lines[4*i+2]), ints(lines[4*i+3])
		got[c.name] = h
		last, window := c.allocs[len(c.allocs)-1], min(h.points, c.capacity/2)
		if h.points < 1 || h.points > c.capacity || len(h.marks) != h.points {
			t.Errorf("%s: %d points (%d marks), capacity %d", c.name, h.points, len(h.marks), c.capacity)
			continue
		}
		if fmt.Sprint(h.counts) != fmt.Sprint(h.wrote) {
			t.Errorf("%s: a context's counts %v, not those of the samples that wrote the points %v", c.name, h.counts, h.wrote)
		}
		if h.wrote[h.points-1] != int64(len(c.allocs)-1) {
			t.Errorf("%s: the last point was written by sample %d, want the last, %d", c.name, h.wrote[h.points-1], len(c.allocs)-1)
		}
		for k := 1; k+1 < h.points; k++ { // the last point's mark is where it began: it may be near
			if h.thinnings > 0 && h.marks[k]-h.marks[k-1] < h.spacing/2 {
				t.Errorf("%s: points %d and %d %d allocations apart, the spacing %d: %v", c.name, k-1, k, h.marks[k]-h.marks[k-1], h.spacing, h.marks)
			}
		}
		// The window's points span (window-1) gaps of 2*window-1 at least.
		if span, least := float64(last-h.marks[h.points-window])/float64(last), float64(window-1)/float64(2*window); h.thinnings > 0 && span < least {
			t.Errorf("%s: the last %d points span %.0f %% of the allocations, want %.0f %% or more: %v", c.name, window, 100*span, 100*least, h.marks)
		}
	}
	if h := got["quiet moment"]; fmt.Sprint(h.marks, h.wrote) != "[100 200 300] [0 1 5]" {
		t.Errorf("quiet moment: marks %v written by %v, want [100 200 300] [0 1 5]: one point for its collections", h.marks, h.wrote)
	}
	if h := got["thinning"]; fmt.Sprint(h.marks, h.wrote, h.spacing) != "[2000 4000 6000 8000] [1 3 5 8] 2000" {
		t.Errorf("thinning: marks %v written by %v, spacing %d; want [2000 4000 6000 8000] [1 3 5 8] 2000", h.marks, h.wrote, h.spacing)
	}
}

// ints parses a line of space-separated integers.
func ints(line string) []int64 {
	var v []int64
	for _, f := range strings.Fields(line) {
		n, _ := strconv.ParseInt(f, 10, 64)
		v = append(v, n)
	}
	return v
}
