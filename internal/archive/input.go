package archive

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/mmap"
)

// Kind is the form of an input or an output.
type Kind int

const (
	Jar   Kind = iota // a jar (or zip) file
	Dir               // a directory tree
	Class             // a single class file
)

// Entry is one file (or directory) of an Input.
type Entry struct {
	// Name is the entry's slash-separated path in the input, e.g.
	// "a/B.class" or "META-INF/versions/11/a/B.class"; a directory's ends
	// in "/". A single class file input's one entry is its base name.
	Name string
	// Index is the entry's place in Input.Entries.
	Index int

	zf     *zip.File              // a jar's entry
	mapped []byte                 // the jar's mapping zf reads (mmap.Guard)
	file   string                 // the file on disk, for a directory or class file input
	read   func() ([]byte, error) // any other source
	in     string                 // the input's path, for errors

	// What Prefetch read (the first Read takes it).
	prefetched bool
	pre        []byte
	preErr     error
}

// IsClass reports whether the entry is a class file (by its name).
func (e *Entry) IsClass() bool { return strings.HasSuffix(e.Name, ".class") }

// IsDir reports whether the entry is a directory.
func (e *Entry) IsDir() bool { return strings.HasSuffix(e.Name, "/") }

// Read returns the entry's bytes, in a slice the caller owns. It may be
// called from any goroutine, but not from two at once for one entry: the
// first Read takes the bytes Prefetch read ahead.
func (e *Entry) Read() ([]byte, error) {
	if e.prefetched {
		data, err := e.pre, e.preErr
		e.prefetched, e.pre, e.preErr = false, nil, nil
		return data, err
	}
	return e.readSource()
}

// readSource reads the entry from its jar, file or source.
func (e *Entry) readSource() ([]byte, error) {
	switch {
	case e.zf != nil:
		var data []byte
		err := e.guard(func() (err error) {
			data, err = classpath.ReadZipEntry(e.in, e.zf)
			return err
		})
		return data, err
	case e.read != nil:
		return e.read()
	}
	return os.ReadFile(e.file)
}

// Input is a jar, a directory tree or a class file, listed.
type Input struct {
	Path    string
	Kind    Kind
	Entries []*Entry // in archive order for a jar, lexical order for a directory

	comment    string    // a jar's comment, kept in the output
	closer     io.Closer // a jar's reader
	fromSource bool      // listed by FromSource: paths need not match class names
}

// Open lists the jar, directory or class file (named *.class) at path.
// A jar Prefetch opened is handed over with the entries it read.
func Open(path string) (*Input, error) {
	if in := takePrefetched(path); in != nil {
		return in, nil
	}
	return open(path)
}

// open is Open without Prefetch's jars.
func open(path string) (*Input, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return openDir(path)
	case strings.HasSuffix(path, ".class"):
		in := &Input{Path: path, Kind: Class}
		in.add(&Entry{Name: filepath.Base(path), file: path})
		return in, nil
	}
	zr, mapped, closer, err := openJar(path, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	in := &Input{Path: path, Kind: Jar, comment: zr.Comment, closer: closer}
	in.Entries = make([]*Entry, 0, len(zr.File))
	for _, f := range zr.File {
		in.add(&Entry{Name: f.Name, zf: f, mapped: mapped})
	}
	return in, nil
}

// openJar opens the jar at path, of size bytes, mapped into memory
// (package mmap): its entries are then read without a system call each
// (a header, then one per 4 KB of data, on every worker), and without
// first copying the whole file into the heap, which faulted in every page
// of it (15-20 ms for guava's 2.9 MB, before any work could start).
// Everything read from the mapping is copied (zip's headers and names,
// ReadZipEntry's bytes, copyRaw's): the closer unmaps it. Every read of it
// is guarded: a jar truncated while mapped is an error, not a crash.
func openJar(path string, size int64) (zr *zip.Reader, mapped []byte, closer io.Closer, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	data, unmap, err := mmap.File(f, size)
	if err != nil {
		return nil, nil, nil, err
	}
	err = mmap.Guard(data, func() (err error) {
		zr, err = zip.NewReader(bytes.NewReader(data), int64(len(data)))
		return err
	})
	if err != nil {
		unmap()
		return nil, nil, nil, err
	}
	return zr, data, closerFunc(unmap), nil
}

// guard runs read, which reads e's jar: a jar truncated meanwhile makes it
// an error naming the jar, not the end of weft (mmap.Guard).
func (e *Entry) guard(read func() error) error {
	if e.mapped == nil {
		return read()
	}
	if err := mmap.Guard(e.mapped, read); err != nil {
		if err == mmap.ErrShrank {
			return fmt.Errorf("%s: %s: %w", e.in, e.Name, err)
		}
		return err
	}
	return nil
}

// closerFunc is a func() error as an io.Closer.
type closerFunc func() error

func (c closerFunc) Close() error { return c() }

// openDir lists a directory tree's files, and its empty directories so
// that nothing is dropped.
func openDir(root string) (*Input, error) {
	in := &Input{Path: root, Kind: Dir}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if d.IsDir() {
			if empty, err := isEmptyDir(p); err != nil || !empty {
				return err
			}
			name += "/"
		}
		in.add(&Entry{Name: name, file: p})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

func isEmptyDir(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	if err == io.EOF {
		return true, nil
	}
	return false, err
}

// FromSource lists the classes of a source as a directory tree: a modules
// image's classes are named <module>/<path>, e.g.
// "java.base/java/lang/String.class".
func FromSource(src classpath.Source) (*Input, error) {
	in := &Input{Path: src.String(), Kind: Dir, fromSource: true}
	err := src.Walk(func(ce classpath.ClassEntry) error {
		name := ce.Path
		if ce.Module != "" {
			name = ce.Module + "/" + name
		}
		in.add(&Entry{Name: name, read: ce.Read})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

func (in *Input) add(e *Entry) {
	e.Index, e.in = len(in.Entries), in.Path
	in.Entries = append(in.Entries, e)
}

// Close releases a jar input.
func (in *Input) Close() error {
	if in.closer == nil {
		return nil
	}
	return in.closer.Close()
}

// Label names e in messages: "app.jar!a/B.class", "classes/a/B.class",
// "B.class", "java.base/java/lang/String.class".
func (in *Input) Label(e *Entry) string {
	switch {
	case in.Kind == Jar:
		return in.Path + "!" + e.Name
	case in.Kind == Class:
		return in.Path
	case e.file != "":
		return e.file
	}
	return e.Name
}
