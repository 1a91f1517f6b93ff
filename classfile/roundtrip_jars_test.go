package classfile

import (
	"archive/zip"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/parallel"
)

// roundTripJars are the jars TestRoundTripJars rewrites, under
// /usr/share/java, by the Debian package .ci/run installs for them: the
// output of many javac versions, ajc, and the compilers of Groovy, Scala,
// Clojure, JRuby and Rhino, which write forms javac does not.
// Left out: jars that repeat these ones' classes (aspectjtools holds
// aspectjweaver, groovy-all groovy, jruby-core jruby-base) and
// scala-compiler, which would double the test's time.
var roundTripJars = []struct {
	pkg  string
	jars []string // patterns
}{
	{"libguava-java", []string{"guava.jar"}},
	{"libcommons-lang3-java", []string{"commons-lang3.jar"}},
	{"libcommons-collections4-java", []string{"commons-collections4.jar"}},
	{"clojure", []string{"clojure.jar"}},
	{"rhino", []string{"js.jar"}},
	{"junit4", []string{"junit4.jar"}},
	{"aspectj", []string{"aspectjrt.jar", "aspectjweaver.jar"}},
	{"tomcat10", []string{"tomcat10-*.jar"}},
	{"libjetty9-java", []string{"jetty9-*.jar"}},
	{"libh2-java", []string{"h2.jar"}},
	{"groovy", []string{"groovy.jar", "gpars.jar"}},
	{"jruby", []string{"jruby-base.jar"}},
	{"scala", []string{"scala-library.jar", "scalap.jar"}},
	{"ant", []string{"ant.jar", "ant-launcher.jar"}},
}

// minRoundTripJars is how many jars with classes TestRoundTripJars wants
// (the packages above install 68).
const minRoundTripJars = 50

// TestRoundTripJars rewrites every class of the jars of roundTripJars as
// `weft classfile rewrite` does without --frames and checks that its
// bytes come back unchanged. A class that several jars hold (the same
// path, size and CRC-32 in their directories) is rewritten once. It
// fails when a package is missing or fewer than minRoundTripJars jars
// are found: bash .ci/run installs them.
func TestRoundTripJars(t *testing.T) {
	start := time.Now()
	type entry struct {
		jar string
		f   *zip.File
	}
	type key struct {
		name string
		crc  uint32
		size uint64
	}
	var (
		entries []entry
		missing []string
		jars    int
		seen    = map[string]bool{} // real paths: jars have versioned and unversioned names
		classes = map[key]bool{}
	)
	for _, p := range roundTripJars {
		found := false
		for _, pattern := range p.jars {
			paths, _ := filepath.Glob(filepath.Join("/usr/share/java", pattern))
			for _, path := range paths {
				real, err := filepath.EvalSymlinks(path)
				if err != nil || seen[real] {
					continue
				}
				seen[real] = true
				zr, err := zip.OpenReader(real)
				if err != nil {
					t.Fatal(err)
				}
				defer zr.Close()
				n := 0
				for _, f := range zr.File {
					if !strings.HasSuffix(f.Name, ".class") || f.FileInfo().IsDir() {
						continue
					}
					n++
					if k := (key{f.Name, f.CRC32, f.UncompressedSize64}); !classes[k] {
						classes[k] = true
						entries = append(entries, entry{real, f})
					}
				}
				if n > 0 {
					jars++
					found = true
				}
			}
		}
		if !found {
			missing = append(missing, p.pkg)
		}
	}
	if len(missing) > 0 || jars < minRoundTripJars {
		var pkgs []string
		for _, p := range roundTripJars {
			pkgs = append(pkgs, p.pkg)
		}
		msg := fmt.Sprintf("%d jars with classes found, %d wanted", jars, minRoundTripJars)
		if len(missing) > 0 {
			msg += "; none of " + strings.Join(missing, ", ")
		}
		t.Fatalf("%s: bash .ci/run installs the packages (apt-get install -y %s)", msg, strings.Join(pkgs, " "))
	}

	var (
		mu    sync.Mutex
		fails []string
	)
	err := parallel.Each(len(entries), 0, func(i int) error {
		e := entries[i]
		b, err := ReadTestZipEntry(e.jar, e.f)
		msg := ""
		if err != nil {
			msg = err.Error()
		} else {
			msg = roundTripClassBytes(TestEntry{Path: e.f.Name}, b)
		}
		if msg != "" {
			mu.Lock()
			fails = append(fails, e.jar+": "+e.f.Name+": "+msg)
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(fails) > 0 {
		slices.Sort(fails)
		t.Fatalf("%d of %d classes do not round-trip byte for byte:\n%s",
			len(fails), len(entries), strings.Join(fails[:min(10, len(fails))], "\n"))
	}
	t.Logf("%d classes of %d jars (%d packages) rewritten byte-identically in %v",
		len(entries), jars, len(roundTripJars), time.Since(start).Round(time.Millisecond))
}
