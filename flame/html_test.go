package flame

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// TestHTMLDataAsJSON: the page's data, written as the tree is walked, is
// what encoding/json makes of the same tree (names escaped for a script
// element, numbers formatted alike: integers, fractions, exponents), zeros
// at the end of a context's values left out.
func TestHTMLDataAsJSON(t *testing.T) {
	p := New("calls", "wall-ns", "ratio")
	values := [][]float64{{1, 0, 0.5}, {1 << 53, 1e21, 1e-7}, {123456789012, 2.5e-6, 1.0 / 3}, {7, 1e20, 1e-6}, {3, 0, 0}}
	for i, stack := range [][]string{{"main"}, {"main", "a<b>&c"}, {"main", "a<b>&c", "\u2028x\"y"}, {"other", "main"}, {"main", "b"}} {
		for m, v := range values[i] {
			p.Add(stack, m, v)
		}
	}
	p.Sort()
	var got bytes.Buffer
	w := bufio.NewWriter(&got)
	if err := writeData(w, p); err != nil {
		t.Fatal(err)
	}
	w.Flush()

	frames := map[string]int{}
	var names []string
	var encode func(n *Node) []any
	encode = func(n *Node) []any {
		f, ok := frames[n.Name]
		if !ok {
			f = len(names)
			frames[n.Name] = f
			names = append(names, n.Name)
		}
		self := n.Self
		for len(self) > 0 && self[len(self)-1] == 0 {
			self = self[:len(self)-1]
		}
		out := []any{f, self}
		for _, c := range n.Children {
			out = append(out, encode(c))
		}
		return out
	}
	root := encode(p.Root)
	want, err := json.Marshal(struct {
		Metrics []string `json:"metrics"`
		Frames  []string `json:"frames"`
		Root    any      `json:"root"`
	}{p.Metrics, names, root})
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("data:\n%s\nencoding/json:\n%s", got.String(), want)
	}
}
