package classpath

import (
	"archive/zip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classfile/jimage"
	"github.com/weft-aop/weft/internal/inflate"
	"github.com/weft-aop/weft/internal/javahome"
)

// Source supplies class files: a directory, a jar, or (part of) a JDK's
// modules image. Implementations are safe for concurrent use.
type Source interface {
	// Class returns the bytes of the class with the given internal name
	// (e.g. "java/lang/String"), in a slice the caller owns. The error
	// wraps classfile.ErrClassNotFound if the source has no such class.
	Class(name string) ([]byte, error)
	// Walk calls fn for every class file of the source in a fixed order,
	// stopping at the first error fn returns.
	Walk(fn func(ClassEntry) error) error
	// String describes the source for messages, as its spec.
	String() string
	io.Closer
}

// ClassEntry is one class file of a Source.
type ClassEntry struct {
	// Module is the module of a class in a modules image, "" elsewhere.
	Module string
	// Path is the file's path in the source (in its module for an
	// image), e.g. "java/lang/String.class" or
	// "META-INF/versions/11/a/B.class".
	Path string
	read func() ([]byte, error)
}

// Read returns the class file's bytes in a slice the caller owns. It may
// be called from any goroutine.
func (e ClassEntry) Read() ([]byte, error) { return e.read() }

// NewClassEntry returns an entry whose bytes come from read, for Source
// implementations outside this package.
func NewClassEntry(module, path string, read func() ([]byte, error)) ClassEntry {
	return ClassEntry{Module: module, Path: path, read: read}
}

// OpenSource opens a class source from its command-line spec:
//
//	DIR             a directory tree of class files
//	FILE.jar        a jar (or zip) file
//	FILE.class      a single class file
//	jdk:            every module of the JDK at javaHome
//	jdk:M1,M2       the named modules of that JDK
//
// javaHome "" means DefaultJavaHome().
func OpenSource(spec, javaHome string) (Source, error) {
	if mods, ok := strings.CutPrefix(spec, "jdk:"); ok {
		if javaHome == "" {
			h, err := DefaultJavaHome()
			if err != nil {
				return nil, err
			}
			javaHome = h
		}
		var only []string
		if mods != "" {
			only = strings.Split(mods, ",")
		}
		return OpenJDK(javaHome, only...)
	}
	st, err := os.Stat(spec)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return NewDirSource(spec), nil
	}
	if strings.HasSuffix(spec, ".class") {
		return OpenClassFile(spec)
	}
	return OpenJar(spec)
}

// DefaultJavaHome returns the JDK to use when none is named: the home of
// the java on PATH (symlinks resolved, so /usr/bin/java finds
// /usr/lib/jvm/...) if it has a modules image, or else $JAVA_HOME. Every
// command defaults to it; a --java-home flag overrides it.
func DefaultJavaHome() (string, error) { return javahome.Default() }

// JavaHomeOf returns the home of the JDK whose java launcher is at java
// (symlinks resolved); it must have a modules image.
func JavaHomeOf(java string) (string, error) { return javahome.Of(java) }

