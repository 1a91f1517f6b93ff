// Package jdkrt builds the JDK-mode variant of weft's runtime: the sources
// of package rtjava with BIB and DIB replaced by the versions in weft/rt/
// here, which read a flag cleared by java.lang.System.initPhase3 (BIB) and
// a boolean field added to java.lang.Thread (DIB). They compile only against
// the patched Thread, so Build runs javac with --patch-module java.base=...
// over it; the classes are then added to java.base by the same option at
// run time.
package jdkrt

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	rtjava "github.com/weft-aop/weft/runtime-java"
)

//go:embed weft
var overrides embed.FS

// Sources returns the JDK-mode runtime sources by path: the application
// runtime's, with the files of this directory in place of theirs.
func Sources() map[string][]byte {
	src := rtjava.Sources()
	fs.WalkDir(overrides, "weft", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			src[p], _ = overrides.ReadFile(p)
		}
		return nil
	})
	return src
}

// Build compiles the JDK-mode runtime with javaHome's javac against
// patchedThread (the class file of java.lang.Thread with the DIB field) and
// returns the class files by internal name. Results are cached in
// cacheDir/rt-jdk-HASH, keyed by the sources and the Thread bytes.
func Build(javaHome, cacheDir string, patchedThread []byte) (map[string][]byte, error) {
	src := Sources()
	dir := filepath.Join(cacheDir, "rt-jdk-"+rtjava.SourcesHash(src, patchedThread, rtjava.OptionsKey()))
	javac := filepath.Join(javaHome, "bin", "javac")
	return rtjava.CompileCached(javac, dir, src, func(srcDir string) ([]string, error) {
		// javac compiles weft.rt as part of java.base, against the patched
		// Thread; no --release: javac refuses it with --patch-module.
		thread := filepath.Join(filepath.Dir(srcDir), "thread")
		if err := os.MkdirAll(filepath.Join(thread, "java", "lang"), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(thread, "java", "lang", "Thread.class"), patchedThread, 0o644); err != nil {
			return nil, err
		}
		return append([]string{"--patch-module", "java.base=" + thread + string(os.PathListSeparator) + srcDir},
			rtjava.JavacOptions...), nil
	})
}
