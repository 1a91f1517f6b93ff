package archive

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/classpath"
)

// SetManifestClassPath rewrites the Class-Path attribute of the jar's
// manifest to name entries (absolute file URLs), keeping every other entry
// and every other line of the manifest as they were. A woven copy of a jar
// run with `java -jar` lives elsewhere than the jar: the relative entries
// of its Class-Path would name nothing, or not the woven copies. A jar
// without a manifest, or whose manifest has no Class-Path, is left alone.
func SetManifestClassPath(jar string, entries []string) error {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return fmt.Errorf("%s: %w", jar, err)
	}
	defer zr.Close()
	var mf *zip.File
	for _, f := range zr.File {
		if strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			mf = f
			break
		}
	}
	if mf == nil {
		return nil
	}
	old, err := classpath.ReadZipEntry(jar, mf)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", jar, mf.Name, err)
	}
	urls := make([]string, len(entries))
	for i, e := range entries {
		abs, err := filepath.Abs(e)
		if err != nil {
			return err
		}
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			abs += "/" // a directory's URL ends with a slash
		}
		urls[i] = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	manifest, ok := replaceAttribute(old, "Class-Path", strings.Join(urls, " "))
	if !ok {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(jar), ".manifest-*.jar")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	zw := zip.NewWriter(tmp)
	for _, f := range zr.File {
		if f != mf {
			if err := zw.Copy(f); err != nil {
				tmp.Close()
				return fmt.Errorf("%s: %s: %w", jar, f.Name, err)
			}
			continue
		}
		h := f.FileHeader
		w, err := zw.CreateHeader(&zip.FileHeader{Name: h.Name, Method: h.Method, Modified: h.Modified, Comment: h.Comment})
		if err == nil {
			_, err = w.Write(manifest)
		}
		if err != nil {
			tmp.Close()
			return fmt.Errorf("%s: %s: %w", jar, f.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", jar, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), jar)
}

// ManifestAttribute returns the value of the main section's attribute
// name (case-insensitive, its continuation lines joined) in the manifest of
// the jar at path; "" if the jar, its manifest or the attribute is missing.
func ManifestAttribute(path, name string) string {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return ""
	}
	defer zr.Close()
	for _, f := range zr.File {
		if strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			b, err := classpath.ReadZipEntry(path, f)
			if err != nil {
				return ""
			}
			lines := bytes.SplitAfter(b, []byte("\n"))
			start, end, ok := findAttribute(lines, name)
			if !ok {
				return ""
			}
			var v strings.Builder
			for i, l := range lines[start:end] {
				l := strings.TrimRight(string(l), "\r\n")
				if i == 0 {
					_, l, _ = strings.Cut(l, ":")
					l = strings.TrimPrefix(l, " ")
				} else {
					l = l[1:] // a continuation line's leading space
				}
				v.WriteString(l)
			}
			return v.String()
		}
	}
	return ""
}

// findAttribute returns the lines [start, end) of the main section's
// attribute name (its line and continuation lines); false if the main
// section has none.
func findAttribute(lines [][]byte, name string) (start, end int, ok bool) {
	for i, l := range lines {
		line := strings.TrimRight(string(l), "\r\n")
		if line == "" {
			return 0, 0, false // the main section ended
		}
		k, _, found := strings.Cut(line, ":")
		if !found || !strings.EqualFold(k, name) || strings.HasPrefix(line, " ") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.HasPrefix(string(lines[end]), " ") {
			end++
		}
		return i, end, true
	}
	return 0, 0, false
}

// replaceAttribute replaces the value of the main section's attribute name
// by value, written in lines of at most 72 bytes as the manifest format
// wants; false if the main section has no such attribute.
func replaceAttribute(manifest []byte, name, value string) ([]byte, bool) {
	lines := bytes.SplitAfter(manifest, []byte("\n"))
	start, end, ok := findAttribute(lines, name)
	if !ok {
		return nil, false
	}
	k, _, _ := strings.Cut(string(lines[start]), ":")
	var out bytes.Buffer
	for _, l := range lines[:start] {
		out.Write(l)
	}
	writeWrapped(&out, k+": "+value)
	for _, l := range lines[end:] {
		out.Write(l)
	}
	return out.Bytes(), true
}

// writeWrapped writes one attribute line, continued on lines starting
// with a space so that none is longer than 72 bytes.
func writeWrapped(out *bytes.Buffer, line string) {
	const max = 72
	for first := true; ; first = false {
		room := max
		if !first {
			out.WriteByte(' ')
			room--
		}
		if len(line) <= room {
			out.WriteString(line + "\r\n")
			return
		}
		out.WriteString(line[:room] + "\r\n")
		line = line[room:]
	}
}
