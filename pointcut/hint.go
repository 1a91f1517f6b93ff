package pointcut

import (
	"path"
	"sort"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// maxCandidates bounds the classes a hint suggests for a simple name.
const maxCandidates = 3

// typeRef is a class found under its simple name.
type typeRef struct {
	name   string // internal name
	order  int    // where it was found: the advice class path's entries, then the JDK
	module string // its JDK module, "" on the advice class path
	entry  classpath.ClassEntry
}

// qualified returns the fully qualified names of up to maxCandidates
// classes named simple on the advice class path and in the JDK, as
// "a.B, c.B or d.B"; "" if there is none. Public classes of exported
// packages are preferred (the others are named only if there is no such
// class); then java.base's before other modules', top-level before nested
// classes, and the advice class path's order.
func (cs *classes) qualified(simple string) string {
	if cs == nil {
		return ""
	}
	if cs.names == nil {
		cs.index()
	}
	refs := cs.names[simple]
	var visible, hidden []typeRef
	exports := map[string]map[string]bool{} // module → exported packages
	for _, r := range refs {
		if cs.public(r) && cs.exported(r, exports) {
			visible = append(visible, r)
		} else {
			hidden = append(hidden, r)
		}
	}
	if len(visible) == 0 {
		visible = hidden
	}
	sort.SliceStable(visible, func(i, j int) bool {
		a, b := visible[i], visible[j]
		if ba, bb := a.module == "java.base", b.module == "java.base"; ba != bb {
			return ba
		}
		if na, nb := strings.Contains(a.name, "$"), strings.Contains(b.name, "$"); na != nb {
			return nb
		}
		if a.order != b.order {
			return a.order < b.order
		}
		return a.name < b.name
	})
	var names []string
	seen := map[string]bool{}
	for _, r := range visible {
		n := strings.NewReplacer("/", ".", "$", ".").Replace(r.name)
		if !seen[n] && len(names) < maxCandidates {
			seen[n] = true
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// index lists the classes of the advice class path and the JDK by simple
// name (a nested class's is the part after its last '$'), once, for the
// first hint that needs it. Anonymous and local classes are left out.
func (cs *classes) index() {
	cs.names = map[string][]typeRef{}
	var srcs []classpath.Source
	if cs.adviceCP != "" {
		advice, _ := cs.adviceSources()
		srcs = append(srcs, advice...)
	}
	if jdk := cs.image(); jdk != nil {
		srcs = append(srcs, jdk)
	}
	for order, s := range srcs {
		s.Walk(func(e classpath.ClassEntry) error {
			name := strings.TrimSuffix(e.Path, ".class")
			simple := path.Base(name)
			if i := strings.LastIndexByte(simple, '$'); i >= 0 {
				simple = simple[i+1:]
			}
			if strings.HasPrefix(name, "META-INF/") || simple == "" || simple[0] >= '0' && simple[0] <= '9' ||
				strings.HasSuffix(name, "module-info") || strings.HasSuffix(name, "package-info") {
				return nil
			}
			cs.names[simple] = append(cs.names[simple], typeRef{name: name, order: order, module: e.Module, entry: e})
			return nil
		})
	}
}

// public reports whether the class is declared public.
func (cs *classes) public(r typeRef) bool {
	b, err := r.entry.Read()
	if err != nil {
		return false
	}
	ci, err := classfile.ReadClassInfo(r.name, b)
	return err == nil && ci.Access&classfile.AccPublic != 0
}

// exported reports whether the class's package is visible to every
// module: always on the class path, by its module's exports in the JDK.
func (cs *classes) exported(r typeRef, exports map[string]map[string]bool) bool {
	if r.module == "" {
		return true
	}
	pkgs, ok := exports[r.module]
	if !ok {
		pkgs = map[string]bool{}
		if list, err := cs.jdk.Exports(r.module); err == nil {
			for _, p := range list {
				pkgs[p] = true
			}
		}
		exports[r.module] = pkgs
	}
	return pkgs[path.Dir(r.name)]
}
