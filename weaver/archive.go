package weaver

import (
	"archive/zip"
	"bufio"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/weft-aop/weft/classfile"
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
	prep *Prepared     // woven, waiting for its join point ids
	base int32         // its first join point id
	done chan struct{} // closed when a woven entry is final
	err  error
	// packed holds the woven class and its extra classes, compressed by
	// the worker that wove them (jar outputs only).
	packed []packedEntry
}

// packedEntry is a deflated jar entry ready for zip.Writer.CreateRaw.
type packedEntry struct {
	header zip.FileHeader
	data   []byte
}

// pack makes data a jar entry named name. Woven classes are stored, not
// deflated: compressing them cost a quarter of the weaving time of a jar,
// and class loading reads stored entries directly. Everything copied from
// the input keeps its own compression.
// like is the input entry's header, whose times the new entry keeps.
func pack(name string, data []byte, like *zip.FileHeader) packedEntry {
	h := zip.FileHeader{Name: name, Method: zip.Store, Modified: like.Modified,
		ModifiedTime: like.ModifiedTime, ModifiedDate: like.ModifiedDate, Extra: like.Extra,
		CRC32: crc32.ChecksumIEEE(data), UncompressedSize64: uint64(len(data)), CompressedSize64: uint64(len(data))}
	return packedEntry{header: h, data: data}
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

// weaveAll weaves the class entries in parallel; then, if packIt, each
// worker also packs what it wove. If write is set, it is called for every
// entry in input order, as soon as the entry is final: writing overlaps the
// building of sister classes. It stops at write's first error, returned.
func (w *Weaver) weaveAll(es []*entry, read func(*entry) ([]byte, error), packIt bool, write func(*entry) error) (*Stats, error) {
	st := &Stats{}
	var classes []*entry
	for _, e := range es {
		if strings.HasSuffix(e.name, ".class") {
			classes = append(classes, e)
		}
	}
	parallel(classes, func(e *entry) {
		data, err := read(e)
		if err != nil {
			e.err = err
			return
		}
		e.prep, e.err = w.Prepare(e.name, data)
		if e.err == nil {
			e.res = e.prep.Result
		}
		if !packIt {
			e.data = data // a directory output writes it back
		}
	})
	// Number join points in input order, so the output is reproducible;
	// then build the sister classes in parallel.
	var woven []*entry
	for _, e := range classes {
		if e.prep == nil || e.prep.IDs() == 0 {
			e.prep = nil
			continue
		}
		e.base = w.ReserveIDs(e.prep.IDs())
		woven = append(woven, e)
	}
	for _, e := range woven {
		e.done = make(chan struct{})
	}
	finished := make(chan struct{})
	go func() {
		parallel(woven, func(e *entry) {
			defer close(e.done)
			err := w.FinishAt(e.prep, e.base)
			e.prep = nil
			if err != nil {
				e.err, e.res = err, nil // copied unwoven
				return
			}
			if packIt {
				like := &e.raw.FileHeader
				e.packed = append(e.packed, pack(e.name, e.res.Class, like))
				for _, name := range sortedKeys(e.res.Extra) {
					e.packed = append(e.packed, pack(extraPath(e.name, e.res.Name, name), e.res.Extra[name], like))
				}
			}
		})
		close(finished)
	}()
	var werr error
	for _, e := range es {
		if write == nil || werr != nil {
			break
		}
		if e.done != nil {
			<-e.done
		}
		werr = write(e)
	}
	<-finished
	n := 0
	for _, e := range classes {
		if e.err == nil && e.res != nil && e.res.Class != nil {
			n += len(e.res.Shadows)
		}
	}
	st.Shadows = make([]WeaveInfo, 0, n)
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
	return st, werr
}

// parallel calls f on each of es on all cores.
func parallel(es []*entry, f func(*entry)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(es) {
					return
				}
				f(es[k])
			}
		}()
	}
	wg.Wait()
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
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	// Write next to out and rename, so a failed run leaves no partial jar.
	f, err := os.CreateTemp(filepath.Dir(out), ".weft-*.jar")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	zw := zip.NewWriter(bw)
	seen := map[string]bool{}
	for _, e := range es {
		seen[e.name] = true
	}
	var warnings []string
	buf := make([]byte, 32<<10)
	st, err := w.weaveAll(es, func(e *entry) ([]byte, error) {
		return classfile.ReadZipEntry(in, e.raw)
	}, true, func(e *entry) error {
		if e.res == nil || e.res.Class == nil {
			if err := copyRaw(zw, e.raw, buf); err != nil {
				return fmt.Errorf("%s: %s: %v", in, e.name, err)
			}
			return nil
		}
		for k, p := range e.packed {
			if k > 0 && seen[p.header.Name] {
				warnings = append(warnings, fmt.Sprintf("%s: %s already exists: the sister class was not added", in, p.header.Name))
				continue
			}
			seen[p.header.Name] = true
			h := p.header
			f, err := zw.CreateRaw(&h)
			if err != nil {
				return err
			}
			if _, err := f.Write(p.data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	st.Warnings = append(st.Warnings, warnings...)
	if st.Woven > 0 {
		for _, e := range es {
			if u := strings.ToUpper(e.name); strings.HasPrefix(u, "META-INF/") &&
				(strings.HasSuffix(u, ".SF") || strings.HasSuffix(u, ".RSA") || strings.HasSuffix(u, ".DSA") || strings.HasSuffix(u, ".EC")) {
				st.Warnings = append(st.Warnings, fmt.Sprintf("%s: signed jar (%s): the woven classes no longer match its signatures; remove them or re-sign", in, e.name))
				break
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	os.Chmod(f.Name(), 0o644)
	return st, os.Rename(f.Name(), out)
}

// copyRaw copies f's compressed bytes as they are; buf is the copy buffer.
func copyRaw(zw *zip.Writer, f *zip.File, buf []byte) error {
	if strings.HasSuffix(f.Name, "/") {
		// A directory: its header only (zip refuses data, even the two
		// bytes of an empty deflate stream some tools write).
		h := f.FileHeader
		h.Method, h.CompressedSize64, h.UncompressedSize64, h.CRC32 = zip.Store, 0, 0, 0
		_, err := zw.CreateHeader(&h)
		return err
	}
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	h := f.FileHeader
	w, err := zw.CreateRaw(&h)
	if err != nil {
		return err
	}
	_, err = io.CopyBuffer(w, r, buf)
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
	st, _ := w.weaveAll(es, func(e *entry) ([]byte, error) {
		return os.ReadFile(filepath.Join(in, filepath.FromSlash(e.name)))
	}, false, nil)
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
