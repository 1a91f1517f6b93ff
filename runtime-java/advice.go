package rtjava

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// BuildAdvice compiles the Java sources of advice (by path, e.g.
// "weft/tools/leak/Tracker.java") with javaHome's javac against the runtime's sources
// and returns the advice's class files by internal name, the runtime's own
// left out (the woven JDK has them). Results are cached in
// cacheDir/NAME-HASH, keyed by every source.
func BuildAdvice(javaHome, cacheDir, name string, advice map[string][]byte) (map[string][]byte, error) {
	src := Sources()
	for p, b := range advice {
		src[p] = b
	}
	dir := filepath.Join(cacheDir, name+"-"+SourcesHash(src, OptionsKey()))
	classes, err := CompileCached(filepath.Join(javaHome, "bin", "javac"), dir, src,
		func(string) ([]string, error) { return append([]string{"--release", "11"}, JavacOptions...), nil })
	if err != nil {
		return nil, err
	}
	for n := range classes {
		if strings.HasPrefix(n, rtnames.PackagePrefix) {
			delete(classes, n)
		}
	}
	return classes, nil
}

// JavaSources returns the .java files under dir in fsys (an example's
// embedded advice) by path, e.g. "weft/tools/profile/Profiler.java".
func JavaSources(fsys fs.FS, dir string) map[string][]byte {
	m := map[string][]byte{}
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			m[p], _ = fs.ReadFile(fsys, p)
		}
		return nil
	})
	return m
}
