package classfile

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/weft-aop/weft/classfile/jimage"
)

// The class sources of package classpath import classfile, so this
// package's tests cannot use them: these few helpers read the classes the
// tests need, the JDK's through package jimage and a directory's through
// the file system, and answer Hierarchy lookups over them in lookup order,
// as classpath.NewHierarchy does.

// classSource is a set of class files the tests read.
type classSource interface {
	// Class returns the bytes of the named class, or an error wrapping
	// ErrClassNotFound.
	Class(name string) ([]byte, error)
	// Walk calls fn for every class file in a fixed order, stopping at
	// the first error fn returns.
	Walk(fn func(classEntry) error) error
	String() string
	Close() error
}

// classEntry is one class file of a classSource.
type classEntry struct {
	Module string // the module of a class in the JDK's image, "" elsewhere
	Path   string // e.g. "java/lang/String.class"
	read   func() ([]byte, error)
}

// Read returns the class file's bytes.
func (e classEntry) Read() ([]byte, error) { return e.read() }

// jdkImage is (part of) the modules image of a JDK.
type jdkImage struct {
	img     *jimage.Image
	modules []string            // the visible modules, sorted
	pkgs    map[string][]string // package → the visible modules holding it
}

// openJDK opens the modules image of the JDK at home; with modules given,
// only those are visible.
func openJDK(home string, modules ...string) (*jdkImage, error) {
	img, err := jimage.Open(filepath.Join(home, "lib", "modules"))
	if err != nil {
		return nil, err
	}
	s := &jdkImage{img: img, modules: img.Modules(), pkgs: map[string][]string{}}
	if modules != nil {
		for _, m := range modules {
			if !s.has(m) {
				img.Close()
				return nil, fmt.Errorf("%s: no module %q", img.Path(), m)
			}
		}
		s.modules = append([]string(nil), modules...)
		sort.Strings(s.modules)
	}
	pkgs, err := img.Packages()
	if err != nil {
		img.Close()
		return nil, err
	}
	for pkg, ms := range pkgs {
		for _, m := range ms {
			if s.has(m) {
				s.pkgs[pkg] = append(s.pkgs[pkg], m)
			}
		}
	}
	return s, nil
}

func (s *jdkImage) has(module string) bool {
	i := sort.SearchStrings(s.modules, module)
	return i < len(s.modules) && s.modules[i] == module
}

func (s *jdkImage) String() string { return "jdk:" + strings.Join(s.modules, ",") }
func (s *jdkImage) Close() error   { return s.img.Close() }

// Modules returns the visible modules, sorted.
func (s *jdkImage) Modules() []string { return s.modules }

// Class finds the module of name's package and reads the class there.
func (s *jdkImage) Class(name string) ([]byte, error) {
	for _, m := range s.pkgs[path.Dir(name)] {
		b, err := s.img.Read(m, name+".class")
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return b, err
	}
	return nil, fmt.Errorf("%s: %s: %w", s, name, ErrClassNotFound)
}

// Walk visits the classes of the visible modules, by module and path.
func (s *jdkImage) Walk(fn func(classEntry) error) error {
	return s.img.Walk(func(e jimage.Entry) error {
		if !s.has(e.Module) || !strings.HasSuffix(e.Name, ".class") {
			return nil
		}
		return fn(classEntry{Module: e.Module, Path: e.Name, read: func() ([]byte, error) { return s.img.ReadEntry(e) }})
	})
}

// dirSource is a directory tree of class files, laid out by package.
type dirSource string

func (d dirSource) String() string { return string(d) }
func (d dirSource) Close() error   { return nil }

// Class reads d/name.class.
func (d dirSource) Class(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(string(d), filepath.FromSlash(name)+".class"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %s: %w", d, name, ErrClassNotFound)
	}
	return b, err
}

// Walk visits the *.class files under d in lexical order.
func (d dirSource) Walk(fn func(classEntry) error) error {
	return filepath.WalkDir(string(d), func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".class") {
			return err
		}
		rel, err := filepath.Rel(string(d), p)
		if err != nil {
			return err
		}
		return fn(classEntry{Path: filepath.ToSlash(rel), read: func() ([]byte, error) { return os.ReadFile(p) }})
	})
}

// sourceHierarchy is a Hierarchy over sources: the first that has a class
// wins. Headers are read with ReadClassInfo and cached.
type sourceHierarchy struct {
	sources []classSource
	cache   sync.Map // internal name → *classInfoResult
}

type classInfoResult struct {
	info *ClassInfo
	err  error
}

// newHierarchy returns a Hierarchy over sources, in lookup order.
func newHierarchy(sources ...classSource) *sourceHierarchy {
	return &sourceHierarchy{sources: sources}
}

// Lookup implements Hierarchy.
func (h *sourceHierarchy) Lookup(name string) (*ClassInfo, error) {
	if r, ok := h.cache.Load(name); ok {
		r := r.(*classInfoResult)
		return r.info, r.err
	}
	r := &classInfoResult{err: fmt.Errorf("%s: %w", name, ErrClassNotFound)}
	for _, src := range h.sources {
		b, err := src.Class(name)
		if errors.Is(err, ErrClassNotFound) {
			continue
		}
		if err == nil {
			r.info, r.err = ReadClassInfo(src.String()+": "+name, b)
		} else {
			r.err = err
		}
		break
	}
	actual, _ := h.cache.LoadOrStore(name, r)
	r = actual.(*classInfoResult)
	return r.info, r.err
}

// readZipEntry reads one entry of the jar (named jar in errors).
func readZipEntry(jar string, f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", jar, f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", jar, f.Name, err)
	}
	return b, nil
}
