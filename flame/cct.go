package flame

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The calling-context format weft's profiler writes: the tree itself, each
// frame name once, instead of every path spelled out as folded stacks do
// (for a javac run, 25 MB instead of 1 GB per metric):
//
//	# weft cct 1
//	metrics calls wall-ns
//	f java.lang.Thread.run
//	n 0 0 1 5200
//	f Main.main
//	n 1 1 1 900
//
// "f NAME" gives the next frame index (0, 1, ...) a name; "n PARENT FRAME
// VALUES..." is the next context (1, 2, ...; the root is 0), a child of
// context PARENT, defined before it, with its exclusive value of each metric.

const (
	cctHeader  = "# weft cct 1"
	maxMetrics = 64
)

// ReadCCT reads a profile in weft's calling-context format. name labels
// errors (file:line: what).
func ReadCCT(r io.Reader, name string) (*Profile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		line++
		return strings.TrimRight(sc.Text(), "\r"), true
	}
	fail := func(format string, args ...any) (*Profile, error) {
		return nil, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	if h, ok := next(); !ok || h != cctHeader {
		return fail("not a weft calling-context file (want the first line %q)", cctHeader)
	}
	m, ok := next()
	metrics := strings.Fields(m)
	if !ok || len(metrics) < 2 || metrics[0] != "metrics" || len(metrics) > maxMetrics+1 {
		return fail("want `metrics NAME...` (1 to %d names)", maxMetrics)
	}
	p := New(metrics[1:]...)
	nm := len(p.Metrics)
	nodes := []*Node{p.Root}
	var frames []string
	for {
		text, ok := next()
		if !ok {
			break
		}
		switch {
		case text == "":
		case strings.HasPrefix(text, "f "):
			frames = append(frames, text[2:])
		case strings.HasPrefix(text, "n "):
			f := strings.Fields(text[2:])
			if len(f) != 2+nm {
				return fail("want `n PARENT FRAME` and %d values, found %d fields", nm, len(f))
			}
			parent, err1 := strconv.Atoi(f[0])
			frame, err2 := strconv.Atoi(f[1])
			if err1 != nil || parent < 0 || parent >= len(nodes) {
				return fail("parent %q is not a context defined before", f[0])
			}
			if err2 != nil || frame < 0 || frame >= len(frames) {
				return fail("frame %q is not a frame defined before", f[1])
			}
			n := nodes[parent].child(frames[frame], nm)
			for i, s := range f[2:] {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
					return fail("the value %q is not a non-negative number", s)
				}
				n.Self[i] += v
			}
			nodes = append(nodes, n)
		default:
			return fail("want `f NAME` or `n PARENT FRAME VALUES...`")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	p.sumTotals()
	return p, nil
}

// sumTotals sets every context's totals to its self values plus its
// children's totals.
func (p *Profile) sumTotals() {
	var sum func(n *Node)
	sum = func(n *Node) {
		copy(n.Total, n.Self)
		for _, c := range n.Children {
			sum(c)
			for i, v := range c.Total {
				n.Total[i] += v
			}
		}
	}
	sum(p.Root)
}
