// Package jimage reads a JDK's modules image ($JAVA_HOME/lib/modules), the
// file in which the JDK ships the classes and resources of its modules.
//
// The format is OpenJDK's (libjimage/imageFile.hpp, jdk.internal.jimage):
//
//	header     7 × u4: magic 0xCAFEDADA, version (major<<16 | minor), flags,
//	           resource count, table length, locations size, strings size
//	redirect   table length × s4: perfect-hash redirection
//	offsets    table length × u4: offset of each location in locations
//	locations  attribute streams: (kind<<3 | len-1) byte, len value bytes,
//	           ..., 0 (module, parent, base, extension: string offsets;
//	           offset, compressed size, uncompressed size of the content)
//	strings    NUL-terminated modified UTF-8
//	content    resources, at header + tables + locations + strings
//
// Integers in the index are in the byte order of the machine that built the
// image; the magic number tells which. An entry's full name is
// "/module/parent/base.extension"; a class is, e.g., module "java.base",
// name "java/lang/String.class".
//
// An Image maps the file once and is safe for concurrent use.
package jimage

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/weft-aop/weft/internal/mmap"
)

// Magic is the first u4 of an image, in the image's byte order.
const Magic = 0xCAFEDADA

// Supported format version.
const (
	MajorVersion = 1
	MinorVersion = 0
)

const headerSize = 7 * 4

// Location attribute kinds.
const (
	attrEnd = iota
	attrModule
	attrParent
	attrBase
	attrExtension
	attrOffset
	attrCompressed
	attrUncompressed
	attrCount
)

// Header is the image header.
type Header struct {
	Magic         uint32
	Major, Minor  uint16
	Flags         uint32
	ResourceCount uint32
	TableLength   uint32
	LocationsSize uint32
	StringsSize   uint32
}

// Entry is one resource of the image.
type Entry struct {
	Module string // e.g. "java.base"; "" for the few entries outside modules
	Name   string // path inside the module, e.g. "java/lang/String.class"
	// Offset is where the content starts, relative to the end of the index.
	Offset uint64
	// CompressedSize is 0 for content stored uncompressed.
	CompressedSize   uint64
	UncompressedSize uint64
}

// Image is an open modules image.
type Image struct {
	path      string
	order     binary.ByteOrder
	header    Header
	indexSize uint64

	mu    sync.RWMutex // write-held by Close only
	data  []byte       // the whole file; nil after Close
	unmap func() error
	// mapped is set for an image opened from a file, mapped in data.
	// Resources are copied out of the mapping (a pread per resource
	// cost twice the CPU time: weaving the JDK reads every class once);
	// copied counts the bytes copied, and every releaseEvery of them the
	// mapping's pages are dropped from the process's resident set
	// (release), which they would otherwise grow by the whole image.
	mapped bool
	copied atomic.Int64
	redir  []byte
	offs   []byte
	locs   []byte
	strs   []byte
	closed bool

	entriesOnce sync.Once
	entries     []Entry
	entriesErr  error
	// Modules and Packages, from one scan of the index.
	classesOnce sync.Once
	modules     []string
	packages    map[string][]string
	classesErr  error
	// file identifies an image opened from a file, for entriesCache.
	file *fileID
}

// fileID identifies an image file's contents well enough to share its
// entry list: a run of weft opens the JDK's image several times (class
// sources, the weaving driver, single classes), and listing its 30,000-odd
// entries costs tens of milliseconds each time.
type fileID struct {
	path  string
	size  int64
	mtime int64
	ino   uint64
}

// entriesCache maps a fileID to the []Entry of that file (never modified).
var entriesCache sync.Map

// FormatError reports a malformed image: the file, the byte offset in it,
// and what was wrong.
type FormatError struct {
	Path   string
	Offset uint64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", e.Path, e.Offset, e.Msg)
}

// ErrUnsupportedCompression is returned (wrapped) when a resource is
// compressed with a decompressor this package does not implement (the
// "compact-cp" string-sharing plugin of jlink --compress=1).
var ErrUnsupportedCompression = errors.New("unsupported jimage compression")

