package ltw

import (
	"errors"
	"sync"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/weaver"
)

// Hierarchy is the load-time weaver's view of the classes: the classes the
// JVM has asked about so far (their original bytes), then the static
// sources (the class path and the JDK image), then the code sources the
// JVM named (learned: the jars its classes come from).
// Classes defined at run time come and go by name (a hidden class's name
// is defined many times): the latest definition wins. It is safe for
// concurrent use.
type Hierarchy struct {
	*weaver.MethodHierarchy // over seen, then the static sources, then learned
	seen                    *seenSource
	learned                 *learnedSources
	static                  classfile.Hierarchy
}

// NewHierarchy returns a Hierarchy over the static sources.
func NewHierarchy(static ...classpath.Source) *Hierarchy {
	seen := &seenSource{classes: map[string]seenClass{}}
	learned := &learnedSources{}
	srcs := append(append([]classpath.Source{seen}, static...), learned)
	h := &Hierarchy{seen: seen, learned: learned, static: classpath.NewHierarchy(static...)}
	h.MethodHierarchy = weaver.NewMethodHierarchy(&lookup{h}, srcs...)
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

// Learn adds src, a code source the JVM defines classes from (a jar of
// the class path or of a plugin's loader), after the sources it has: as AspectJ's load-time world reads the loader's
// resources, the types a class names — its supertypes, the types its
// frames merge — are then found where the class came from, before the JVM
// defines them, rather than asked of the JVM one by one or not known at
// all. The caller closes src once the Hierarchy is no longer used.
func (h *Hierarchy) Learn(src classpath.Source) {
	h.learned.mu.Lock()
	h.learned.srcs = append(h.learned.srcs, src)
	h.learned.mu.Unlock()
	h.ForgetUnknown()
}

// find looks name up as Lookup does, and says whether a static source
// (the class path, the JDK) has it: those are complete, their
// supertypes known too.
func (h *Hierarchy) find(name string) (info *classfile.ClassInfo, static bool, err error) {
	h.seen.mu.Lock()
	c, ok := h.seen.classes[name]
	h.seen.mu.Unlock()
	if ok {
		return c.info, false, nil
	}
	if info, err = h.static.Lookup(name); err == nil || !errors.Is(err, classfile.ErrClassNotFound) {
		return info, err == nil, err
	}
	if info, lerr := h.learned.lookup(name); lerr == nil {
		return info, false, nil
	}
	return nil, false, err
}

// lookup answers Lookup from the seen classes first; the static
// hierarchy caches its own answers (including "not found", which is why
// seen and learned classes are not among its sources).
type lookup struct{ h *Hierarchy }

func (l *lookup) Lookup(name string) (*classfile.ClassInfo, error) {
	info, _, err := l.h.find(name)
	return info, err
}

type seenClass struct {
	info *classfile.ClassInfo
	data []byte
}

// seenSource is a classpath.Source over the seen classes (for the method
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

func (s *seenSource) Walk(func(classpath.ClassEntry) error) error { return nil }
func (s *seenSource) String() string                              { return "classes defined at run time" }
func (s *seenSource) Close() error                                { return nil }

// learnedSources is a classpath.Source over the learned code sources, the
// first one learned that has a class giving it. The headers found are
// kept: a source learned later cannot change them.
type learnedSources struct {
	mu    sync.Mutex
	srcs  []classpath.Source
	infos sync.Map // internal name → *classfile.ClassInfo
}

var errNotLearned = errors.New("in no code source learned")

func (l *learnedSources) Class(name string) ([]byte, error) {
	l.mu.Lock()
	srcs := l.srcs[:len(l.srcs):len(l.srcs)]
	l.mu.Unlock()
	for _, s := range srcs {
		b, err := s.Class(name)
		if err == nil || !errors.Is(err, classfile.ErrClassNotFound) {
			return b, err
		}
	}
	return nil, errors.Join(classfile.ErrClassNotFound, errNotLearned)
}

func (l *learnedSources) lookup(name string) (*classfile.ClassInfo, error) {
	if v, ok := l.infos.Load(name); ok {
		return v.(*classfile.ClassInfo), nil
	}
	b, err := l.Class(name)
	if err != nil {
		return nil, err
	}
	info, err := classfile.ReadClassInfo(name, b)
	if err != nil {
		return nil, err
	}
	if info.Name != name { // a file in the wrong place: not the class
		return nil, errors.Join(classfile.ErrClassNotFound, errNotLearned)
	}
	v, _ := l.infos.LoadOrStore(name, info)
	return v.(*classfile.ClassInfo), nil
}

func (l *learnedSources) Walk(func(classpath.ClassEntry) error) error { return nil }
func (l *learnedSources) String() string                              { return "code sources the JVM named" }
func (l *learnedSources) Close() error                                { return nil }
