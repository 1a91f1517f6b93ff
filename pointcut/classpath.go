package pointcut

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/weft-aop/weft/classfile"
)

// maxClassSize bounds a class file read from a jar (its size is untrusted).
const maxClassSize = 64 << 20

// classPath reads classes from a Java class path of directories and jars,
// for checking advice methods. It is also a classfile.Hierarchy over the
// classes it holds.
type classPath struct {
	mu      sync.Mutex
	entries []string
	jars    map[string]*zip.ReadCloser
	cache   map[string]*classfile.Class
}

func newClassPath(cp string) *classPath {
	c := &classPath{jars: map[string]*zip.ReadCloser{}, cache: map[string]*classfile.Class{}}
	for _, e := range filepath.SplitList(cp) {
		if e != "" {
			c.entries = append(c.entries, e)
		}
	}
	return c
}

func (c *classPath) Close() {
	for _, z := range c.jars {
		z.Close()
	}
}

// class returns the parsed class with the given internal name.
func (c *classPath) class(name string) (*classfile.Class, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.cache[name]; ok {
		if cl == nil {
			return nil, fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
		}
		return cl, nil
	}
	b, where, err := c.read(name)
	if err != nil {
		c.cache[name] = nil
		return nil, err
	}
	cl, err := classfile.Parse(where, b)
	if err != nil {
		return nil, err
	}
	c.cache[name] = cl
	return cl, nil
}

func (c *classPath) read(name string) ([]byte, string, error) {
	file := name + ".class"
	if !fs.ValidPath(file) {
		return nil, "", fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
	}
	for _, e := range c.entries {
		st, err := os.Stat(e)
		if err != nil {
			continue
		}
		if st.IsDir() {
			p := filepath.Join(e, filepath.FromSlash(file))
			b, err := os.ReadFile(p)
			if err == nil {
				return b, p, nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, "", err
			}
			continue
		}
		z := c.jars[e]
		if z == nil {
			if z, err = zip.OpenReader(e); err != nil {
				return nil, "", fmt.Errorf("class path entry %s: %v", e, err)
			}
			c.jars[e] = z
		}
		f, err := z.Open(file)
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, maxClassSize))
		f.Close()
		if err != nil {
			return nil, "", fmt.Errorf("%s!%s: %v", e, file, err)
		}
		return b, e + "!" + file, nil
	}
	return nil, "", fmt.Errorf("%s not found on %s: %w", strings.ReplaceAll(name, "/", "."),
		strings.Join(c.entries, string(filepath.ListSeparator)), classfile.ErrClassNotFound)
}

// Lookup implements classfile.Hierarchy.
func (c *classPath) Lookup(name string) (*classfile.ClassInfo, error) {
	cl, err := c.class(name)
	if err != nil {
		return nil, err
	}
	return &classfile.ClassInfo{Name: cl.Name(), Super: cl.SuperName(), Interfaces: cl.InterfaceNames(), Access: cl.Access}, nil
}

// chain asks each hierarchy in turn.
type chain []classfile.Hierarchy

func (hs chain) Lookup(name string) (*classfile.ClassInfo, error) {
	var first error
	for _, h := range hs {
		if h == nil {
			continue
		}
		ci, err := h.Lookup(name)
		if err == nil {
			return ci, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
	}
	return nil, first
}