// OpenClassPath opens the entries of a class path, directories and jars
// separated by filepath.ListSeparator as java's -cp, in order (empty
// entries are skipped; each is opened by OpenSource with javaHome). On
// error the sources opened so far are closed. It is the one opener of the
// class paths the commands take (inputs, --cp, --advice-cp).
func OpenClassPath(cp, javaHome string) ([]Source, error) {
	var out []Source
	for _, spec := range filepath.SplitList(cp) {
		if spec == "" {
			continue
		}
		s, err := OpenSource(spec, javaHome)
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func notFound(src Source, name string) error {
	return fmt.Errorf("%s: %s: %w", src, name, classfile.ErrClassNotFound)
}

// DirSource is a directory tree of class files, laid out by package.
type DirSource struct{ root string }

// NewDirSource returns the source for the directory root.
func NewDirSource(root string) *DirSource { return &DirSource{root: root} }

func (d *DirSource) String() string { return d.root }
func (d *DirSource) Close() error   { return nil }

// Class reads root/name.class.
func (d *DirSource) Class(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, notFound(d, name)
	}
	b, err := os.ReadFile(filepath.Join(d.root, filepath.FromSlash(name)+".class"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(d, name)
	}
	return b, err
}

// Walk visits the *.class files under root in lexical order.
func (d *DirSource) Walk(fn func(ClassEntry) error) error {
	return filepath.WalkDir(d.root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() || !strings.HasSuffix(p, ".class") {
			return nil
		}
		rel, err := filepath.Rel(d.root, p)
		if err != nil {
			return err
		}
		return fn(ClassEntry{Path: filepath.ToSlash(rel), read: func() ([]byte, error) { return os.ReadFile(p) }})
	})
}

// JarSource is a jar or zip file.
type JarSource struct {
	path  string
	zr    *zip.ReadCloser
	files map[string]*zip.File
}

// OpenJar opens a jar file.
func OpenJar(path string) (*JarSource, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	j := &JarSource{path: path, zr: zr, files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		if _, dup := j.files[f.Name]; !dup { // the first of duplicate names wins, as in java
			j.files[f.Name] = f
		}
	}
	return j, nil
}

func (j *JarSource) String() string { return j.path }
func (j *JarSource) Close() error   { return j.zr.Close() }

// Class reads name.class from the jar's root (versioned entries of a
// multi-release jar are not consulted).
func (j *JarSource) Class(name string) ([]byte, error) {
	f := j.files[name+".class"]
	if f == nil {
		return nil, notFound(j, name)
	}
	return ReadZipEntry(j.path, f)
}

// Walk visits the jar's *.class entries in archive order.
func (j *JarSource) Walk(fn func(ClassEntry) error) error {
	for _, f := range j.zr.File {
		if !strings.HasSuffix(f.Name, ".class") || f.FileInfo().IsDir() {
			continue
		}
		f := f
		if err := fn(ClassEntry{Path: f.Name, read: func() ([]byte, error) { return ReadZipEntry(j.path, f) }}); err != nil {
			return err
		}
	}
	return nil
}

// ClassFileSource is a single class file, found under its class name
// wherever it is stored.
type ClassFileSource struct {
	path string
	name string // the class's internal name
}

// OpenClassFile reads the name of the class in the file at path.
func OpenClassFile(path string) (*ClassFileSource, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	info, err := classfile.ReadClassInfo(path, b)
	if err != nil {
		return nil, err
	}
	return &ClassFileSource{path: path, name: info.Name}, nil
}

func (s *ClassFileSource) String() string { return s.path }
func (s *ClassFileSource) Close() error   { return nil }

// Class reads the file if name is its class.
func (s *ClassFileSource) Class(name string) ([]byte, error) {
	if name != s.name {
		return nil, notFound(s, name)
	}
	return os.ReadFile(s.path)
}

// Walk visits the class, as if stored at its name's path.
func (s *ClassFileSource) Walk(fn func(ClassEntry) error) error {
	return fn(ClassEntry{Path: s.name + ".class", read: func() ([]byte, error) { return os.ReadFile(s.path) }})
}

// maxClassSize bounds what is read for one class file from a jar, whose
// header's size is untrusted. Real class files stay far below it (the
// largest of the JDK 17 image is under 300 KB); readers run in parallel, so a larger
// bound would let a forged jar claim gigabytes per core.
const maxClassSize = 64 << 20

// ReadZipEntry reads one entry of the jar (named jar in errors). Entries
// over maxClassSize are refused; the header's size is otherwise only a
// hint, so a forged one cannot make it allocate more than it reads.
// zip.File readers work concurrently.
func ReadZipEntry(jar string, f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxClassSize {
		return nil, fmt.Errorf("%s: %s: entry of %d bytes is too large", jar, f.Name, f.UncompressedSize64)
	}
	if b, ok := inflateEntry(f); ok {
		return b, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", jar, f.Name, err)
	}
	defer rc.Close()
	// The header's size is a hint (archive/zip checks it at the end):
	// start from at most 1 MB.
	b := make([]byte, 0, min(f.UncompressedSize64, 1<<20))
	b, err = readAllInto(b, rc)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", jar, f.Name, err)
	}
	return b, nil
}

