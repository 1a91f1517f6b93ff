package pointcut

import (
	"errors"
	"fmt"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// classes is what resolution reads of compiled classes, through classfile's
// sources: the advice class path (Options.AdviceCP) and the modules image of
// the JDK at Options.JavaHome, each opened on first use. Resolution runs on
// one goroutine, so no locking.
type classes struct {
	adviceCP string
	javaHome string // "" means classpath.DefaultJavaHome()

	adviceOpened bool
	advice       []classpath.Source
	adviceErr    error
	borrowed     bool                        // advice was opened by the caller (Options.AdviceSources)
	parsed       map[string]*classfile.Class // advice classes; nil: not found

	jdkOpened bool
	jdk       *classpath.ImageSource // nil if there is no JDK

	names map[string][]typeRef // simple name → classes; see candidates
}

func newClasses(adviceCP string, opened []classpath.Source, javaHome string) *classes {
	cs := &classes{adviceCP: adviceCP, javaHome: javaHome, parsed: map[string]*classfile.Class{}}
	if opened != nil {
		cs.adviceOpened, cs.advice, cs.borrowed = true, opened, true
	}
	return cs
}

func (cs *classes) close() {
	if !cs.borrowed {
		for _, s := range cs.advice {
			s.Close()
		}
	}
	if cs.jdk != nil {
		cs.jdk.Close()
	}
}

// adviceSources opens the advice class path.
func (cs *classes) adviceSources() ([]classpath.Source, error) {
	if !cs.adviceOpened {
		cs.adviceOpened = true
		cs.advice, cs.adviceErr = classpath.OpenClassPath(cs.adviceCP, cs.javaHome)
	}
	return cs.advice, cs.adviceErr
}

// image opens the JDK's modules image; it is nil if there is none (JDK
// types then stay unchecked, with warnings).
func (cs *classes) image() *classpath.ImageSource {
	if !cs.jdkOpened {
		cs.jdkOpened = true
		home := cs.javaHome
		if home == "" {
			home, _ = classpath.DefaultJavaHome()
		}
		if home != "" {
			cs.jdk, _ = classpath.OpenJDK(home)
		}
	}
	return cs.jdk
}

// class returns the parsed advice class with the given internal name, from
// the first entry of the advice class path that has it.
func (cs *classes) class(name string) (*classfile.Class, error) {
	if c, ok := cs.parsed[name]; ok {
		if c == nil {
			return nil, cs.notFound(name)
		}
		return c, nil
	}
	srcs, err := cs.adviceSources()
	if err != nil {
		return nil, fmt.Errorf("--advice-cp %s: %v", cs.adviceCP, err)
	}
	for _, s := range srcs {
		b, err := s.Class(name)
		if errors.Is(err, classfile.ErrClassNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c, err := classfile.Parse(s.String()+": "+name+".class", b)
		if err != nil {
			return nil, err
		}
		cs.parsed[name] = c
		return c, nil
	}
	cs.parsed[name] = nil
	return nil, cs.notFound(name)
}

// nested returns class, as class does, or where no class has that name
// and it is a nested class written with dots (a.b.Outer.Inner), the class
// the name means with each of its last dots in turn a '$', and the name
// found.
func (cs *classes) nested(name string) (*classfile.Class, string, error) {
	cl, err := cs.class(name)
	for n := name; err != nil && strings.Contains(n, "/"); {
		i := strings.LastIndexByte(n, '/')
		n = n[:i] + "$" + n[i+1:]
		if cl2, err2 := cs.class(n); err2 == nil {
			cl, err, name = cl2, nil, n
		}
	}
	return cl, name, err
}

func (cs *classes) notFound(name string) error {
	return fmt.Errorf("%s not found on %s: %w", strings.ReplaceAll(name, "/", "."), cs.adviceCP, classfile.ErrClassNotFound)
}

// hierarchy answers subtype questions for checking advice parameter types:
// given (if any) first, then the advice class path, then, when nothing was
// given, the JDK's image.
func (cs *classes) hierarchy(given classfile.Hierarchy) classfile.Hierarchy {
	srcs, _ := cs.adviceSources() // an error is reported where an advice class is needed
	srcs = append([]classpath.Source(nil), srcs...)
	if given == nil {
		if jdk := cs.image(); jdk != nil {
			srcs = append(srcs, jdk)
		}
		return classpath.NewHierarchy(srcs...)
	}
	return chain{given, classpath.NewHierarchy(srcs...)}
}

// chain asks each hierarchy in turn.
type chain []classfile.Hierarchy

func (hs chain) Lookup(name string) (*classfile.ClassInfo, error) {
	var first error
	for _, h := range hs {
		ci, err := h.Lookup(name)
		if err == nil {
			return ci, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}
