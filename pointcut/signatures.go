package pointcut

import (
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// A join point has one signature per type that has the called or executed
// method, as AspectJ defines them (its JoinPointSignatureIterator): a call
// of HashMap.put is also a call of AbstractMap.put and Map.put, and
// UnmodifiableBidiMap.values(), returning a Set, is also an execution of
// Map.values() returning a Collection. Each signature is a declaring type
// and the method that type has, declared or inherited, with that method's
// return type, modifiers and throws clause.
//
// The signatures of a method m called or executed on owner O are, in
// AspectJ's order:
//
//  1. first, the method O has: its declaration in O or the nearest one
//     inherited (looked up by name and parameter types, as the JVM
//     resolves a method, see lookup). The signature of O and of every type
//     between O and the declaring type of first is (type, first).
//  2. For an instance method, the supertypes above: for each direct
//     supertype S of a type reached (from first's declaring type up), the
//     method S has with the same name and parameter types, whatever its
//     return type; if S has one (and it is not private), the types between
//     S and its declaring type get signatures, and the walk goes on above
//     S. A supertype without the method ends the walk on that path.
//
// "Parameter types" are those of the method or of a bridge method javac
// wrote for it: a method overriding a generic one (take(String) of a class
// implementing Src<String>, whose take(T) erases to take(Object)) has other
// erased parameter types than the method it overrides, and the bridge
// names them. A type whose method has other parameter types than the join
// point's has two signatures, as in AspectJ: the generic method's erasure
// (Object Src.take(Object)) and its parameterization, approximated by the
// join point's own parameter and return types (String Src.take(String)).
// Constructors and static methods have the signatures of step 1 only.
type sigWalk struct {
	mh     advice.MethodHierarchy
	h      classfile.Hierarchy
	name   string
	desc   string   // the join point's descriptor
	params []string // parameter descriptors, "(…)", of the method and its bridges
	memo   map[string]*advice.Member
	// parameterized holds, for a method with other parameter types than
	// the join point's, its copy with the join point's descriptor.
	parameterized map[*advice.Member]*advice.Member
	cache         *typeCache           // shared by a Program's matching, or nil
	types         map[string]*typeInfo // this walk's, without a cache
	// fn receives each signature; returning true stops the walk.
	fn func(owner string, m *advice.Member) bool
}

// signatures calls fn for each signature of member m, until fn returns
// true, and reports whether it did. With a plain Hierarchy, or when m's
// owner or its method cannot be found, m's own (owner, m) is the only
// signature.
func signatures(m *advice.Member, h classfile.Hierarchy, fn func(owner string, sm *advice.Member) bool) bool {
	var cache *typeCache
	if ch, ok := h.(*cachedHierarchy); ok {
		h, cache = ch.MethodHierarchy, ch.types
	}
	mh, ok := h.(advice.MethodHierarchy)
	if !ok || strings.HasPrefix(m.Owner, "[") {
		return fn(m.Owner, m)
	}
	if m.AccessKnown && fn(m.Owner, m) {
		// An executed member is its owner's own method: its first
		// signature needs no lookup (the walk below gives it again).
		return true
	}
	w := &sigWalk{mh: mh, h: h, name: m.Name, desc: m.Desc, params: []string{paramsOf(m.Desc)}, fn: fn,
		cache: cache}
	first := w.resolve(m.Owner, m.Desc)
	if first == nil {
		return fn(m.Owner, m)
	}
	if first.Owner != m.Owner && m.Name == "<init>" {
		return false // AspectJ: constructors are not inherited
	}
	w.addBridges(first)
	if w.between(m.Owner, first.Owner, first) {
		return true
	}
	if m.Name == "<init>" || first.Access&classfile.AccStatic != 0 {
		return false
	}
	return w.walk(first)
}

// resolve returns the method owner has named w.name with descriptor desc,
// else with its parameter types: the one a call resolves to.
func (w *sigWalk) resolve(owner, desc string) *advice.Member {
	var found *advice.Member
	w.hierarchy(owner, func(c string) bool {
		ms, _ := w.mh.DeclaredMethods(c, w.name)
		for i := range ms {
			if ms[i].Desc == desc {
				found = &ms[i]
				return true
			}
		}
		for i := range ms {
			if paramsOf(ms[i].Desc) == w.params[0] {
				found = &ms[i]
				return true
			}
		}
		return false
	})
	return found
}

// addBridges adds the parameter types of the bridges calling m.
func (w *sigWalk) addBridges(m *advice.Member) {
	for _, b := range w.mh.Bridges(m.Owner, m.Name, m.Desc) {
		p := paramsOf(b)
		if !containsString(w.params, p) {
			w.params = append(w.params, p)
		}
	}
}

// pending is a supertype whose direct supertypes are still to be searched,
// with the method it has.
type pending struct {
	m   *advice.Member
	typ string
}

// walk searches the supertypes above first's declaring type, breadth first
// as AspectJ does.
func (w *sigWalk) walk(first *advice.Member) bool {
	visited := map[string]bool{}
	queue := []pending{{m: first, typ: first.Owner}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, s := range w.directSupers(cur.typ) {
			if visited[s] {
				continue
			}
			visited[s] = true
			found := w.lookup(s)
			if found == nil || found.Access&classfile.AccPrivate != 0 && found.Owner != cur.m.Owner {
				continue
			}
			w.addBridges(found)
			if w.between(s, found.Owner, found) {
				return true
			}
			queue = append(queue, pending{m: found, typ: s})
		}
	}
	return false
}

// between gives the signature (t, m) to sub and to every type between sub
// and super (super a supertype of sub, or sub itself).
func (w *sigWalk) between(sub, super string, m *advice.Member) bool {
	seen := map[string]bool{}
	var visit func(t string) bool
	visit = func(t string) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if w.emit(t, m) {
			return true
		}
		if t == super {
			return false
		}
		for _, p := range w.directSupers(t) {
			if w.isSubtype(p, super) && visit(p) {
				return true
			}
		}
		return false
	}
	return visit(sub)
}

