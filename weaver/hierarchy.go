package weaver

import (
	"sync"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// MethodHierarchy adds to a classfile.Hierarchy the methods each class
// declares, read from the same sources, so that pointcuts match calls and
// executions through the supertypes that declare the method, as AspectJ
// does (advice.MethodHierarchy). It is safe for concurrent use.
type MethodHierarchy struct {
	classfile.Hierarchy
	sources []classfile.Source
	mu      sync.Mutex
	methods map[string]map[string]advice.Member // class → name+desc → member; nil if unknown
	fields  map[string]map[string]advice.Member // class → name:desc → field (field.go); nil if unknown
}

// NewMethodHierarchy returns a MethodHierarchy over h whose member lists come
// from sources (searched in order, as h searches them).
func NewMethodHierarchy(h classfile.Hierarchy, sources ...classfile.Source) *MethodHierarchy {
	return &MethodHierarchy{Hierarchy: h, sources: sources, methods: map[string]map[string]advice.Member{}}
}

// DeclaredMethod implements advice.MethodHierarchy.
func (mh *MethodHierarchy) DeclaredMethod(class, name, desc string) (advice.Member, bool) {
	mh.mu.Lock()
	ms, ok := mh.methods[class]
	mh.mu.Unlock()
	if !ok {
		ms = mh.load(class)
		mh.mu.Lock()
		mh.methods[class] = ms
		mh.mu.Unlock()
	}
	m, ok := ms[name+desc]
	return m, ok
}

func (mh *MethodHierarchy) load(class string) map[string]advice.Member {
	for _, s := range mh.sources {
		b, err := s.Class(class)
		if err != nil {
			continue
		}
		c, err := classfile.Parse(class, b)
		if err != nil {
			return nil
		}
		ms := make(map[string]advice.Member, len(c.Methods))
		for _, m := range c.Methods {
			name, desc := c.MemberName(m), c.MemberDesc(m)
			ms[name+desc] = advice.Member{Owner: class, Name: name, Desc: desc, Access: m.Access,
				AccessKnown: true, Exceptions: exceptions(c, m)}
		}
		return ms
	}
	return nil
}
