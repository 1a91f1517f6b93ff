// Package profile holds the calling-context profiler users start from: its
// aspect (profile.weft) and its advice (package profile, Java), embedded so
// that weft profile can build and weave them in one command.
package profile

import (
	"embed"
	"io/fs"
	"strings"

	rtjava "github.com/weft-aop/weft/runtime-java"
)

//go:embed profile.weft profile/*.java profile/calibrate/*.java
var files embed.FS

// Aspect returns the text of profile.weft.
func Aspect() []byte {
	b, _ := files.ReadFile("profile.weft")
	return b
}

// Sources returns the advice's Java sources by path ("profile/Profiler.java").
func Sources() map[string][]byte {
	m := map[string][]byte{}
	fs.WalkDir(files, "profile", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			m[p], _ = files.ReadFile(p)
		}
		return nil
	})
	return m
}

// Build compiles the advice with javaHome's javac against the runtime's
// sources and returns its class files by internal name (the runtime's own
// classes left out: the woven JDK has them). Results are cached in
// cacheDir, keyed by the sources.
func Build(javaHome, cacheDir string) (map[string][]byte, error) {
	return rtjava.BuildAdvice(javaHome, cacheDir, "profile", Sources())
}