// emit gives type t the signature m, and m's parameterization if m has
// other parameter types than the join point.
func (w *sigWalk) emit(t string, m *advice.Member) bool {
	if w.fn(t, m) {
		return true
	}
	if paramsOf(m.Desc) == w.params[0] {
		return false
	}
	p := w.parameterized[m]
	if p == nil {
		c := *m
		c.Desc = w.desc
		p = &c
		if w.parameterized == nil {
			w.parameterized = map[*advice.Member]*advice.Member{}
		}
		w.parameterized[m] = p
	}
	return w.fn(t, p)
}

// lookup returns the method type t has (declares or inherits) with the
// walk's name and one of its parameter lists, or nil.
func (w *sigWalk) lookup(t string) *advice.Member {
	if m, ok := w.memo[t]; ok {
		return m
	}
	var found *advice.Member
	w.hierarchy(t, func(c string) bool {
		ms, _ := w.mh.DeclaredMethods(c, w.name)
		for i := range ms {
			if containsString(w.params, paramsOf(ms[i].Desc)) {
				found = &ms[i]
				return true
			}
		}
		return false
	})
	if w.memo == nil {
		w.memo = map[string]*advice.Member{}
	}
	w.memo[t] = found
	return found
}

// hierarchy calls fn for t and its supertypes in the order AspectJ looks
// methods up, until fn returns true.
func (w *sigWalk) hierarchy(t string, fn func(string) bool) {
	for _, c := range w.info(t).order {
		if fn(c) {
			return
		}
	}
}

// directSupers returns t's direct supertypes as AspectJ orders them: the
// interfaces, then the superclass.
func (w *sigWalk) directSupers(t string) []string { return w.info(t).supers }

// isSubtype reports whether sub is super or one of its subtypes.
func (w *sigWalk) isSubtype(sub, super string) bool {
	if super == "java/lang/Object" || sub == super {
		return true
	}
	for _, c := range w.info(sub).order {
		if c == super {
			return true
		}
	}
	return false
}

