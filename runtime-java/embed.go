// Package rtjava holds the Java sources of weft's runtime (package weft.rt:
// the BIB and DIB bypass flags, the guard woven code calls, thisJoinPoint
// and the join point static part) and builds them into class files with
// the JDK's javac, caching the result under the sources' content hash.
// Nothing built is committed: the sources are the only artifact.
package rtjava

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

	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/proc"
)

//go:embed weft
var sources embed.FS

// Sources returns the runtime's Java sources by path (e.g. "weft/rt/DIB.java").
func Sources() map[string][]byte {
	m := map[string][]byte{}
	fs.WalkDir(sources, "weft", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			m[p], _ = sources.ReadFile(p)
		}
		return nil
	})
	return m
}

// Hash is the cache key of the application-mode runtime's sources (and
// javac's options).
func Hash() string { return SourcesHash(Sources(), OptionsKey()) }

// JavacOptions are javac's options for weft's Java, the runtime and the
// tools' advice, but the release. String concatenation is compiled to
// StringBuilder calls (-XDstringConcat=inline), as the JDK compiles
// java.base: the invokedynamic javac emits by default is linked by
// StringConcatFactory, whose method handles a run spun and interpreted
// the first time the advice concatenated (a tool's report at exit).
var JavacOptions = []string{"-g", "-nowarn", "-XDstringConcat=inline"}

// OptionsKey is JavacOptions as an input of a build's cache key.
func OptionsKey() []byte { return []byte(strings.Join(JavacOptions, "\x00")) }

// SourcesHash returns a cache key for sources (names and contents) and any
// extra inputs the build depends on: 16 hex digits of their SHA-256.
func SourcesHash(src map[string][]byte, extra ...[]byte) string {
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
	for _, x := range extra {
		fmt.Fprintf(h, "%d\x00", len(x))
		h.Write(x)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Build compiles the runtime with javac (javaHome/bin/javac; "" means javac
// on PATH) for Java 11 and returns its class files by internal name (e.g.
// "weft/rt/DIB"). Results are cached in cacheDir/rt-HASH ("" means the
// rt directory of weft's cache, cache.SharedDir), so only the first call
// runs javac.
func Build(javaHome, cacheDir string) (map[string][]byte, error) {
	if cacheDir == "" {
		cacheDir = cache.SharedDir(cache.Root())
	}
	javac := "javac"
	if javaHome != "" {
		javac = filepath.Join(javaHome, "bin", "javac")
	}
	return CompileCached(javac, filepath.Join(cacheDir, "rt-"+Hash()), Sources(),
		func(string) ([]string, error) { return append([]string{"--release", "11"}, JavacOptions...), nil })
}

// CompileCached returns the class files (by internal name) javac makes of
// sources, cached in dir. Only the first call compiles: in a temporary
// directory beside dir, renamed into place when complete, so concurrent
// processes never see half a cache entry. options gives javac's options
// for the directory the sources are written to (it may write more inputs
// beside it); ToolJVM, -d and the source files are added.
func CompileCached(javac, dir string, sources map[string][]byte, options func(srcDir string) ([]string, error)) (map[string][]byte, error) {
	if classes, err := ReadClasses(dir); err == nil && len(classes) > 0 {
		return classes, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	src, out := filepath.Join(tmp, "src"), filepath.Join(tmp, "out")
	args, err := options(src)
	if err != nil {
		return nil, err
	}
	args = append(append(append([]string{}, ToolJVM...), args...), "-d", out)
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, sources[name], 0o644); err != nil {
			return nil, err
		}
		args = append(args, p)
	}
	if b, err := proc.CombinedOutput(exec.Command(javac, args...)); err != nil {
		return nil, fmt.Errorf("building the weft runtime with %s: %v\n%s", javac, err, b)
	}
	// Another process may have won the race; either result is the same.
	if err := os.Rename(out, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			return nil, err
		}
	}
	return ReadClasses(dir)
}

// ToolJVM are the options, for a JDK tool's launcher (javac, jlink), of
// its JVM: the client compiler only and the serial collector. weft runs
// those tools for short runs, in which the optimizing compiler and the
// parallel collector's threads cost most of the CPU time (compiling the
// JDK-mode runtime: 2.8 CPU seconds, 1.6 with these, and half the wall
// time on two cores; jlink: 40 %); the tools' output is the same.
var ToolJVM = []string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"}

// ReadClasses reads the class files under dir by internal name.
func ReadClasses(dir string) (map[string][]byte, error) {
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
