package pointcut

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// declare warning / declare error: a static check the weaver reports at
// each shadow whose join point the pointcut selects. declare precedence:
// the order of aspects at a join point they share.

// DeclareInfo describes a declare statement, for summaries.
type DeclareInfo struct {
	Pos     Position
	Aspect  string
	Kind    string // "precedence", "parents", "warning" or "error"
	Text    string // the type patterns or the pointcut, as written
	Message string // warning and error: the message
}

// declareMsg is a compiled declare warning or declare error.
type declareMsg struct {
	d     *advice.Declare
	pc    node
	kinds advice.KindSet
}

// dynamicDesignators select join points by run-time state: AspectJ rejects
// them in declare warning and error, whose pointcuts are decided when
// weaving.
var dynamicDesignators = map[string]bool{
	"this": true, "target": true, "args": true, "cflow": true, "cflowbelow": true, "if": true,
	"@this": true, "@target": true, "@args": true,
}

// declareMessage compiles `declare warning|error: Expr : "message";`
// declared at pos.
func (c *compiler) declareMessage(sc *aspectScope, pos Position, dm *DeclareMessage) *declareMsg {
	nerr := len(c.errs)
	msg, err := unquoteJava(dm.Message.Value)
	if err != nil {
		c.errorf(dm.Message.Pos, "Java's escapes are \\b \\t \\n \\f \\r \\\" \\' \\\\, octal \\0 to \\377 and \\uXXXX",
			"bad string literal: %v", err)
	}
	c.staticOnly(dm.Expr, sc, "declare "+dm.Kind, nil, nil)
	pc := c.expr(dm.Expr, newEnv(sc, nil, nil, ""), false, false)
	if len(c.errs) > nerr {
		return nil
	}
	return &declareMsg{pc: pc, kinds: kindsOf(pc), d: &advice.Declare{Error: dm.Kind == "error", Message: msg,
		Aspect: sc.a.Name, File: sc.file.Name, Line: pos.Line, Column: pos.Column}}
}

// staticOnly reports the designators of e (and of the named pointcuts it
// uses) that depend on run-time state. ref is the reference being
// followed, nil at the top; stack guards against a pointcut referring to
// itself (reported when it is compiled).
func (c *compiler) staticOnly(e *Expr, sc *aspectScope, what string, ref *Designator, stack []*PointcutDecl) {
	hint := what + " is decided when weaving, from the code alone: use call, execution, within and withincode " +
		"(AspectJ rejects this, target, args, cflow and if there too)"
	var expr func(e *Expr)
	var unary func(u *UnaryExpr)
	unary = func(u *UnaryExpr) {
		switch {
		case u.Not != nil:
			unary(u.Not)
		case u.Paren != nil:
			expr(u.Paren)
		case u.Prim != nil:
			d := u.Prim
			name := strings.Join(d.Name, ".")
			if d.At {
				name = "@" + name
			}
			switch {
			case dynamicDesignators[name] && ref == nil:
				c.errorf(d.Pos, hint, "%s() cannot be used in %s: it is decided at run time", name, what)
			case dynamicDesignators[name]:
				c.errorf(ref.Pos, hint, "pointcut %s uses %s() (at %s), which cannot be used in %s: it is decided at run time",
					strings.Join(ref.Name, "."), name, d.Pos, what)
			case isDesignator(name):
			default:
				pd, psc := c.namedPointcut(d, sc)
				if pd == nil {
					return
				}
				for _, p := range stack {
					if p == pd {
						return
					}
				}
				at := ref
				if at == nil {
					at = d
				}
				c.staticOnly(pd.Expr, psc, what, at, append(stack, pd))
			}
		}
	}
	expr = func(e *Expr) {
		for _, a := range e.Or {
			for _, u := range a.And {
				unary(u)
			}
		}
	}
	expr(e)
}

// namedPointcut returns the named pointcut a reference designates and its
// aspect, or nil (the error is reported when the reference is compiled).
func (c *compiler) namedPointcut(d *Designator, sc *aspectScope) (*PointcutDecl, *aspectScope) {
	if len(d.Name) > 1 {
		sc = c.aspects[strings.Join(d.Name[:len(d.Name)-1], ".")]
		if sc == nil {
			return nil, nil
		}
	}
	return sc.pointcuts[d.Name[len(d.Name)-1]], sc
}

// unquoteJava returns the value of a Java string literal (with its quotes).
func unquoteJava(lit string) (string, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", fmt.Errorf("%s is not a string", lit)
	}
	s := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("a lone \\ at the end")
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 's':
			b.WriteByte(' ')
		case '"', '\'', '\\':
			b.WriteByte(e)
		case 'u':
			for i < len(s) && s[i] == 'u' {
				i++
			}
			if i+4 > len(s) {
				return "", fmt.Errorf("\\u needs four hex digits")
			}
			r, err := strconv.ParseUint(s[i:i+4], 16, 32)
			if err != nil {
				return "", fmt.Errorf("\\u%s: not four hex digits", s[i:i+4])
			}
			b.WriteRune(rune(r))
			i += 4
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// Octal: up to three digits, at most \377.
			n, k := int(e-'0'), 1
			for ; k < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' && n*8+int(s[i]-'0') <= 0377; k++ {
				n = n*8 + int(s[i]-'0')
				i++
			}
			b.WriteRune(rune(n))
		default:
			r, _ := utf8.DecodeRuneInString(s[i-1:])
			return "", fmt.Errorf("unknown escape \\%c", r)
		}
	}
	return b.String(), nil
}