// inflateEntry reads a deflated entry of up to 1 MB with package inflate
// (what most jar entries are: class files): its compressed bytes at once,
// inflated into a slice of the size the zip directory gives and checked
// against the directory's CRC-32. It says false for any other entry, and
// for any error: f.Open then reads the entry and reports the error as it
// sees it, the same as before this fast path.
func inflateEntry(f *zip.File) ([]byte, bool) {
	const limit = 1 << 20
	if f.Method != zip.Deflate || f.Flags&0x8 != 0 || f.CRC32 == 0 || f.UncompressedSize64 > limit || f.CompressedSize64 > limit {
		return nil, false // not deflated, a data descriptor, no checksum, or large
	}
	r, err := f.OpenRaw()
	if err != nil {
		return nil, false
	}
	src := rawBufs.Get().(*[]byte)
	defer rawBufs.Put(src)
	*src = slices.Grow((*src)[:0], int(f.CompressedSize64))[:f.CompressedSize64]
	if _, err := io.ReadFull(r, *src); err != nil {
		return nil, false
	}
	b := make([]byte, f.UncompressedSize64)
	if inflate.Decode(b, *src) != nil || crc32.ChecksumIEEE(b) != f.CRC32 {
		return nil, false
	}
	return b, true
}

// rawBufs holds buffers for compressed entries (*[]byte).
var rawBufs = sync.Pool{New: func() any { return new([]byte) }}

func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// ImageSource is (part of) a JDK's modules image.
type ImageSource struct {
	home    string
	img     *jimage.Image
	modules []string            // selected modules, sorted
	pkgs    map[string][]string // package → the selected modules holding it
	all     map[string][]string // package → every module holding it
	spec    string
	view    bool // made by Only: the image is its owner's to close
}

// OpenJDK opens the modules image of the JDK at javaHome; with modules
// given, only those modules are visible.
func OpenJDK(javaHome string, modules ...string) (*ImageSource, error) {
	img, err := jimage.Open(filepath.Join(javaHome, "lib", "modules"))
	if err != nil {
		return nil, err
	}
	s, err := newImageSource(img, modules)
	if err != nil {
		img.Close()
		return nil, err
	}
	s.home = javaHome
	return s, nil
}

// Only returns a view of the same image in which only modules are
// visible: a command opens the JDK once and each stage takes the modules
// it needs. Closing the view leaves the image open; it is s's owner's to
// close.
func (s *ImageSource) Only(modules ...string) (*ImageSource, error) {
	v, err := newImageSource(s.img, modules)
	if err != nil {
		return nil, err
	}
	v.home, v.view = s.home, true
	return v, nil
}

func newImageSource(img *jimage.Image, only []string) (*ImageSource, error) {
	all := img.Modules()
	s := &ImageSource{img: img, pkgs: map[string][]string{}, spec: "jdk:" + strings.Join(only, ",")}
	if only == nil {
		s.modules = all
	} else {
		for _, m := range only {
			if i := sort.SearchStrings(all, m); i == len(all) || all[i] != m {
				return nil, fmt.Errorf("%s: no module %q (the image has %s)", img.Path(), m, strings.Join(all, ", "))
			}
		}
		s.modules = append([]string(nil), only...)
		sort.Strings(s.modules)
	}
	// The packages, not every entry: Walk lists those if it is called.
	pkgs, err := img.Packages()
	if err != nil {
		return nil, err
	}
	s.all = pkgs
	for pkg, ms := range pkgs {
		for _, m := range ms {
			if s.has(m) {
				s.pkgs[pkg] = append(s.pkgs[pkg], m)
			}
		}
	}
	return s, nil
}

