package flame

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
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
// Contexts of one name under one parent are one context (their values
// summed). weft's profiler writes the file in canonical order — preorder,
// a context's children in increasing order of their names, no name twice
// among them — which WriteCCTHTML streams into the page without the tree.

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
	// Lines are read as bytes, the contexts' fields split in place: a
	// javac profile has a million of them.
	next := func() ([]byte, bool) {
		if !sc.Scan() {
			return nil, false
		}
		line++
		return bytes.TrimRight(sc.Bytes(), "\r"), true
	}
	fail := func(format string, args ...any) (*Profile, error) {
		return nil, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	if h, ok := next(); !ok || string(h) != cctHeader {
		return fail("not a weft calling-context file (want the first line %q)", cctHeader)
	}
	m, ok := next()
	metrics := strings.Fields(string(m))
	if !ok || len(metrics) < 2 || metrics[0] != "metrics" || len(metrics) > maxMetrics+1 {
		return fail("want `metrics NAME...` (1 to %d names)", maxMetrics)
	}
	p := New(metrics[1:]...)
	nm := len(p.Metrics)
	nodes := []*Node{p.Root}
	var frames []string
	var f [][]byte
	for {
		text, ok := next()
		if !ok {
			break
		}
		switch {
		case len(text) == 0:
		case bytes.HasPrefix(text, []byte("f ")):
			frames = append(frames, string(text[2:]))
		case bytes.HasPrefix(text, []byte("n ")):
			f = fields(f[:0], text[2:])
			if len(f) != 2+nm {
				return fail("want `n PARENT FRAME` and %d values, found %d fields", nm, len(f))
			}
			parent, err1 := strconv.Atoi(string(f[0]))
			frame, err2 := strconv.Atoi(string(f[1]))
			if err1 != nil || parent < 0 || parent >= len(nodes) {
				return fail("parent %q is not a context defined before", f[0])
			}
			if err2 != nil || frame < 0 || frame >= len(frames) {
				return fail("frame %q is not a frame defined before", f[1])
			}
			n := nodes[parent].child(frames[frame], nm, &p.arena)
			for i, s := range f[2:] {
				v, ok := parseValue(s)
				if !ok {
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

// fields appends the fields of b, separated by white space, to f, as
// strings.Fields splits them.
func fields(f [][]byte, b []byte) [][]byte {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			for _, s := range bytes.Fields(b) {
				f = append(f, s)
			}
			return f
		}
	}
	for len(b) > 0 {
		i := 0
		for i < len(b) && asciiSpace(b[i]) {
			i++
		}
		j := i
		for j < len(b) && !asciiSpace(b[j]) {
			j++
		}
		if i < j {
			f = append(f, b[i:j])
		}
		b = b[j:]
	}
	return f
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// parseValue parses a non-negative, finite number; most are integers,
// read without strconv.
func parseValue(s []byte) (float64, bool) {
	if len(s) > 0 && len(s) <= 15 {
		var v uint64
		digits := true
		for _, c := range s {
			if c < '0' || c > '9' {
				digits = false
				break
			}
			v = 10*v + uint64(c-'0')
		}
		if digits {
			return float64(v), true
		}
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
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
