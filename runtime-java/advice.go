package rtjava

import (
	"path/filepath"
	"strings"
)

// BuildAdvice compiles the Java sources of advice (by path, e.g.
// "leak/Tracker.java") with javaHome's javac against the runtime's sources
// and returns the advice's class files by internal name, the runtime's own
// left out (the woven JDK has them). Results are cached in
// cacheDir/NAME-HASH, keyed by every source.
func BuildAdvice(javaHome, cacheDir, name string, advice map[string][]byte) (map[string][]byte, error) {
	src := Sources()
	for p, b := range advice {
		src[p] = b
	}
	dir := filepath.Join(cacheDir, name+"-"+SourcesHash(src))
	classes, err := CompileCached(filepath.Join(javaHome, "bin", "javac"), dir, src,
		func(string) ([]string, error) { return []string{"--release", "11", "-g", "-nowarn"}, nil })
	if err != nil {
		return nil, err
	}
	for n := range classes {
		if strings.HasPrefix(n, PackagePrefix) {
			delete(classes, n)
		}
	}
	return classes, nil
}
