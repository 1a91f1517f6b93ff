package ltw

import (
	"errors"
	"sync"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/weaver"
)

// Hierarchy is the load-time weaver's view of the classes: the classes the
// JVM has asked about so far (their original bytes), then the static
// sources (the class path and the JDK image). Classes defined at run time
// come and go by name (a hidden class's name is defined many times): the
// latest definition wins. It is safe for concurrent use.
type Hierarchy struct {
	*weaver.MethodHierarchy // over seen, then the static sources
	seen                    *seenSource
}

// NewHierarchy returns a Hierarchy over the static sources.
func NewHierarchy(static ...classfile.Source) *Hierarchy {
	seen := &seenSource{classes: map[string]seenClass{}}
	srcs := append([]classfile.Source{seen}, static...)
	h := &Hierarchy{seen: seen}
	h.MethodHierarchy = weaver.NewMethodHierarchy(&lookup{seen: seen, static: classfile.NewHierarchy(static...)}, srcs...)
	return h
}

// Add records a class the JVM defines (name labels errors). It returns the
// class's header, or an error if the bytes are no class file.
func (h *Hierarchy) Add(name string, data []byte) (*classfile.ClassInfo, error) {
	info, err := classfile.ReadClassInfo(name, data)
	if err != nil {
		return nil, err
	}
	h.seen.mu.Lock()
	h.seen.classes[info.Name] = seenClass{info: info, data: data}
	h.seen.mu.Unlock()
	h.Forget(info.Name)
	return info, nil
}

// lookup answers Lookup from the seen classes first; the static
// hierarchy caches its own answers (including "not found", which is why
// seen classes are not among its sources).
type lookup struct {
	seen   *seenSource
	static classfile.Hierarchy
}

func (l *lookup) Lookup(name string) (*classfile.ClassInfo, error) {
	l.seen.mu.Lock()
	c, ok := l.seen.classes[name]
	l.seen.mu.Unlock()
	if ok {
		return c.info, nil
	}
	return l.static.Lookup(name)
}

type seenClass struct {
	info *classfile.ClassInfo
	data []byte
}

// seenSource is a classfile.Source over the seen classes (for the method
// lists of weaver.MethodHierarchy).
type seenSource struct {
	mu      sync.Mutex
	classes map[string]seenClass
}

var errNotSeen = errors.New("not seen")

func (s *seenSource) Class(name string) ([]byte, error) {
	s.mu.Lock()
	c, ok := s.classes[name]
	s.mu.Unlock()
	if !ok {
		return nil, errors.Join(classfile.ErrClassNotFound, errNotSeen)
	}
	return append([]byte(nil), c.data...), nil
}

func (s *seenSource) Walk(func(classfile.ClassEntry) error) error { return nil }
func (s *seenSource) String() string                              { return "classes defined at run time" }
func (s *seenSource) Close() error                                { return nil }