// --- declare precedence ---

// precDecl is a compiled declare precedence: the rank of each aspect it
// orders (the index of the pattern matching it; unmatched aspects take the
// rank of `*`, if the list has one, else none).
type precDecl struct {
	pos    Position
	aspect string
	ranks  map[string]int
}

// conflict is two aspects that declare precedence statements order both
// ways: an error where both advise one join point (AspectJ's rule).
type conflict struct {
	a, b string
	d    *advice.Declare
}

// precedence compiles `declare precedence: T1, T2, ...;` over the aspects.
// pos is the declaration's.
func (c *compiler) precedence(sc *aspectScope, pos Position, dp *DeclarePrecedence, scopes []*aspectScope) *precDecl {
	pd := &precDecl{pos: pos, aspect: sc.a.Name, ranks: map[string]int{}}
	star := -1
	pats := make([]typePat, len(dp.Types))
	for i, tp := range dp.Types {
		if st := singleSimple(tp); st != nil && st.Head == "*" && len(st.Rest) == 0 && !st.Plus && len(st.Dims) == 0 && !st.Varargs && st.Member == "" {
			if star >= 0 {
				c.errorf(tp.Pos, "`*` stands for every aspect no other pattern names: write it once", "`*` occurs more than once in declare precedence")
			}
			star = i
			continue
		}
		pats[i] = c.aspectPattern(tp)
	}
	for _, other := range scopes {
		name := other.a.Name
		first := -1
		for i, p := range pats {
			if p == nil || !p.match(aspectDesc(name), nil) {
				continue
			}
			if first >= 0 {
				c.errorf(dp.Types[i].Pos, "an aspect has one place in a declare precedence list",
					"aspect %s matches two patterns of declare precedence (%s and %s)", name, pats[first], p)
				continue
			}
			first = i
		}
		switch {
		case first >= 0:
			pd.ranks[name] = first
		case star >= 0:
			pd.ranks[name] = star
		}
	}
	for i, p := range pats {
		np, ok := p.(*namePat)
		if !ok || np.re != nil || np.star {
			continue
		}
		found := false
		for _, other := range scopes {
			if p.match(aspectDesc(other.a.Name), nil) {
				found = true
			}
		}
		if !found {
			c.warnf(dp.Types[i].Pos, "aspects: "+aspectNames(scopes), "no aspect named %s (declare precedence orders aspects)", np.exact)
		}
	}
	return pd
}

// aspectDesc is the descriptor an aspect's name is matched as: a
// qualified name (an @AspectJ aspect's) as its class's.
func aspectDesc(name string) string {
	return "L" + strings.ReplaceAll(name, ".", "/") + ";"
}

// MatchAspectName reports whether the aspect named name (binary, as
// com.acme.Tracing) matches pattern, a type pattern as declare precedence
// and aop.xml's <aspects><include within> write them.
func MatchAspectName(pattern, name string) (bool, error) {
	l, err := parseTypePatternsText("pattern", pattern)
	if err != nil {
		return false, err
	}
	if len(l) != 1 {
		return false, fmt.Errorf("%q: one type pattern expected", pattern)
	}
	c := &compiler{seen: map[string]bool{}}
	p := c.aspectPattern(l[0])
	if err := c.errs.Err(); err != nil {
		return false, err
	}
	return p.match(aspectDesc(name), nil), nil
}

// aspectPattern compiles a type pattern naming aspects: names with
// wildcards and `+`, combined with !, && and ||. Aspects have no package.
func (c *compiler) aspectPattern(tp *TypePattern) typePat {
	var unary func(u *TypeUnary) typePat
	var pattern func(tp *TypePattern) typePat
	unary = func(u *TypeUnary) typePat {
		switch {
		case u.Not != nil:
			return notType{unary(u.Not)}
		case u.Paren != nil:
			return pattern(u.Paren)
		}
		st := u.Simple
		if len(st.Dims) > 0 || st.Varargs || st.Member != "" {
			c.errorf(st.Pos, "write aspect names, with wildcards and + if need be", "declare precedence names aspects, not arrays or members")
		}
		return newNamePat(st)
	}
	pattern = func(tp *TypePattern) typePat {
		var or typePat
		for _, a := range tp.Or {
			var and typePat
			for _, u := range a.And {
				if p := unary(u); and == nil {
					and = p
				} else {
					and = andType{and, p}
				}
			}
			if or == nil {
				or = and
			} else {
				or = orType{or, and}
			}
		}
		return or
	}
	return pattern(tp)
}

