// Package profile holds the calling-context profiler users start from: its
// aspect (profile.weft) and its advice (package profile, Java), embedded so
// that weft profile can build and weave them in one command.
package profile

import (
	"embed"

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
func Sources() map[string][]byte { return rtjava.JavaSources(files, "profile") }

// Build compiles the advice against the runtime and returns its class
// files by internal name, cached in cacheDir (rtjava.BuildAdvice).
func Build(javaHome, cacheDir string) (map[string][]byte, error) {
	return rtjava.BuildAdvice(javaHome, cacheDir, "profile", Sources())
}
