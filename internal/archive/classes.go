package archive

import (
	"fmt"
	"sort"
)

// WriteClasses writes class files (internal name → bytes) to path as a jar
// with a manifest or as a class tree (kind Jar or Dir), in name order so
// the output is reproducible.
func WriteClasses(path string, kind Kind, classes map[string][]byte) error {
	var w *Writer
	var err error
	switch kind {
	case Jar:
		w, err = CreateJar(path)
	case Dir:
		w, err = CreateDir(path)
	default:
		return fmt.Errorf("writing %s: classes go to a jar or a directory", path)
	}
	if err != nil {
		return err
	}
	if kind == Jar {
		if err := w.Add("META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\r\nCreated-By: weft\r\n\r\n")); err != nil {
			w.Abort()
			return err
		}
	}
	names := make([]string, 0, len(classes))
	for n := range classes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := w.Add(n+".class", classes[n]); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}
