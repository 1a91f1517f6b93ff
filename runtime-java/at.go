package rtjava

import (
	"crypto/sha256"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/cache"
)

// The sources of package weft.at: the adapters that let @AspectJ aspects
// (annotation style, compiled by javac against aspectjrt) run under weft.
// Link points each advice's dispatcher at its method; AJ makes the
// org.aspectj.lang views of weft's join point objects the advice takes.
//
//go:embed at
var atSources embed.FS

// AtSources returns the sources of package weft.at by path (e.g.
// "weft/at/Link.java").
func AtSources() map[string][]byte {
	m := map[string][]byte{}
	fs.WalkDir(atSources, "at", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			m[strings.TrimPrefix(p, "at/")], _ = atSources.ReadFile(p)
		}
		return nil
	})
	return m
}

// AtHash is the cache key of weft.at built for the aspectjrt jar at path
// aspectjrt: its sources, javac's options, the runtime's key and the jar's
// content.
func AtHash(aspectjrt string) (string, error) {
	sum, err := fileSum(aspectjrt)
	if err != nil {
		return "", fmt.Errorf("aspectjrt: %v", err)
	}
	return SourcesHash(AtSources(), OptionsKey(), []byte(Hash()), sum), nil
}

// BuildAt compiles package weft.at with javaHome's javac ("" means javac
// on PATH) for Java 11, against the runtime (Build) and the aspectjrt jar
// at path aspectjrt, and returns its class files by internal name (e.g.
// "weft/at/AJ"). Both are on the boot class path when it runs. Results are
// cached in cacheDir/at-AtHash ("" means the rt directory of weft's cache).
func BuildAt(javaHome, aspectjrt, cacheDir string) (map[string][]byte, error) {
	if cacheDir == "" {
		cacheDir = cache.SharedDir(cache.Root())
	}
	jar, err := filepath.Abs(aspectjrt)
	if err != nil {
		return nil, err
	}
	key, err := AtHash(jar)
	if err != nil {
		return nil, err
	}
	rt, err := Build(javaHome, cacheDir)
	if err != nil {
		return nil, err
	}
	javac := "javac"
	if javaHome != "" {
		javac = filepath.Join(javaHome, "bin", "javac")
	}
	return CompileCached(javac, filepath.Join(cacheDir, "at-"+key), AtSources(), func(srcDir string) ([]string, error) {
		classes := filepath.Join(filepath.Dir(srcDir), "rt")
		if err := archive.WriteClasses(classes, archive.Dir, rt); err != nil {
			return nil, err
		}
		cp := classes + string(os.PathListSeparator) + jar
		return append([]string{"--release", "11", "-cp", cp}, JavacOptions...), nil
	})
}

// fileSum returns the SHA-256 of the file at path.
func fileSum(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
