package pointcut

import (
	"regexp"
	"strings"

	"github.com/weft-aop/weft/advice"
)

// The classes a program's shadows can be in, for a load-time weaver's
// pre-filter (advice.Reach). The analysis is a superset, like kindsOf:
// only within(T) and staticinitialization(T) narrow it, and only when T
// tests names (no `+`, which needs the hierarchy). Each such T becomes a
// regular expression over internal names that accepts exactly the classes
// T's names match and the classes nested in them (TestReachAgreesWithin).

// classSet is the classes a pointcut's shadows can be in: every class, or
// those some regexp of res accepts (none: no class).
type classSet struct {
	all bool
	res []string
}

var everyClass = classSet{all: true}

func (a classSet) or(b classSet) classSet {
	if a.all || b.all {
		return everyClass
	}
	return classSet{res: append(append([]string(nil), a.res...), b.res...)}
}

// and is a superset of the intersection: either side alone bounds it.
func (a classSet) and(b classSet) classSet {
	switch {
	case a.all:
		return b
	case b.all:
		return a
	case len(b.res) < len(a.res):
		return b
	}
	return a
}

// classesOf returns the classes the shadows pointcut n matches can be in.
func classesOf(n node) classSet {
	switch n := n.(type) {
	case withinNode:
		return typeClasses(n.t)
	case staticInitNode:
		return typeClasses(n.t)
	case andNode:
		return classesOf(n.l).and(classesOf(n.r))
	case orNode:
		return classesOf(n.l).or(classesOf(n.r))
	case constNode:
		if n.v == advice.Never {
			return classSet{}
		}
	}
	return everyClass
}

// typeClasses returns the classes type pattern t names and the classes
// nested in them.
func typeClasses(t typePat) classSet {
	switch t := t.(type) {
	case *namePat:
		if t.star || t.plus || t.dims > 0 {
			return everyClass
		}
		return classSet{res: []string{t.classRegexp()}}
	case orType:
		return typeClasses(t.l).or(typeClasses(t.r))
	case andType:
		return typeClasses(t.l).and(typeClasses(t.r))
	case annotType:
		return typeClasses(t.t)
	}
	return everyClass
}

// classRegexp is p as a regexp over internal names, with within's nesting:
// the names testClass accepts, then any `$...` (a nested class, a lambda
// proxy). A '.' of p is a '/' or, unless p has a '$' itself, a '$'; `*`
// runs within one of those; the java/lang/ prefix is optional (the
// implicit import).
func (p *namePat) classRegexp() string {
	sep, in := `[/$]`, `[^/$]*`
	if p.dollar {
		sep, in = `/`, `[^/]*`
	}
	var b strings.Builder
	b.WriteString(`^(?:java` + sep + `lang` + sep + `)?`)
	for i, part := range p.parts {
		switch {
		case i == 0:
		case part.Sep == "..":
			b.WriteString(sep + `(?:.*` + sep + `)?`)
		default:
			b.WriteString(sep)
		}
		pieces := strings.Split(part.Name, "*")
		for j, piece := range pieces {
			if j > 0 {
				b.WriteString(in)
			}
			b.WriteString(regexp.QuoteMeta(piece))
		}
	}
	b.WriteString(`(?:\$.*)?$`)
	return b.String()
}

// ClassReach returns the classes p's shadows can be in: those of its
// advice, of the pointcuts its cflows enter and of its declarations (nil:
// every class). It implements advice.ClassLimiter.
func (p *Program) ClassReach() *advice.Reach {
	set := classSet{}
	for _, b := range p.advice {
		set = set.or(classesOf(b.pc))
	}
	for _, d := range p.cflows {
		set = set.or(classesOf(d.pc))
	}
	for _, d := range p.declares {
		set = set.or(classesOf(d.pc))
	}
	for _, d := range p.parents {
		set = set.or(typeClasses(d.types))
	}
	if set.all {
		return nil
	}
	r, err := advice.NewReach(dedupe(set.res))
	if err != nil {
		return nil // cannot happen: the patterns are quoted; every class is safe
	}
	return r
}

// dedupe drops repeated patterns, keeping the first of each.
func dedupe(res []string) []string {
	seen := map[string]bool{}
	out := res[:0:0]
	for _, r := range res {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