// Open maps the image file at path and validates its index.
func Open(path string) (*Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.Size() < headerSize {
		f.Close()
		return nil, &FormatError{path, 0, fmt.Sprintf("file of %d bytes is too small for an image", st.Size())}
	}
	data, unmap, err := mmap.File(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Close() // the mapping stays
	img, err := newImage(path, data)
	if err != nil {
		unmap()
		return nil, err
	}
	img.unmap, img.mapped = unmap, true
	img.file = &fileID{path: path, size: st.Size(), mtime: st.ModTime().UnixNano(), ino: inode(st)}
	return img, nil
}

// NewImage reads an image held in memory; name labels errors. The image
// keeps data: callers must not modify it.
func NewImage(name string, data []byte) (*Image, error) {
	return newImage(name, data)
}

func newImage(path string, data []byte) (*Image, error) {
	fail := func(off uint64, format string, args ...any) (*Image, error) {
		return nil, &FormatError{path, off, fmt.Sprintf(format, args...)}
	}
	if len(data) < headerSize {
		return fail(0, "file of %d bytes is too small for an image", len(data))
	}
	var order binary.ByteOrder
	switch {
	case binary.LittleEndian.Uint32(data) == Magic:
		order = binary.LittleEndian
	case binary.BigEndian.Uint32(data) == Magic:
		order = binary.BigEndian
	default:
		return fail(0, "bad magic number %#x: not a jimage file", binary.BigEndian.Uint32(data))
	}
	u4 := func(i int) uint32 { return order.Uint32(data[4*i:]) }
	h := Header{
		Magic:         u4(0),
		Major:         uint16(u4(1) >> 16),
		Minor:         uint16(u4(1)),
		Flags:         u4(2),
		ResourceCount: u4(3),
		TableLength:   u4(4),
		LocationsSize: u4(5),
		StringsSize:   u4(6),
	}
	if h.Major != MajorVersion || h.Minor != MinorVersion {
		return fail(4, "unsupported image version %d.%d", h.Major, h.Minor)
	}
	tables := uint64(h.TableLength) * 4
	index := headerSize + 2*tables + uint64(h.LocationsSize) + uint64(h.StringsSize)
	if index > uint64(len(data)) {
		return fail(16, "index of %d bytes (table length %d, locations %d, strings %d) exceeds the file size %d",
			index, h.TableLength, h.LocationsSize, h.StringsSize, len(data))
	}
	img := &Image{path: path, order: order, header: h, indexSize: index, data: data}
	at := uint64(headerSize)
	img.redir = data[at : at+tables]
	at += tables
	img.offs = data[at : at+tables]
	at += tables
	img.locs = data[at : at+uint64(h.LocationsSize)]
	at += uint64(h.LocationsSize)
	img.strs = data[at : at+uint64(h.StringsSize)]
	// The strings section starts with the empty string, offset 0, that
	// absent attributes refer to.
	if h.StringsSize > 0 && img.strs[0] != 0 {
		return fail(at, "strings section does not start with the empty string")
	}
	return img, nil
}

// Path returns the file the image was opened from.
func (img *Image) Path() string { return img.path }

// Header returns the image header.
func (img *Image) Header() Header { return img.header }

// ByteOrder returns the byte order of the image's index.
func (img *Image) ByteOrder() binary.ByteOrder { return img.order }

// Close unmaps and closes the file. Entries returned before stay valid; reads after
// Close fail.
func (img *Image) Close() error {
	img.mu.Lock()
	defer img.mu.Unlock()
	if img.closed {
		return nil
	}
	img.closed = true
	img.data, img.redir, img.offs, img.locs, img.strs = nil, nil, nil, nil, nil
	var err error
	if img.unmap != nil {
		err = img.unmap()
	}
	return err
}

var errClosed = errors.New("jimage: image is closed")

// location is a decoded attribute stream.
type location [attrCount]uint64

// location decodes the attribute stream at off in the locations section.
func (img *Image) location(off uint32) (location, error) {
	var loc location
	p := uint64(off)
	base := uint64(img.locsStart())
	if p >= uint64(len(img.locs)) {
		return loc, &FormatError{img.path, base + p, fmt.Sprintf("location offset %d is outside the %d-byte locations section", off, len(img.locs))}
	}
	for {
		if p >= uint64(len(img.locs)) {
			return loc, &FormatError{img.path, base + p, "location attributes run past the locations section"}
		}
		b := img.locs[p]
		kind := b >> 3
		if kind == attrEnd {
			return loc, nil
		}
		if kind >= attrCount {
			return loc, &FormatError{img.path, base + p, fmt.Sprintf("invalid location attribute kind %d", kind)}
		}
		n := uint64(b&7) + 1
		p++
		if p+n > uint64(len(img.locs)) {
			return loc, &FormatError{img.path, base + p, "location attribute value runs past the locations section"}
		}
		var v uint64
		for _, c := range img.locs[p : p+n] {
			v = v<<8 | uint64(c)
		}
		loc[kind] = v
		p += n
	}
}

func (img *Image) locsStart() uint64 { return headerSize + 2*uint64(img.header.TableLength)*4 }

func (img *Image) stringsStart() uint64 {
	return img.locsStart() + uint64(img.header.LocationsSize)
}

// str returns the NUL-terminated string at off in the strings section.
func (img *Image) str(off uint64) (string, error) {
	if off >= uint64(len(img.strs)) {
		return "", &FormatError{img.path, img.stringsStart(), fmt.Sprintf("string offset %d is outside the %d-byte strings section", off, len(img.strs))}
	}
	end := bytes.IndexByte(img.strs[off:], 0)
	if end < 0 {
		return "", &FormatError{img.path, img.stringsStart() + off, "string is not NUL-terminated"}
	}
	return string(img.strs[off : off+uint64(end)]), nil
}

// entry turns a decoded location into an Entry.
func (img *Image) entry(loc location) (Entry, error) {
	var parts [4]string
	for i, kind := range []int{attrModule, attrParent, attrBase, attrExtension} {
		s, err := img.str(loc[kind])
		if err != nil {
			return Entry{}, err
		}
		parts[i] = s
	}
	name := parts[2]
	if parts[1] != "" {
		name = parts[1] + "/" + name
	}
	if parts[3] != "" {
		name += "." + parts[3]
	}
	return Entry{
		Module:           parts[0],
		Name:             name,
		Offset:           loc[attrOffset],
		CompressedSize:   loc[attrCompressed],
		UncompressedSize: loc[attrUncompressed],
	}, nil
}

// listEntry is entry for listing every entry: the strings that repeat
// (module, parent, extension) are shared through shared, keyed by their
// offset, and the name is built in buf with one allocation.
func (img *Image) listEntry(loc location, shared map[uint64]string, buf *[]byte) (Entry, error) {
	str := func(kind int) (string, error) {
		off := loc[kind]
		if s, ok := shared[off]; ok {
			return s, nil
		}
		s, err := img.str(off)
		if err == nil {
			shared[off] = s
		}
		return s, err
	}
	module, err1 := str(attrModule)
	parent, err2 := str(attrParent)
	ext, err3 := str(attrExtension)
	off := loc[attrBase]
	end := -1
	if off < uint64(len(img.strs)) {
		end = bytes.IndexByte(img.strs[off:], 0)
	}
	if err1 != nil || err2 != nil || err3 != nil || end < 0 {
		return img.entry(loc) // entry's error, in its order
	}
	b := (*buf)[:0]
	if parent != "" {
		b = append(append(b, parent...), '/')
	}
	b = append(b, img.strs[off:off+uint64(end)]...)
	if ext != "" {
		b = append(append(b, '.'), ext...)
	}
	*buf = b
	return Entry{
		Module:           module,
		Name:             string(b),
		Offset:           loc[attrOffset],
		CompressedSize:   loc[attrCompressed],
		UncompressedSize: loc[attrUncompressed],
	}, nil
}

// Entries returns every resource of the image, sorted by module and name.
// The image's own directory entries (modules "modules" and "packages",
// which jrtfs uses to list packages) are included.
func (img *Image) Entries() ([]Entry, error) {
	img.entriesOnce.Do(func() {
		img.mu.RLock()
		defer img.mu.RUnlock()
		if img.closed {
			img.entriesErr = errClosed
			return
		}
		if img.file != nil {
			if es, ok := entriesCache.Load(*img.file); ok {
				img.entries = es.([]Entry)
				return
			}
		}
		n := int(img.header.TableLength)
		es := make([]Entry, 0, n)
		// Module, package and extension strings repeat: one string each.
		shared := map[uint64]string{}
		var buf []byte
		for i := 0; i < n; i++ {
			off := img.order.Uint32(img.offs[4*i:])
			loc, err := img.location(off)
			if err != nil {
				img.entriesErr = err
				return
			}
			e, err := img.listEntry(loc, shared, &buf)
			if err != nil {
				img.entriesErr = err
				return
			}
			es = append(es, e)
		}
		slices.SortFunc(es, func(a, b Entry) int {
			if c := strings.Compare(a.Module, b.Module); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
		img.entries = es
		if img.file != nil {
			entriesCache.Store(*img.file, es)
		}
	})
	return img.entries, img.entriesErr
}

// Walk calls fn for every entry in the order of Entries, stopping at the
// first error fn returns.
func (img *Image) Walk(fn func(Entry) error) error {
	es, err := img.Entries()
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// Modules returns the names of the image's modules (those with a
// module-info.class), sorted.
func (img *Image) Modules() []string {
	ms, _, _ := img.classIndex()
	return ms
}

// Packages returns the packages that hold classes (*.class entries), by
// internal name ("java/lang"; "." for classes outside any package), each
// with the modules holding classes there, sorted. Unlike Entries, it
// builds no string per entry and sorts nothing but the modules of each
// package: a tenth of the cost, for readers that only find classes by
// name. Callers must not modify the map.
func (img *Image) Packages() (map[string][]string, error) {
	_, pkgs, err := img.classIndex()
	return pkgs, err
}

// classIndex returns Modules and Packages, from one scan of the index on
// first use.
func (img *Image) classIndex() ([]string, map[string][]string, error) {
	img.classesOnce.Do(func() {
		img.mu.RLock()
		defer img.mu.RUnlock()
		if img.closed {
			img.classesErr = errClosed
			return
		}
		img.modules, img.packages, img.classesErr = img.scanClasses()
	})
	return img.modules, img.packages, img.classesErr
}

// scanClasses reads the modules and packages of the classes from the
// index's locations, in table order.
func (img *Image) scanClasses() ([]string, map[string][]string, error) {
	// Module and parent string offsets, each pair once.
	pairs := map[uint64]bool{}
	var mods []uint64
	var classExt uint64 // the offset of "class", once seen
	for i := 0; i < int(img.header.TableLength); i++ {
		loc, err := img.location(img.order.Uint32(img.offs[4*i:]))
		if err != nil {
			return nil, nil, err
		}
		ext := loc[attrExtension]
		if ext == 0 || ext != classExt && !img.strIs(ext, "class") {
			continue
		}
		classExt = ext
		pairs[loc[attrModule]<<32|loc[attrParent]] = true
		if loc[attrModule] != 0 && loc[attrParent] == 0 && img.strIs(loc[attrBase], "module-info") {
			mods = append(mods, loc[attrModule])
		}
	}
	pkgs := map[string][]string{}
	for k := range pairs {
		module, err1 := img.str(k >> 32)
		pkg, err2 := img.str(k & 0xFFFFFFFF)
		if err := errors.Join(err1, err2); err != nil {
			return nil, nil, err
		}
		if pkg == "" {
			pkg = "."
		}
		pkgs[pkg] = append(pkgs[pkg], module)
	}
	for _, ms := range pkgs {
		slices.Sort(ms)
	}
	var modules []string
	for _, off := range mods {
		m, err := img.str(off)
		if err != nil {
			return nil, nil, err
		}
		if m != "" {
			modules = append(modules, m)
		}
	}
	slices.Sort(modules)
	return slices.Compact(modules), pkgs, nil
}

// strIs reports whether the string at off in the strings section is s,
// without allocating it.
func (img *Image) strIs(off uint64, s string) bool {
	end := off + uint64(len(s))
	return end < uint64(len(img.strs)) && img.strs[end] == 0 && string(img.strs[off:end]) == s
}

// hashSeed is ImageStringsReader.HASH_MULTIPLIER, the FNV-1 prime, also
// the default seed.
const hashSeed = 0x01000193

// hash continues the image's name hash over s. Names are hashed as their
// modified UTF-8 bytes, which equal Go's UTF-8 for the names images hold
// (no NUL, no supplementary characters).
func hash(seed uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		seed = seed*hashSeed ^ uint32(s[i])
	}
	return seed
}

// nameHash is ImageStringsReader.hashCode(module, name, seed): the hash of
// "/module/name", or of name alone for entries outside modules.
func nameHash(seed uint32, module, name string) uint32 {
	if module == "" {
		return hash(seed, name) & 0x7FFFFFFF
	}
	seed = hash(seed, "/")
	seed = hash(seed, module)
	seed = hash(seed, "/")
	seed = hash(seed, name)
	return seed & 0x7FFFFFFF
}

// Find looks up the entry module/name by the image's perfect hash.
// The error wraps fs.ErrNotExist if there is no such entry.
func (img *Image) Find(module, name string) (Entry, error) {
	img.mu.RLock()
	defer img.mu.RUnlock()
	return img.find(module, name)
}

func (img *Image) find(module, name string) (Entry, error) {
	if img.closed {
		return Entry{}, errClosed
	}
	notFound := func() (Entry, error) {
		return Entry{}, fmt.Errorf("%s: /%s/%s: %w", img.path, module, name, fs.ErrNotExist)
	}
	n := img.header.TableLength
	if n == 0 {
		return notFound()
	}
	i := nameHash(hashSeed, module, name) % n
	r := int32(img.order.Uint32(img.redir[4*i:]))
	switch {
	case r < 0:
		i = uint32(-1 - r)
		if i >= n {
			return Entry{}, &FormatError{img.path, headerSize, fmt.Sprintf("redirect to index %d beyond table length %d", i, n)}
		}
	case r > 0:
		i = nameHash(uint32(r), module, name) % n
	default:
		return notFound()
	}
	loc, err := img.location(img.order.Uint32(img.offs[4*i:]))
	if err != nil {
		return Entry{}, err
	}
	e, err := img.entry(loc)
	if err != nil {
		return Entry{}, err
	}
	if e.Module != module || e.Name != name {
		return notFound()
	}
	return e, nil
}

// Read returns the (decompressed) content of module/name in a new slice.
// The error wraps fs.ErrNotExist if there is no such entry.
func (img *Image) Read(module, name string) ([]byte, error) {
	img.mu.RLock()
	defer img.mu.RUnlock()
	e, err := img.find(module, name)
	if err != nil {
		return nil, err
	}
	return img.read(e)
}

// ReadEntry returns the (decompressed) content of an entry from Entries.
func (img *Image) ReadEntry(e Entry) ([]byte, error) {
	img.mu.RLock()
	defer img.mu.RUnlock()
	if img.closed {
		return nil, errClosed
	}
	return img.read(e)
}

func (img *Image) read(e Entry) ([]byte, error) {
	size := e.UncompressedSize
	if e.CompressedSize != 0 {
		size = e.CompressedSize
	}
	start := img.indexSize + e.Offset
	if e.Offset > uint64(len(img.data)) || start > uint64(len(img.data)) || size > uint64(len(img.data))-start {
		return nil, &FormatError{img.path, start, fmt.Sprintf("/%s/%s: content of %d bytes at %d exceeds the file size %d",
			e.Module, e.Name, size, start, len(img.data))}
	}
	b := bytes.Clone(img.data[start : start+size])
	if img.mapped {
		if n := img.copied.Add(int64(size)); n/releaseEvery != (n-int64(size))/releaseEvery {
			// Pages other readers are copying from fault in again.
			release(img.data, img.indexSize)
		}
	}
	if e.CompressedSize == 0 {
		return b, nil
	}
	b, err := img.decompress(b, e.UncompressedSize)
	if err != nil {
		return nil, fmt.Errorf("%s: /%s/%s (content at %d): %w", img.path, e.Module, e.Name, start, err)
	}
	return b, nil
}

// releaseEvery is how many bytes copied out of a mapped image release
// its pages.
const releaseEvery = 16 << 20

// Compressed resources start with one or more 29-byte headers (magic
// 0xCAFEFAFA, compressed u8, uncompressed u8, decompressor name u4, u4
// unused, terminal u1), each wrapping the output of the next plugin.
const (
	compressedMagic      = 0xCAFEFAFA
	compressedHeaderSize = 29
	maxResource          = 1 << 31 // as Java's byte arrays
)

func (img *Image) decompress(b []byte, want uint64) ([]byte, error) {
	for len(b) >= compressedHeaderSize && img.order.Uint32(b) == compressedMagic {
		compressed := img.order.Uint64(b[4:])
		uncompressed := img.order.Uint64(b[12:])
		plugin, err := img.str(uint64(img.order.Uint32(b[20:])))
		if err != nil {
			return nil, err
		}
		if compressed != uint64(len(b)-compressedHeaderSize) {
			return nil, fmt.Errorf("compressed header says %d bytes, resource has %d", compressed, len(b)-compressedHeaderSize)
		}
		if uncompressed > want || want > maxResource {
			return nil, fmt.Errorf("compressed header says %d uncompressed bytes, location says %d", uncompressed, want)
		}
		switch plugin {
		case "zip":
			b, err = inflate(b[compressedHeaderSize:], uncompressed)
			if err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%w: decompressor %q", ErrUnsupportedCompression, plugin)
		}
	}
	if uint64(len(b)) != want {
		return nil, fmt.Errorf("decompressed to %d bytes, location says %d", len(b), want)
	}
	return b, nil
}

// inflate undoes the "zip" plugin: a zlib stream (java.util.zip.Deflater).
func inflate(in []byte, size uint64) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(in))
	if err != nil {
		return nil, fmt.Errorf("zip decompressor: %w", err)
	}
	// size is checked against the location, itself unchecked: grow from
	// a bounded start and read at most size+1 bytes.
	buf := bytes.NewBuffer(make([]byte, 0, min(size, 1<<20)))
	if _, err := io.Copy(buf, io.LimitReader(zr, int64(size)+1)); err != nil {
		return nil, fmt.Errorf("zip decompressor: %w", err)
	}
	if uint64(buf.Len()) != size {
		return nil, fmt.Errorf("zip decompressor: got %d bytes, want %d", buf.Len(), size)
	}
	return buf.Bytes(), nil
}