func aspectNames(scopes []*aspectScope) string {
	names := make([]string, len(scopes))
	for i, sc := range scopes {
		names[i] = sc.a.Name
	}
	return strings.Join(names, ", ")
}

// orderAspects sorts the aspects by the declare precedence statements:
// an aspect ranked before another by some statement comes first, others
// keep their order (command line, then file). Two aspects that statements
// order both ways are returned as conflicts (an error only where both
// advise one join point); orders that form a longer cycle are an error.
func (c *compiler) orderAspects(scopes []*aspectScope, decls []*precDecl) ([]*aspectScope, []conflict) {
	if len(decls) == 0 {
		return scopes, nil
	}
	index := map[string]int{}
	for i, sc := range scopes {
		index[sc.a.Name] = i
	}
	// before[i][j]: the first statement that puts aspect i above aspect j.
	n := len(scopes)
	before := make([][]*precDecl, n)
	for i := range before {
		before[i] = make([]*precDecl, n)
	}
	for _, d := range decls {
		for a, ra := range d.ranks {
			for b, rb := range d.ranks {
				if ra < rb && before[index[a]][index[b]] == nil {
					before[index[a]][index[b]] = d
				}
			}
		}
	}
	var conflicts []conflict
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d1, d2 := before[i][j], before[j][i]; d1 != nil && d2 != nil {
				a, b := scopes[i].a.Name, scopes[j].a.Name
				conflicts = append(conflicts, conflict{a: a, b: b, d: &advice.Declare{Error: true,
					Message: fmt.Sprintf("conflicting declare precedence orderings for aspects %s and %s (%s:%d and %s:%d)",
						a, b, d1.pos.Filename, d1.pos.Line, d2.pos.Filename, d2.pos.Line),
					Aspect: d1.aspect, File: d1.pos.Filename, Line: d1.pos.Line, Column: d1.pos.Column}})
				before[i][j], before[j][i] = nil, nil
			}
		}
	}
	// Kahn's algorithm, taking the earliest aspect whose predecessors
	// are all placed.
	placed := make([]bool, n)
	out := make([]*aspectScope, 0, n)
	for len(out) < n {
		next := -1
		for i := 0; i < n && next < 0; i++ {
			if placed[i] {
				continue
			}
			ready := true
			for j := 0; j < n; j++ {
				if !placed[j] && before[j][i] != nil {
					ready = false
					break
				}
			}
			if ready {
				next = i
			}
		}
		if next < 0 {
			var cycle []string
			for i := 0; i < n; i++ {
				if !placed[i] {
					cycle = append(cycle, scopes[i].a.Name)
				}
			}
			c.errorf(decls[0].pos, "a declare precedence list orders aspects one way: make the lists agree",
				"declare precedence orders aspects %s in a cycle", strings.Join(cycle, ", "))
			for i := 0; i < n; i++ {
				if !placed[i] {
					out = append(out, scopes[i])
				}
			}
			break
		}
		placed[next] = true
		out = append(out, scopes[next])
	}
	return out, conflicts
}

// --- matching ---

// Declared implements advice.Checker: the declare warning and declare error
// statements whose pointcut matches s, in declaration order, then the
// precedence conflicts between aspects that both advise s.
func (p *Program) Declared(s *advice.Shadow, h classfile.Hierarchy) []*advice.Declare {
	var out []*advice.Declare
	var m *matchCtx
	for _, d := range p.declares {
		if !d.kinds.Has(s.Kind) {
			continue
		}
		if m == nil {
			m = &matchCtx{s: s, h: p.types.wrap(h)}
		}
		m.binds = m.bindsBuf[:0]
		if d.pc.eval(m).v == advice.Always {
			out = append(out, d.d)
		}
	}
	if len(p.conflicts) > 0 && p.ShadowKinds().Has(s.Kind) {
		advised := map[string]bool{}
		for _, a := range p.Match(s, h) {
			advised[a.Advice.Aspect] = true
		}
		for _, c := range p.conflicts {
			if advised[c.a] && advised[c.b] {
				out = append(out, c.d)
			}
		}
	}
	return out
}

// DeclaredKinds implements advice.Checker.
func (p *Program) DeclaredKinds() advice.KindSet {
	var k advice.KindSet
	for _, d := range p.declares {
		k |= d.kinds
	}
	if len(p.conflicts) > 0 {
		k |= p.ShadowKinds()
	}
	return k
}

// DeclaresErrors reports whether weaving with p can fail: p has a declare
// error, or aspects whose declare precedence statements conflict.
func (p *Program) DeclaresErrors() bool {
	for _, d := range p.declares {
		if d.d.Error {
			return true
		}
	}
	return len(p.conflicts) > 0
}

// DeclareInfo returns summaries of the declare statements in declaration
// order.
func (p *Program) DeclareInfo() []DeclareInfo { return p.declInfo }

var _ advice.Checker = (*Program)(nil)