// HasPackage reports whether a module of the image, selected or not,
// holds package pkg (internal form, "java/util").
func (s *ImageSource) HasPackage(pkg string) bool { return len(s.all[pkg]) > 0 }

func (s *ImageSource) has(module string) bool {
	i := sort.SearchStrings(s.modules, module)
	return i < len(s.modules) && s.modules[i] == module
}

func (s *ImageSource) String() string { return s.spec }
func (s *ImageSource) Close() error {
	if s.view {
		return nil
	}
	return s.img.Close()
}

// JavaHome returns the JDK's home ("" for an image opened otherwise).
func (s *ImageSource) JavaHome() string { return s.home }

// Modules returns the visible modules, sorted.
func (s *ImageSource) Modules() []string { return s.modules }

// Image returns the underlying image.
func (s *ImageSource) Image() *jimage.Image { return s.img }

// Exports returns the packages (internal names, e.g. "java/util") that
// module exports to every module, as its module-info says.
func (s *ImageSource) Exports(module string) ([]string, error) {
	b, err := s.img.Read(module, "module-info.class")
	if err != nil {
		return nil, fmt.Errorf("%s: module %s: %w", s.img.Path(), module, err)
	}
	c, err := classfile.Parse(module+"/module-info.class", b)
	if err != nil {
		return nil, err
	}
	a := c.Attr(c.Attributes, "Module")
	if a == nil {
		return nil, fmt.Errorf("%s: %s/module-info.class has no Module attribute", s.img.Path(), module)
	}
	v, err := classfile.DecodeAttr(c, a)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for _, e := range v.(*classfile.Module).Exports {
		if len(e.To) == 0 {
			pkgs = append(pkgs, c.Pool.Utf8(c.Pool.Get(e.Package).A))
		}
	}
	return pkgs, nil
}

// Class finds the module of name's package and reads the class there.
func (s *ImageSource) Class(name string) ([]byte, error) {
	for _, m := range s.pkgs[path.Dir(name)] {
		b, err := s.img.Read(m, name+".class")
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return b, err
	}
	return nil, notFound(s, name)
}

// Walk visits the classes of the visible modules, by module and path.
func (s *ImageSource) Walk(fn func(ClassEntry) error) error {
	return s.img.Walk(func(e jimage.Entry) error {
		if !s.has(e.Module) || !strings.HasSuffix(e.Name, ".class") {
			return nil
		}
		return fn(ClassEntry{Module: e.Module, Path: e.Name, read: func() ([]byte, error) { return s.img.ReadEntry(e) }})
	})
}

// SourceHierarchy is a classfile.Hierarchy over a list of sources: a class is looked
// up in each source in turn, the first that has it wins (as on a class
// path). Only class headers are read, and cached.
type SourceHierarchy struct {
	sources []Source
	cache   sync.Map // internal name → *hierarchyEntry
}

type hierarchyEntry struct {
	info *classfile.ClassInfo
	err  error
}

// NewHierarchy returns a classfile.Hierarchy over sources, in lookup order.
func NewHierarchy(sources ...Source) *SourceHierarchy {
	return &SourceHierarchy{sources: sources}
}

// Lookup implements classfile.Hierarchy.
func (h *SourceHierarchy) Lookup(name string) (*classfile.ClassInfo, error) {
	if e, ok := h.cache.Load(name); ok {
		e := e.(*hierarchyEntry)
		return e.info, e.err
	}
	e := &hierarchyEntry{err: fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)}
	for _, src := range h.sources {
		b, err := src.Class(name)
		if errors.Is(err, classfile.ErrClassNotFound) {
			continue
		}
		if err == nil {
			e.info, e.err = classfile.ReadClassInfo(src.String()+": "+name, b)
		} else {
			e.err = err
		}
		break
	}
	// Concurrent first lookups may both read; either result is the same.
	actual, _ := h.cache.LoadOrStore(name, e)
	e = actual.(*hierarchyEntry)
	return e.info, e.err
}
