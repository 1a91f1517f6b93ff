package pointcut

import (
	"hash/fnv"
	"sort"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// cflow(P) and cflowbelow(P) match at run time, when the current thread is
// in the control flow of a join point P matches (cflowbelow: strictly
// below one). Each becomes a cflowDef of the program: at every shadow P
// matches, Match adds the advice that enters and leaves the cflow's
// per-thread state (advice.CflowEntry), and at the advised shadows the
// cflow is an InCflow residue. Formals bound inside P are pushed with each
// entry and read from the innermost one (AspectJ's semantics) as
// CflowValue values.

// cflowDef is one cflow or cflowbelow of the program.
type cflowDef struct {
	key      int32
	below    bool
	text     string
	full     string // what the key is derived from
	pc       node
	nformals int   // size of the binds array P is evaluated with
	frame    []int // the formals P binds, pushed in this order
	kinds    advice.KindSet
	enter    *advice.Advice
	exit     *advice.Advice
}

// cflowNode is cflow(P) or cflowbelow(P) at an advised shadow: a test of
// the cflow's state; the formals P binds are bound to its innermost
// entry's values.
type cflowNode struct {
	key   int32
	frame []int
}

func (n cflowNode) eval(m *matchCtx) result {
	for k, f := range n.frame {
		m.binds[f] = advice.Value{Kind: advice.CflowValue, Index: k, Cflow: n.key}
	}
	return result{advice.Maybe, &advice.Residue{Op: advice.InCflow, Cflow: n.key}}
}

// cflowSet collects the cflows of the advice being compiled, by key.
type cflowSet struct {
	byKey map[int32]*cflowDef
	list  []*cflowDef
}

// add registers d unless a cflow of the same text is there; a different
// cflow whose key collides takes the next free key.
func (s *cflowSet) add(d *cflowDef) *cflowDef {
	for {
		old, ok := s.byKey[d.key]
		if !ok {
			break
		}
		if old.full == d.full {
			return old
		}
		d.key++
		if d.key == 0 {
			d.key = 1
		}
	}
	s.byKey[d.key] = d
	s.list = append(s.list, d)
	return d
}

// cflow compiles cflow(P) or cflowbelow(P). P is compiled in a scope of
// its own, where the formals it binds are bound at P's shadows; in the
// enclosing scope they are then bound to the values of the cflow's
// innermost entry.
func (c *compiler) cflow(d *Designator, below bool, ev *env, inOr, inNot bool) node {
	n := len(ev.bound)
	inner := &env{scope: ev.scope, names: ev.names, bound: make([]bool, n), boundAt: make([]Position, n),
		sites: make([]advice.Value, n), reportAt: ev.reportAt, stack: ev.stack, formals: ev.formals, inCflow: true}
	pc := c.expr(d.Cflow, inner, inOr, inNot)
	def := &cflowDef{below: below, pc: pc, nformals: n, kinds: kindsOf(pc)}
	name := "cflow"
	if below {
		name = "cflowbelow"
	}
	def.text = name + "(" + c.between(d.Cflow.Pos, d.Close) + ")"
	var names []string
	for f := 0; f < n; f++ {
		if !inner.bound[f] {
			continue
		}
		def.frame = append(def.frame, f)
		names = append(names, ev.formals[f]+" "+strings.Join(formalTypes(ev, f), "&"))
	}
	def.full = ev.scope.a.Name + "\x00" + strings.Join(strings.Fields(def.text), " ") + "\x00" + strings.Join(names, ",")
	h := fnv.New32a()
	h.Write([]byte(def.full))
	def.key = int32(h.Sum32())
	if def.key == 0 {
		def.key = 1
	}
	if c.cflows != nil {
		def = c.cflows.add(def)
	}
	// The formals bound inside are bound here, to the entry's values.
	for k, f := range def.frame {
		pos := inner.boundAt[f]
		if ev.bound[f] {
			c.errorf(pos, "a formal is bound once, by one this(), target(), args(), cflow() or returning/throwing clause",
				"formal %s is bound twice (first at %s)", ev.formals[f], ev.boundAt[f])
			continue
		}
		ev.bound[f] = true
		ev.boundAt[f] = pos
		ev.sites[f] = advice.Value{Kind: advice.CflowValue, Index: k, Cflow: def.key}
	}
	return cflowNode{key: def.key, frame: def.frame}
}

// formalTypes returns the types a formal's name stands for in ev.
func formalTypes(ev *env, f int) []string {
	var out []string
	for _, t := range ev.names {
		if t.formal == f {
			out = append(out, t.types...)
		}
	}
	sort.Strings(out)
	return out
}

// finishCflows makes the entry and exit advice of each cflow.
func finishCflows(defs []*cflowDef) {
	for _, d := range defs {
		d.enter = &advice.Advice{Kind: advice.Before, Aspect: "weft", Cflow: &advice.CflowEntry{Key: d.key, Below: d.below, Enter: true, Values: len(d.frame), Text: d.text}}
		d.exit = &advice.Advice{Kind: advice.After, Aspect: "weft", Cflow: &advice.CflowEntry{Key: d.key, Below: d.below, Values: len(d.frame), Text: d.text}}
	}
}

// matchCflows returns the cflow entries and exits at s: those of cflows
// placed first (before any other advice at s) and those placed last.
// *mp is the Match's context, made here if some cflow can match s's kind.
func (p *Program) matchCflows(s *advice.Shadow, h classfile.Hierarchy, mp **matchCtx) (first, last []advice.Applied) {
	for _, d := range p.cflows {
		if !d.kinds.Has(s.Kind) {
			continue
		}
		if *mp == nil {
			*mp = &matchCtx{s: s, h: p.types.wrap(h)}
		}
		m := *mp
		if d.nformals <= len(m.bindsBuf) {
			m.binds = m.bindsBuf[:d.nformals]
			clear(m.binds)
		} else {
			m.binds = make([]advice.Value, d.nformals)
		}
		m.ifs = m.ifs[:0]
		r := d.pc.eval(m)
		if r.v == advice.Never {
			continue
		}
		var args []advice.Value
		for _, f := range d.frame {
			v := m.binds[f]
			v.Desc = "Ljava/lang/Object;"
			args = append(args, v)
		}
		if args == nil {
			args = []advice.Value{} // resolved: no values
		}
		m.fixIfs()
		enter := advice.Applied{Advice: d.enter, Verdict: r.v, Residue: r.r, Args: args}
		exit := advice.Applied{Advice: d.exit, Verdict: r.v, Residue: r.r, Args: []advice.Value{}}
		// Entries run in list order and exits in reverse: each cflow's
		// pair nests inside the pairs before it.
		if d.below {
			last = append(last, enter, exit)
		} else {
			first = append(first, enter, exit)
		}
	}
	return first, last
}
