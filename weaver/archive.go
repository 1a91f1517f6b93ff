package weaver

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Stats sums up weaving a jar or directory.
type Stats struct {
	Classes      int // class files seen
	Woven        int // class files changed
	MethodsWoven int
	Copied       int // other entries copied unchanged
	Shadows      []WeaveInfo
	Warnings     []string // unwoven classes and methods, with the reason
}

func (s *Stats) add(o *Stats) {
	s.Classes += o.Classes
	s.Woven += o.Woven
	s.MethodsWoven += o.MethodsWoven
	s.Copied += o.Copied
	s.Shadows = append(s.Shadows, o.Shadows...)
	s.Warnings = append(s.Warnings, o.Warnings...)
}

// entry is one file of an input, woven or copied.
type entry struct {
	name string // slash-separated path in the input
	data []byte
	raw  *zip.File // copy as is (jar entries that are not woven)
	res  *Result
	err  error
}

// WeavePath weaves the jar or directory in into out (a jar or directory of
// the same kind), on all cores. Everything that is not a class, and every
// class that is unchanged or cannot be woven, is copied unchanged; sister
// classes are added next to the classes they serve. Nothing is dropped.
func (w *Weaver) WeavePath(in, out string) (*Stats, error) {
	fi, err := os.Stat(in)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return w.weaveDir(in, out)
	}
	return w.weaveJar(in, out)
}

// weaveAll weaves the class entries in parallel.
func (w *Weaver) weaveAll(es []*entry, read func(*entry) ([]byte, error)) *Stats {
	st := &Stats{}
	work := make(chan *entry)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range work {
				data, err := read(e)
				if err != nil {
					e.err = err
					continue
				}
				e.data = data
				e.res, e.err = w.WeaveClass(e.name, data)
			}
		}()
	}
	for _, e := range es {
		if strings.HasSuffix(e.name, ".class") {
			work <- e
		}
	}
	close(work)
	wg.Wait()
	for _, e := range es {
		if !strings.HasSuffix(e.name, ".class") {
			st.Copied++
			continue
		}
		st.Classes++
		if e.err != nil {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: copied unwoven: %v", e.name, e.err))
			continue
		}
		if e.res == nil {
			continue
		}
		for _, warn := range e.res.Warnings {
			st.Warnings = append(st.Warnings, e.name+": "+warn)
		}
		if e.res.Class != nil {
			st.Woven++
			st.MethodsWoven += e.res.MethodsWoven
			st.Shadows = append(st.Shadows, e.res.Shadows...)
		}
	}
	return st
}

// extraPath places extra class extra next to the class named class stored
// at name (which may sit under META-INF/versions/N/).
func extraPath(name, class, extra string) string {
	prefix := strings.TrimSuffix(name, class+".class")
	if prefix == name { // stored under an unexpected name
		prefix = path.Dir(name) + "/"
		if !strings.Contains(name, "/") {
			prefix = ""
		}
		extra = path.Base(extra)
	}
	return prefix + extra + ".class"
}

func (w *Weaver) weaveJar(in, out string) (*Stats, error) {
	zr, err := zip.OpenReader(in)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	es := make([]*entry, 0, len(zr.File))
	for _, f := range zr.File {
		es = append(es, &entry{name: f.Name, raw: f})
	}
	st := w.weaveAll(es, func(e *entry) ([]byte, error) {
		r, err := e.raw.Open()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	})
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := map[string]bool{}
	for _, e := range es {
		seen[e.name] = true
	}
	for _, e := range es {
		if e.res == nil || e.res.Class == nil {
			if err := copyRaw(zw, e.raw); err != nil {
				return nil, fmt.Errorf("%s: %s: %v", in, e.name, err)
			}
			continue
		}
		if err := writeEntry(zw, e.name, e.res.Class, e.raw.Modified); err != nil {
			return nil, err
		}
		for _, name := range sortedKeys(e.res.Extra) {
			p := extraPath(e.name, e.res.Name, name)
			if seen[p] {
				st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s already exists: the sister class was not added", in, p))
				continue
			}
			seen[p] = true
			if err := writeEntry(zw, p, e.res.Extra[name], e.raw.Modified); err != nil {
				return nil, err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	return st, os.WriteFile(out, buf.Bytes(), 0o644)
}

func copyRaw(zw *zip.Writer, f *zip.File) error {
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	h := f.FileHeader
	w, err := zw.CreateRaw(&h)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return err
}

func writeEntry(zw *zip.Writer, name string, data []byte, mod time.Time) error {
	h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod}
	f, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return err
}

func (w *Weaver) weaveDir(in, out string) (*Stats, error) {
	var es []*entry
	err := filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(in, p)
		es = append(es, &entry{name: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	st := w.weaveAll(es, func(e *entry) ([]byte, error) {
		return os.ReadFile(filepath.Join(in, filepath.FromSlash(e.name)))
	})
	for _, e := range es {
		dst := filepath.Join(out, filepath.FromSlash(e.name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		data := e.data
		if e.res != nil && e.res.Class != nil {
			data = e.res.Class
			for _, name := range sortedKeys(e.res.Extra) {
				p := filepath.Join(out, filepath.FromSlash(extraPath(e.name, e.res.Name, name)))
				if err := os.WriteFile(p, e.res.Extra[name], 0o644); err != nil {
					return nil, err
				}
			}
		}
		if data == nil {
			var err error
			if data, err = os.ReadFile(filepath.Join(in, filepath.FromSlash(e.name))); err != nil {
				return nil, err
			}
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, err
		}
	}
	return st, nil
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}
