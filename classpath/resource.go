package classpath

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ReadResource reads the resource name ("META-INF/aop.xml") of one class
// path entry, a directory or a jar, as a class loader finds it. It reports
// false, with no error, where the entry has no such resource or does not
// exist; entries over the class size bound are refused.
func ReadResource(entry, name string) ([]byte, bool, error) {
	info, err := os.Stat(entry)
	if err != nil {
		return nil, false, nil
	}
	if info.IsDir() {
		p := filepath.Join(entry, filepath.FromSlash(name))
		st, err := os.Stat(p)
		if err != nil || st.IsDir() {
			return nil, false, nil
		}
		if st.Size() > maxClassSize {
			return nil, false, fmt.Errorf("%s: %d bytes is too large", p, st.Size())
		}
		b, err := os.ReadFile(p)
		return b, err == nil, err
	}
	zr, err := zip.OpenReader(entry)
	if err != nil {
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil // not a jar: no resources, as the JVM sees it
		}
		return nil, false, fmt.Errorf("%s: %w", entry, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name || strings.TrimPrefix(f.Name, "/") == name {
			b, err := ReadZipEntry(entry, f)
			return b, err == nil, err
		}
	}
	return nil, false, nil
}
