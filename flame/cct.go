package flame

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
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
// context PARENT, defined before it, with its exclusive value of each metric
// in order, values left out at the end being zero (most contexts of a
// profile count calls alone: "n 7 3 12").
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
	fail := func(err error) (*Profile, error) { return nil, fmt.Errorf("%s:%v", name, err) }
	sc, err := newCCTScanner(r)
	if err != nil {
		return fail(err)
	}
	p := New(sc.metrics...)
	nodes := []*Node{p.Root}
	for {
		ok, err := sc.next()
		if err != nil {
			return fail(err)
		}
		if !ok {
			break
		}
		if sc.isFrame {
			continue
		}
		n := nodes[sc.parent].child(sc.frames[sc.frame], len(p.Metrics), &p.arena)
		for i, s := range sc.values {
			v, ok := parseValue(s)
			if !ok {
				return fail(sc.fail("the value %q is not a non-negative number", s))
			}
			n.Self[i] += v
		}
		nodes = append(nodes, n)
	}
	p.sumTotals()
	return p, nil
}

// fields appends the fields of b, separated by white space, to f, as
// strings.Fields splits them, in one pass over ASCII text.
func fields(f [][]byte, b []byte) [][]byte {
	start := len(f)
	for i := 0; i < len(b); {
		switch byteClass[b[i]] {
		case space:
			i++
			continue
		case nonASCII:
			return append(f[:start], bytes.Fields(b)...)
		}
		j := i + 1
		for j < len(b) && byteClass[b[j]] == inField {
			j++
		}
		if j < len(b) && byteClass[b[j]] == nonASCII {
			return append(f[:start], bytes.Fields(b)...)
		}
		f = append(f, b[i:j])
		i = j
	}
	return f
}

// The classes of bytes fields splits on.
const (
	inField = iota
	space
	nonASCII // of a character that may be Unicode white space
)

var byteClass = func() (c [256]byte) {
	for _, s := range []byte(" \t\n\v\f\r") {
		c[s] = space
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		c[b] = nonASCII
	}
	return c
}()

// isZero reports whether s, a valid value, is zero.
func isZero(s []byte) bool {
	if len(s) == 1 {
		return s[0] == '0'
	}
	v, ok := parseValue(s)
	return ok && v == 0
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
