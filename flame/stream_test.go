package flame

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// canonicalCCT writes p (sorted) in canonical order, as weft's profiler
// does: frames numbered at first use, values as given.
func canonicalCCT(p *Profile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nmetrics %s\n", cctHeader, strings.Join(p.Metrics, " "))
	frames := map[string]int{}
	context := 0
	var walk func(n *Node, parent int)
	walk = func(n *Node, parent int) {
		for _, c := range n.Children {
			f, ok := frames[c.Name]
			if !ok {
				f = len(frames)
				frames[c.Name] = f
				fmt.Fprintf(&b, "f %s\n", c.Name)
			}
			context++
			self := context
			fmt.Fprintf(&b, "n %d %d", parent, f)
			for _, v := range c.Self {
				fmt.Fprintf(&b, " %v", v)
			}
			b.WriteString("\n")
			walk(c, self)
		}
	}
	walk(p.Root, 0)
	return b.String()
}

// TestWriteCCTHTML: a file in canonical order streams into the page
// WriteHTML makes of the tree ReadCCT reads from it, byte for byte; any
// other file is refused with ErrNotCanonical and nothing written.
func TestWriteCCTHTML(t *testing.T) {
	p := New("calls", "wall-ns")
	for i, stack := range [][]string{
		{"main"}, {"main", "b"}, {"main", "a", "all"}, {"main", "a", "b"}, {"main", "a<b>&c", "\u2028x\"y"},
		{"other", "main", "a"}, {"all"}, {"main", "b", "b", "b"},
	} {
		p.Add(stack, 0, float64(i+1))
		p.Add(stack, 1, float64(1000*i))
	}
	p.Add([]string{"main", "a"}, 1, 2.5e-7)
	p.Add([]string{"other"}, 1, 1e21)
	p.Sort()
	text := canonicalCCT(p)
	check := func(text string) {
		t.Helper()
		q, err := ReadCCT(strings.NewReader(text), "p.cct")
		if err != nil {
			t.Fatal(err)
		}
		q.Sort()
		var want, got bytes.Buffer
		if err := WriteHTML(&want, q, "t"); err != nil {
			t.Fatal(err)
		}
		if err := WriteCCTHTML(&got, strings.NewReader(text), "t"); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if got.String() != want.String() {
			t.Errorf("streamed page differs from WriteHTML's for\n%s", text)
		}
	}
	check(text)
	big := New("calls", "objects") // a page of data larger than a chunk
	for i := 0; i < 40000; i++ {
		big.Add([]string{"main", fmt.Sprintf("f%d", i%200), fmt.Sprintf("g%d", i)}, 0, float64(i))
		big.Add([]string{"main", fmt.Sprintf("f%d", i%200)}, 1, float64(i)/3)
	}
	big.Sort()
	check(canonicalCCT(big))
	check("# weft cct 1\nmetrics c\n")
	check("# weft cct 1\nmetrics c w\nf z\nf a\nn 0 1 007 1.50\n\nn 1 0 1 2\nf a\nn 0 0 3 4\nn 3 2 0 0\n") // frames renumbered, values rewritten
	check("# weft cct 1\nmetrics c w x\nf z\nf a\nn 0 1 2\nn 1 1 0 0.0 00\nn 1 0\nn 0 0 0 5\n")            // values left out, zeros written otherwise

	for _, bad := range []string{
		"# weft cct 1\nmetrics c\nf b\nf a\nn 0 0 1\nn 0 1 1\n",          // siblings out of order
		"# weft cct 1\nmetrics c\nf a\nn 0 0 1\nn 0 0 1\n",               // a name twice
		"# weft cct 1\nmetrics c\nf a\nf b\nn 0 0 1\nn 0 1 1\nn 1 1 1\n", // not preorder
		"# weft cct 1\nmetrics c\nf a\nf a\nn 0 0 1\nn 0 1 1\n",          // a name twice, two frames
		"# weft cct 1\nmetrics c\nf a\nn 0 0 -1\n",                       // malformed
		"x\n",
	} {
		var got bytes.Buffer
		if err := WriteCCTHTML(&got, strings.NewReader(bad), "t"); !errors.Is(err, ErrNotCanonical) || got.Len() != 0 {
			t.Errorf("%q: error %v, %d bytes written; want ErrNotCanonical and none", bad, err, got.Len())
		}
	}
}
