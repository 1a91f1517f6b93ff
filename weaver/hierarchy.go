package weaver

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// MethodHierarchy adds to a classfile.Hierarchy the methods each class
// declares, read from the same sources, so that pointcuts match calls and
// executions through the supertypes that declare the method, as AspectJ
// does (advice.MethodHierarchy). It is safe for concurrent use.
type MethodHierarchy struct {
	classfile.Hierarchy
	sources []classpath.Source
	classes sync.Map                    // internal name → *declared, nil if unknown
	annots  sync.Map                    // internal name → *annotations, nil if unknown (annotation.go)
	parents atomic.Pointer[parentsView] // nil: no declared parents (parents.go)
}

// declared is what a class declares: its methods by name, in class file
// order, the bridge methods by the name+desc they call, and its fields by
// name:desc (field.go).
type declared struct {
	methods map[string][]advice.Member
	bridges map[string][]string
	fields  map[string]advice.Member
}

// HierarchyOf returns the MethodHierarchy of sources, searched in order:
// the class hierarchy and the member lists both come from them. It is the
// hierarchy every weaving of classes on disk uses.
func HierarchyOf(sources ...classpath.Source) *MethodHierarchy {
	return NewMethodHierarchy(classpath.NewHierarchy(sources...), sources...)
}

// NewMethodHierarchy returns a MethodHierarchy over h whose member lists come
// from sources (searched in order, as h searches them): for a class
// hierarchy that learns classes some other way (weaver/ltw's, from the
// JVM), else HierarchyOf.
func NewMethodHierarchy(h classfile.Hierarchy, sources ...classpath.Source) *MethodHierarchy {
	return &MethodHierarchy{Hierarchy: h, sources: sources}
}

// DeclaredMethods implements advice.MethodHierarchy.
func (mh *MethodHierarchy) DeclaredMethods(class, name string) ([]advice.Member, bool) {
	d := mh.class(class)
	if d == nil {
		return nil, false
	}
	return d.methods[name], true
}

// allMethods returns the methods class declares, sorted by name, nil if
// the class is unknown.
func (mh *MethodHierarchy) allMethods(class string) []advice.Member {
	d := mh.class(class)
	if d == nil {
		return nil
	}
	var out []advice.Member
	for _, ms := range d.methods {
		out = append(out, ms...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Bridges implements advice.MethodHierarchy.
func (mh *MethodHierarchy) Bridges(class, name, desc string) []string {
	if d := mh.class(class); d != nil {
		return d.bridges[name+desc]
	}
	return nil
}

// Forget drops what is known of class's members and annotations: a class
// defined again (load-time weaving), or first found after it was looked
// up in vain.
func (mh *MethodHierarchy) Forget(class string) {
	mh.classes.Delete(class)
	mh.annots.Delete(class)
}

// ForgetUnknown drops the classes looked up in vain: a source of classes
// was added to the hierarchy (load-time weaving learns the jars the JVM
// defines classes from), which may have them.
func (mh *MethodHierarchy) ForgetUnknown() {
	mh.classes.Range(func(k, v any) bool {
		if v.(*declared) == nil {
			mh.classes.Delete(k)
		}
		return true
	})
	mh.annots.Range(func(k, v any) bool {
		if v.(*annotations) == nil {
			mh.annots.Delete(k)
		}
		return true
	})
}

// class returns what class declares, loading it once (two goroutines may
// both load it; one result is kept).
func (mh *MethodHierarchy) class(name string) *declared {
	if d, ok := mh.classes.Load(name); ok {
		return d.(*declared)
	}
	d, _ := mh.classes.LoadOrStore(name, mh.load(name))
	return d.(*declared)
}

func (mh *MethodHierarchy) load(class string) *declared {
	for _, s := range mh.sources {
		b, err := s.Class(class)
		if err != nil {
			continue
		}
		c, err := classfile.Parse(class, b)
		if err != nil {
			return nil
		}
		d := &declared{methods: make(map[string][]advice.Member, len(c.Methods)),
			fields: make(map[string]advice.Member, len(c.Fields))}
		for _, f := range c.Fields {
			name, desc := c.MemberName(f), c.MemberDesc(f)
			d.fields[name+":"+desc] = advice.Member{Owner: class, Name: name, Desc: desc, Access: f.Access, AccessKnown: true}
		}
		for _, m := range c.Methods {
			name, desc := c.MemberName(m), c.MemberDesc(m)
			d.methods[name] = append(d.methods[name], advice.Member{Owner: class, Name: name, Desc: desc, Access: m.Access,
				AccessKnown: true, Exceptions: exceptions(c, m)})
			if m.Access&classfile.AccBridge != 0 {
				if target := bridgeTarget(c, m, name); target != "" {
					if d.bridges == nil {
						d.bridges = map[string][]string{}
					}
					d.bridges[name+target] = append(d.bridges[name+target], desc)
				}
			}
		}
		return d
	}
	return nil
}

// bridgeTarget returns the descriptor of the method of c named name that
// bridge method m calls, or "".
func bridgeTarget(c *classfile.Class, m *classfile.Member, name string) string {
	code, err := classfile.DecodeCode(c, m)
	if err != nil || code == nil {
		return ""
	}
	for _, in := range code.Insns {
		switch in.Op {
		case classfile.OpInvokevirtual, classfile.OpInvokeinterface, classfile.OpInvokespecial, classfile.OpInvokestatic:
			owner, n, desc := c.Pool.MemberRef(in.Index)
			if owner == c.Name() && n == name {
				return desc
			}
		}
	}
	return ""
}
