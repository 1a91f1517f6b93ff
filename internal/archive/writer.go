package archive

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Writer writes an output: a jar, or files in a directory tree.
//
// A jar is written to a temporary file next to it, renamed over it by
// Close: a failed run leaves no partial jar (nor a jar half old, half
// new). Its entries are added by one goroutine at a time, in the order
// they should appear.
//
// Files of a directory are written in place as they come; Add may then be
// called from many goroutines at once.
//
// Errors name the output as the caller named it, never the temporary
// file.
type Writer struct {
	path string // the output, as named by the caller
	kind Kind   // Jar or Dir

	// A jar's temporary file and writers.
	tmp *os.File
	bw  *bufio.Writer
	zw  *zip.Writer
	buf []byte // copy buffer for raw entries
	// names holds the jar's entry names, to add no extra class over one.
	names map[string]bool

	dirs sync.Map // directories created, of a directory output
	// whole: each file is written to a temporary file and renamed (a
	// single class file output: a handful of files).
	whole bool
}

// CreateJar starts the jar path, creating its directory.
func CreateJar(path string) (*Writer, error) {
	w := &Writer{path: path, kind: Jar}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("writing %s: is a directory, not a jar", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, w.errorf("", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".weft-*.jar")
	if err != nil {
		return nil, w.errorf("", err)
	}
	w.tmp = f
	w.bw = bufio.NewWriterSize(f, 1<<20)
	w.zw = zip.NewWriter(w.bw)
	return w, nil
}

// CreateDir starts the directory tree path, creating it.
func CreateDir(path string) (*Writer, error) {
	w := &Writer{path: path, kind: Dir}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, w.errorf("", err)
	}
	return w, nil
}

// Add writes data as the entry name: a jar entry stored uncompressed, or
// a file of the directory tree.
func (w *Writer) Add(name string, data []byte) error {
	if w.kind == Jar {
		return w.addPacked(pack(name, data, zip.Store, nil))
	}
	return w.writeFile(name, data)
}

// SetComment sets a jar's comment (a directory has none).
func (w *Writer) SetComment(c string) {
	if w.kind == Jar {
		w.zw.SetComment(c)
	}
}

// addPacked writes a jar entry packed by pack.
func (w *Writer) addPacked(p packed) error {
	h := p.header
	f, err := w.zw.CreateRaw(&h)
	if err == nil {
		_, err = f.Write(p.data)
	}
	if err != nil {
		return w.errorf(p.header.Name, err)
	}
	return nil
}

// copyRaw copies a jar input's entry as it is, still compressed.
func (w *Writer) copyRaw(f *zip.File) error {
	if err := copyRaw(w.zw, f, &w.buf); err != nil {
		return w.errorf(f.Name, err)
	}
	return nil
}

func copyRaw(zw *zip.Writer, f *zip.File, buf *[]byte) error {
	if strings.HasSuffix(f.Name, "/") {
		// A directory: its header only (zip refuses data, even the two
		// bytes of an empty deflate stream some tools write).
		h := f.FileHeader
		h.Method, h.CompressedSize64, h.UncompressedSize64, h.CRC32 = zip.Store, 0, 0, 0
		h.CompressedSize, h.UncompressedSize = 0, 0
		_, err := zw.CreateHeader(&h)
		return err
	}
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	h := f.FileHeader
	dst, err := zw.CreateRaw(&h)
	if err != nil {
		return err
	}
	if *buf == nil {
		*buf = make([]byte, 32<<10)
	}
	_, err = io.CopyBuffer(dst, r, *buf)
	return err
}

// writeFile writes a file of a directory output, creating its directory
// (once: a JDK has tens of thousands of classes in a thousand packages).
func (w *Writer) writeFile(name string, data []byte) error {
	p := filepath.Join(w.path, filepath.FromSlash(name))
	if strings.HasSuffix(name, "/") {
		return os.MkdirAll(p, 0o755)
	}
	dir := filepath.Dir(p)
	if _, ok := w.dirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		w.dirs.Store(dir, true)
	}
	if !w.whole {
		return os.WriteFile(p, data, 0o644)
	}
	return writeWhole(p, data)
}

// writeWhole writes data to a temporary file next to p and renames it to
// p; errors name p.
func writeWhole(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".weft-*.class")
	if err != nil {
		return &fs.PathError{Op: "create", Path: p, Err: unwrapPath(err)}
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: p, Err: unwrapPath(err)}
	}
	return nil
}

// Close finishes the output: a jar is completed and renamed over its
// path.
func (w *Writer) Close() error {
	if w.kind != Jar {
		return nil
	}
	tmp := w.tmp.Name()
	defer os.Remove(tmp) // after a failure
	err := w.zw.Close()
	if err == nil {
		err = w.bw.Flush()
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, w.path)
	}
	if err != nil {
		return w.errorf("", err)
	}
	return nil
}

// Abort drops a jar output being written; the files of a directory output
// already written stay.
func (w *Writer) Abort() {
	if w.kind == Jar {
		w.tmp.Close()
		os.Remove(w.tmp.Name())
	}
}

// errorf says that writing the output failed, naming it as the caller
// did: for a jar, the temporary file's name (in path and link errors)
// is dropped, it means nothing to the user. entry, if set, names the
// entry being written.
func (w *Writer) errorf(entry string, err error) error {
	if w.kind == Jar {
		err = unwrapPath(err)
	}
	if entry != "" {
		return fmt.Errorf("writing %s: %s: %w", w.path, entry, err)
	}
	return fmt.Errorf("writing %s: %w", w.path, err)
}

// unwrapPath returns what went wrong in a path or link error, without
// the file names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &le):
		return le.Err
	case errors.As(err, &pe):
		return pe.Err
	}
	return err
}

// packed is a jar entry ready for zip.Writer.CreateRaw.
type packed struct {
	header zip.FileHeader
	data   []byte // compressed if the header says so
}

// pack makes data a jar entry named name, compressed with method (Store
// or Deflate) by the calling goroutine: a jar's entries are packed in
// parallel, the writer only copies them. like, if set, is the input entry
// whose times and extra fields the new entry keeps.
func pack(name string, data []byte, method uint16, like *zip.FileHeader) packed {
	h := zip.FileHeader{Name: name, Method: zip.Store, CRC32: crc32.ChecksumIEEE(data),
		UncompressedSize64: uint64(len(data)), CompressedSize64: uint64(len(data))}
	if like != nil {
		h.Modified, h.ModifiedTime, h.ModifiedDate, h.Extra = like.Modified, like.ModifiedTime, like.ModifiedDate, like.Extra
		h.Comment = like.Comment
	}
	if method == zip.Deflate {
		if z := deflate(data); len(z) < len(data) {
			h.Method, h.CompressedSize64, data = zip.Deflate, uint64(len(z)), z
		}
	}
	return packed{header: h, data: data}
}

// deflaters recycles flate writers: each holds about a megabyte.
var deflaters sync.Pool

// deflate compresses data as archive/zip does (level 5).
func deflate(data []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(data) / 2)
	fw, _ := deflaters.Get().(*flate.Writer)
	if fw == nil {
		fw, _ = flate.NewWriter(&out, 5)
	} else {
		fw.Reset(&out)
	}
	fw.Write(data)
	fw.Close()
	deflaters.Put(fw)
	return out.Bytes()
}
