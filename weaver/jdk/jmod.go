package jdk

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/weft-aop/weft/classpath"
)

// A jmod file is the 4 bytes "JM" 1 0 followed by a zip whose entries are
// sorted into sections by their first path element: classes/ (the module's
// classes and resources, module-info.class among them), lib/, bin/, conf/,
// legal/, include/, man/. Offsets in the zip are relative to its start,
// after the magic, as the JDK's jmod tool writes them.
const jmodMagic = "JM\x01\x00"

const classesSection = "classes/"

// stockModule is a module's stock content a woven jmod is made from: its
// classes section (where the image lacks a resource: the stock image's
// resources come first) and its other sections (native code, launchers,
// configuration, legal notices, headers, man pages). A JDK with jmods/
// gives them from the module's jmod file, one without from its image and
// its directories (imageModule).
type stockModule interface {
	classes() map[string]bool         // names in the classes section, without it
	read(name string) ([]byte, error) // an entry, name with its section
	copySections(zw *zip.Writer) error
	Close() error
}

// jmodFile is an open jmod.
type jmodFile struct {
	path  string
	f     *os.File
	zr    *zip.Reader
	files map[string]*zip.File // by entry name, section included
}

func openJmod(path string) (*jmodFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	magic := make([]byte, len(jmodMagic))
	if _, err := io.ReadFull(f, magic); err != nil || string(magic) != jmodMagic {
		f.Close()
		return nil, fmt.Errorf("%s: not a jmod file (magic %q)", path, magic)
	}
	n := int64(len(jmodMagic))
	zr, err := zip.NewReader(io.NewSectionReader(f, n, fi.Size()-n), fi.Size()-n)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	j := &jmodFile{path: path, f: f, zr: zr, files: make(map[string]*zip.File, len(zr.File))}
	for _, e := range zr.File {
		j.files[e.Name] = e
	}
	return j, nil
}

func (j *jmodFile) Close() error { return j.f.Close() }

// classes returns the names in the classes section (without the prefix).
func (j *jmodFile) classes() map[string]bool {
	out := map[string]bool{}
	for _, f := range j.zr.File {
		if name, ok := strings.CutPrefix(f.Name, classesSection); ok && !strings.HasSuffix(name, "/") {
			out[name] = true
		}
	}
	return out
}

// read returns one entry's bytes, name with its section.
func (j *jmodFile) read(name string) ([]byte, error) {
	f := j.files[name]
	if f == nil {
		return nil, fmt.Errorf("%s: no entry %s", j.path, name)
	}
	return classpath.ReadZipEntry(j.path, f)
}

// copySections copies the sections other than classes as they are.
func (j *jmodFile) copySections(zw *zip.Writer) error {
	for _, e := range j.zr.File {
		if !strings.HasPrefix(e.Name, classesSection) {
			if err := zw.Copy(e); err != nil {
				return fmt.Errorf("%s!%s: %v", j.path, e.Name, err)
			}
		}
	}
	return nil
}

// writeJmod writes a jmod at path: the classes section from names, read
// by content (in name order, stored), then stock's other sections. It returns the module's hash as the JDK records it in
// ModuleHashes: the SHA-256 of the classes section's names and contents,
// in name order (ModuleHashes.computeHash over the module's reader).
func writeJmod(path string, stock stockModule, names []string, content func(name string) ([]byte, error)) ([]byte, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	bw := bufio.NewWriterSize(f, 1<<20)
	err = func() error {
		if _, err := bw.WriteString(jmodMagic); err != nil {
			return err
		}
		zw := zip.NewWriter(bw)
		sort.Strings(names)
		for _, n := range names {
			b, err := content(n)
			if err != nil {
				return err
			}
			w, err := zw.CreateHeader(&zip.FileHeader{Name: classesSection + n, Method: zip.Store})
			if err != nil {
				return err
			}
			if _, err := io.Copy(w, bytes.NewReader(b)); err != nil {
				return err
			}
			h.Write([]byte(n))
			h.Write(b)
		}
		if err := stock.copySections(zw); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		return bw.Flush()
	}()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %v", path, err)
	}
	return h.Sum(nil), nil
}
