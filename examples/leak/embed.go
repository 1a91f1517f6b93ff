// Package leak holds the memory-leak tracker users start from: its aspect
// (leak.weft) and its advice (package weft.tools.leak, Java, in weft's own
// namespace, which weft never weaves), embedded so that weft leak can
// build and weave them in one command.
package leak

import (
	"embed"

	rtjava "github.com/weft-aop/weft/runtime-java"
)

//go:embed leak.weft weft/tools/leak/*.java
var files embed.FS

// Aspect returns the text of leak.weft.
func Aspect() []byte {
	b, _ := files.ReadFile("leak.weft")
	return b
}

// Sources returns the advice's Java sources by path
// ("weft/tools/leak/Tracker.java").
func Sources() map[string][]byte { return rtjava.JavaSources(files, "weft/tools/leak") }

// Build compiles the advice against the runtime and returns its class
// files by internal name, cached in cacheDir (rtjava.BuildAdvice).
func Build(javaHome, cacheDir string) (map[string][]byte, error) {
	return rtjava.BuildAdvice(javaHome, cacheDir, "leak", Sources())
}
