package flame

import "sort"

// Profile is a calling-context tree with one or more metrics per context.
type Profile struct {
	Metrics []string // metric names, e.g. "calls", "objects"; Node values are indexed alike
	Root    *Node    // the synthetic root ("all"); its children are the stacks' first frames
	arena   arena
}

// arena hands out nodes and their values from blocks, fewer allocations
// (and objects for the collector) than one each: a javac profile has a
// million contexts.
type arena struct {
	nodes  []Node
	values []float64
}

const arenaBlock = 4096

func (a *arena) node(name string, metrics int) *Node {
	if len(a.nodes) == 0 {
		a.nodes = make([]Node, arenaBlock)
	}
	if len(a.values) < 2*metrics {
		a.values = make([]float64, 2*metrics*arenaBlock)
	}
	n := &a.nodes[0]
	a.nodes = a.nodes[1:]
	v := a.values[: 2*metrics : 2*metrics] // one block for both
	a.values = a.values[2*metrics:]
	*n = Node{Name: name, Self: v[:metrics:metrics], Total: v[metrics:]}
	return n
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
	p := &Profile{Metrics: metrics}
	p.Root = p.arena.node("all", len(metrics))
	return p
}

// indexFrom is the number of children from which a node indexes them by
// name: most contexts have a few, found faster by a scan than in a map of
// their own (a javac profile has a million contexts).
const indexFrom = 16

// child returns n's child named name, adding it (from a) if needed.
func (n *Node) child(name string, metrics int, a *arena) *Node {
	if n.index != nil {
		if c, ok := n.index[name]; ok {
			return c
		}
	} else {
		for _, c := range n.Children {
			if c.Name == name {
				return c
			}
		}
	}
	c := a.node(name, metrics)
	n.Children = append(n.Children, c)
	switch {
	case n.index != nil:
		n.index[name] = c
	case len(n.Children) == indexFrom:
		n.index = make(map[string]*Node, 2*indexFrom)
		for _, k := range n.Children {
			n.index[k.Name] = k
		}
	}
	return c
}

// Add adds value v of metric m to the context stack (root frame first).
func (p *Profile) Add(stack []string, m int, v float64) {
	n := p.Root
	n.Total[m] += v
	for _, f := range stack {
		n = n.child(f, len(p.Metrics), &p.arena)
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
