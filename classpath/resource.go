package classpath

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ReadResources reads the resources names ("META-INF/aop.xml") of one
// class path entry, a directory or a jar opened once, as a class loader
// finds them, and returns those it has by name. An entry that does not
// exist, or is not a jar, has none; resources over the class size bound
// are refused.
func ReadResources(entry string, names ...string) (map[string][]byte, error) {
	info, err := os.Stat(entry)
	if err != nil {
		return nil, nil
	}
	out := map[string][]byte{}
	if info.IsDir() {
		for _, name := range names {
			p := filepath.Join(entry, filepath.FromSlash(name))
			st, err := os.Stat(p)
			if err != nil || st.IsDir() {
				continue
			}
			if st.Size() > maxClassSize {
				return nil, fmt.Errorf("%s: %d bytes is too large", p, st.Size())
			}
			if out[name], err = os.ReadFile(p); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	zr, err := zip.OpenReader(entry)
	if err != nil {
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, fs.ErrNotExist) {
			return nil, nil // not a jar: no resources, as the JVM sees it
		}
		return nil, fmt.Errorf("%s: %w", entry, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		if _, seen := out[name]; seen || !slices.Contains(names, name) {
			continue
		}
		if out[name], err = ReadZipEntry(entry, f); err != nil {
			return nil, err
		}
	}
	return out, nil
}