func (w *sigWalk) info(t string) *typeInfo {
	if w.cache != nil {
		return w.cache.info(t)
	}
	ti := w.types[t]
	if ti == nil {
		ti = newTypeInfo(w.h, t)
		if w.types == nil {
			w.types = map[string]*typeInfo{}
		}
		w.types[t] = ti
	}
	return ti
}

// typeInfo is what the walk needs of a type's hierarchy.
type typeInfo struct {
	supers []string // direct supertypes: the interfaces, then the superclass
	// order is the type and its supertypes in the order AspectJ looks
	// methods up (JVMS 5.4.3.3): the type, its superclasses up to Object,
	// then the interfaces, nearest first; an interface's holds interfaces
	// only. Types that cannot be found end their branch.
	order []string
	// ancestors are the proper supertypes breadth first, as supers visits
	// them; complete is false if some could not be found.
	ancestors []string
	complete  bool
}

func newTypeInfo(h classfile.Hierarchy, t string) *typeInfo {
	ti := &typeInfo{}
	ci, err := h.Lookup(t)
	if err != nil || ci == nil {
		return ti
	}
	ti.supers = append(append([]string(nil), ci.Interfaces...), ci.Super)
	if ci.Super == "" {
		ti.supers = ti.supers[:len(ti.supers)-1]
	}
	var ifaces []string
	seen := map[string]bool{}
	if ci.IsInterface() {
		ifaces = []string{t}
		seen[t] = true
	} else {
		for c := ci; c != nil; {
			ti.order = append(ti.order, c.Name)
			for _, i := range c.Interfaces {
				if !seen[i] {
					seen[i] = true
					ifaces = append(ifaces, i)
				}
			}
			if c.Super == "" {
				break
			}
			next, err := h.Lookup(c.Super)
			if err != nil {
				break
			}
			c = next
		}
	}
	for k := 0; k < len(ifaces); k++ {
		ti.order = append(ti.order, ifaces[k])
		ii, err := h.Lookup(ifaces[k])
		if err != nil || ii == nil {
			continue
		}
		for _, s := range ii.Interfaces {
			if !seen[s] {
				seen[s] = true
				ifaces = append(ifaces, s)
			}
		}
	}
	_, ti.complete = supers(h, t, func(s string) bool {
		ti.ancestors = append(ti.ancestors, s)
		return false
	})
	return ti
}

// typeCache keeps the typeInfo of the types a Program's matching walks
// through, for one hierarchy (the one a weaver passes to every Match).
type typeCache struct {
	h     classfile.Hierarchy
	types sync.Map // internal name → *typeInfo
}

// cachedHierarchy is the MethodHierarchy a Program matches with, and its
// typeCache: Match hands it to the pointcut nodes in place of the
// weaver's, so that signature walks share the type information.
type cachedHierarchy struct {
	advice.MethodHierarchy
	types *typeCache
}

// hierarchyCache holds a Program's cachedHierarchy.
type hierarchyCache struct {
	p atomic.Pointer[cachedHierarchy]
}

// wrap returns h with the cache, renewed when h is not the hierarchy it
// was made for. Hierarchies that are not MethodHierarchy pointers are
// returned as they are.
func (hc *hierarchyCache) wrap(h classfile.Hierarchy) classfile.Hierarchy {
	mh, ok := h.(advice.MethodHierarchy)
	if !ok || reflect.ValueOf(mh).Kind() != reflect.Pointer {
		return h
	}
	if c := hc.p.Load(); c != nil && c.MethodHierarchy == mh {
		return c
	}
	c := &cachedHierarchy{MethodHierarchy: mh, types: &typeCache{h: mh}}
	hc.p.Store(c)
	return c
}

func (c *typeCache) info(t string) *typeInfo {
	if ti, ok := c.types.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti, _ := c.types.LoadOrStore(t, newTypeInfo(c.h, t))
	return ti.(*typeInfo)
}

// paramsOf returns the parameter part "(…)" of a method descriptor.
func paramsOf(desc string) string {
	if i := strings.IndexByte(desc, ')'); i >= 0 {
		return desc[:i+1]
	}
	return desc
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
