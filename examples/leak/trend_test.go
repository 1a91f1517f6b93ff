package leak

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// trendCheckSrc prints, for each argument (counts separated by commas),
// Trend.tau and Trend.growing at the tracker's defaults (4 samples, 0.8, 16).
const trendCheckSrc = `package weft.tools.leak;
public class TrendCheck {
    public static void main(String[] args) {
        for (String a : args) {
            String[] f = a.split(",");
            long[] v = new long[f.length];
            for (int i = 0; i < f.length; i++) v[i] = Long.parseLong(f[i]);
            System.out.println(Trend.tau(v) + " " + Trend.growing(v, 4, 0.8, 16));
        }
        for (int interval : new int[] {1, 4, 16, 64}) System.out.println(Trend.minRise(16, interval));
    }
}
`

// TestTrend runs the growth test of examples/leak/weft/tools/leak/Trend.java on
// windows of live counts: a leak whose count is flat over the samples of
// the program's end (the e2e TestLeakTracker's failure on a busy machine,
// which plain Kendall's tau scored 0.79) grows; one step up, wherever it
// falls, a flat count, a falling one, a sawtooth, a rise under 16 objects
// and fewer than 4 samples do not; and the least rise is 16 objects or
// four tracked ones at the sampling interval, whichever is more.
func TestTrend(t *testing.T) {
	cases := []struct {
		counts  []int64
		tau     float64
		growing bool
	}{
		{[]int64{1180, 1382, 1564, 1794, 2024, 2024, 2024, 2024}, 22 / math.Sqrt(28*22), true},
		{[]int64{1157, 1337, 1337, 1509, 1697, 1889, 1889, 1889}, 24 / math.Sqrt(28*24), true},
		{[]int64{976, 1180, 1382, 1564, 1794, 2024, 2024, 2024}, 25 / math.Sqrt(28*25), true},
		{[]int64{1, 2, 3, 4, 5, 6, 7, 100}, 1, true},
		{[]int64{0, 100, 100, 100, 100, 100, 100, 100}, 7 / math.Sqrt(28*7), false},
		{[]int64{0, 0, 100, 100, 100, 100, 100, 100}, 12 / math.Sqrt(28*12), false},
		{[]int64{0, 0, 0, 100, 100, 100, 100, 100}, 15 / math.Sqrt(28*15), false},
		{[]int64{0, 0, 0, 0, 100, 100, 100, 100}, 16 / math.Sqrt(28*16), false},
		{[]int64{0, 0, 0, 0, 0, 100, 100, 100}, 15 / math.Sqrt(28*15), false},
		{[]int64{0, 0, 0, 0, 0, 0, 0, 100}, 7 / math.Sqrt(28*7), false},
		{[]int64{50, 50, 50, 50, 50, 50, 50, 50}, 0, false},
		{[]int64{800, 700, 600, 500, 400, 300, 200, 100}, -1, false},
		{[]int64{100, 200, 100, 200, 100, 200, 100, 200}, 4 / math.Sqrt(28*16), false},
		{[]int64{1, 2, 3, 4, 5, 6, 7, 8}, 1, false},
		{[]int64{10, 20, 30}, 1, false},
	}
	args := []string{"-cp", compileJava(t, "Trend.java", "TrendCheck", trendCheckSrc), "weft.tools.leak.TrendCheck"}
	for _, c := range cases {
		var f []string
		for _, v := range c.counts {
			f = append(f, strconv.FormatInt(v, 10))
		}
		args = append(args, strings.Join(f, ","))
	}
	out, _ := jvmtest.Run(t, args...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	rises := []string{"16", "16", "64", "256"} // Trend.minRise(16, interval) at 1, 4, 16, 64
	if len(lines) != len(cases)+len(rises) {
		t.Fatalf("TrendCheck printed %d lines for %d cases and %d rises:\n%s", len(lines), len(cases), len(rises), out)
	}
	if got := strings.Join(lines[len(cases):], " "); got != strings.Join(rises, " ") {
		t.Errorf("the least rise at intervals 1, 4, 16, 64: %s, want %s (16 objects, and 4 tracked ones)", got, strings.Join(rises, " "))
	}
	for i, c := range cases {
		var tau float64
		var growing bool
		if _, err := fmt.Sscanf(lines[i], "%g %t", &tau, &growing); err != nil {
			t.Fatalf("line %d %q: %v", i+1, lines[i], err)
		}
		if math.Abs(tau-c.tau) > 1e-9 || growing != c.growing {
			t.Errorf("%v: tau %.4f growing %v, want %.4f %v", c.counts, tau, growing, c.tau, c.growing)
		}
	}
}

// compileJava compiles one source of the tracker, file
// (weft/tools/leak/FILE), alone, with a checker class name of package
// weft.tools.leak, src.
func compileJava(t *testing.T, file, name, src string) string {
	t.Helper()
	path := "weft/tools/leak/" + file
	tracker, ok := Sources()[path]
	if !ok {
		t.Fatalf("no %s among the embedded sources", path)
	}
	return jvmtest.Compile(t, map[string]string{path: string(tracker), "weft/tools/leak/" + name + ".java": src})
}
