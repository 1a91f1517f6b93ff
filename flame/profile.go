package flame

import "sort"

// Profile is a calling-context tree with one or more metrics per context.
type Profile struct {
	Metrics []string // metric names, e.g. "calls", "objects"; Node values are indexed alike
	Root    *Node    // the synthetic root ("all"); its children are the stacks' first frames
}

// Node is one calling context: a frame under its parent's context.
type Node struct {
	Name     string
	Self     []float64 // per metric: the value of this context itself
	Total    []float64 // per metric: Self plus the children's totals
	Children []*Node   // sorted by name
	index    map[string]*Node
}

// New returns an empty profile with the given metrics.
func New(metrics ...string) *Profile {
	return &Profile{Metrics: metrics, Root: newNode("all", len(metrics))}
}

func newNode(name string, metrics int) *Node {
	return &Node{Name: name, Self: make([]float64, metrics), Total: make([]float64, metrics)}
}

// child returns n's child named name, adding it if needed.
func (n *Node) child(name string, metrics int) *Node {
	if c, ok := n.index[name]; ok {
		return c
	}
	if n.index == nil {
		n.index = map[string]*Node{}
	}
	c := newNode(name, metrics)
	n.index[name] = c
	n.Children = append(n.Children, c)
	return c
}

// Add adds value v of metric m to the context stack (root frame first).
func (p *Profile) Add(stack []string, m int, v float64) {
	n := p.Root
	n.Total[m] += v
	for _, f := range stack {
		n = n.child(f, len(p.Metrics))
		n.Total[m] += v
	}
	n.Self[m] += v
}

// Sort orders every node's children by name, as flame graphs draw them.
func (p *Profile) Sort() {
	var walk func(n *Node)
	walk = func(n *Node) {
		sort.Slice(n.Children, func(i, j int) bool { return n.Children[i].Name < n.Children[j].Name })
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Root)
}

// Walk calls fn for every context but the root, parents first, with the
// stack of frame names from the root's child down to n.
func (p *Profile) Walk(fn func(stack []string, n *Node)) {
	var stack []string
	var walk func(n *Node)
	walk = func(n *Node) {
		for _, c := range n.Children {
			stack = append(stack, c.Name)
			fn(stack, c)
			walk(c)
			stack = stack[:len(stack)-1]
		}
	}
	walk(p.Root)
}
