package jdk

import (
	"path/filepath"
	"sort"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/parallel"
)

// writePatches writes the modules still in memory (java.base, and every
// module without Jars) to patchDir/<module>.jar or, without Jars, to
// patchDir/<module>/ class trees. Jars (stored, not compressed: the JVM
// reads them at start-up) take one file per module instead of one per
// class, which is faster to write and to load from.
func (iw *imageWeaving) writePatches() error {
	var modules []string
	for m, classes := range iw.files {
		if len(classes) > 0 {
			modules = append(modules, m)
		}
	}
	// Biggest module first, so it does not finish last.
	sort.Slice(modules, func(i, j int) bool { return len(iw.files[modules[i]]) > len(iw.files[modules[j]]) })
	if iw.opts.Jars {
		return parallel.Each(len(modules), iw.opts.Workers, func(i int) error {
			return writeJar(filepath.Join(iw.patchDir, modules[i]+".jar"), iw.files[modules[i]])
		})
	}
	// Class trees: one file per class, all modules' classes in parallel.
	type file struct {
		w    *archive.Writer
		name string
		data []byte
	}
	var files []file
	for _, m := range modules {
		w, err := archive.CreateDir(filepath.Join(iw.patchDir, m))
		if err != nil {
			return err
		}
		for name, b := range iw.files[m] {
			files = append(files, file{w, name + ".class", b})
		}
	}
	return parallel.Each(len(files), iw.opts.Workers, func(i int) error {
		return files[i].w.Add(files[i].name, files[i].data)
	})
}

// writeJar writes classes (internal name → bytes) to a stored jar, in name
// order so the output is reproducible.
func writeJar(path string, classes map[string][]byte) error {
	names := make([]string, 0, len(classes))
	for n := range classes {
		names = append(names, n)
	}
	sort.Strings(names)
	w, err := archive.CreateJar(path)
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := w.Add(n+".class", classes[n]); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}
