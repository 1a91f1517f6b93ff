// Package jdkrt builds the JDK-mode variant of weft's runtime: the sources
// of package rtjava with BIB and DIB replaced by the versions in weft/rt/
// here, which read a flag cleared by java.lang.System.initPhase3 (BIB) and
// a boolean field added to java.lang.Thread (DIB). They compile only against
// the patched Thread, so Build runs javac with --patch-module java.base=...
// over it; the classes are then added to java.base by the same option at
// run time.
package jdkrt

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
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
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(src[n]))
		h.Write(src[n])
	}
	h.Write(patchedThread)
	dir := filepath.Join(cacheDir, "rt-jdk-"+hex.EncodeToString(h.Sum(nil))[:16])
	if classes, err := readClasses(dir); err == nil && len(classes) > 0 {
		return classes, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(cacheDir, "build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	srcDir, thread, out := filepath.Join(tmp, "src"), filepath.Join(tmp, "thread"), filepath.Join(tmp, "out")
	if err := os.MkdirAll(filepath.Join(thread, "java", "lang"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(thread, "java", "lang", "Thread.class"), patchedThread, 0o644); err != nil {
		return nil, err
	}
	args := []string{"--patch-module", "java.base=" + thread + string(os.PathListSeparator) + srcDir,
		"-g", "-nowarn", "-d", out}
	for _, n := range names {
		p := filepath.Join(srcDir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, src[n], 0o644); err != nil {
			return nil, err
		}
		args = append(args, p)
	}
	javac := filepath.Join(javaHome, "bin", "javac")
	if b, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the JDK-mode weft runtime with %s: %v\n%s", javac, err, b)
	}
	if err := os.Rename(out, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			return nil, err
		}
	}
	return readClasses(dir)
}

func readClasses(dir string) (map[string][]byte, error) {
	classes := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".class") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		classes[strings.TrimSuffix(filepath.ToSlash(rel), ".class")] = b
		return err
	})
	return classes, err
}
