package classfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// roundTripSource parses and re-encodes every class of src and fails the test
// on the first class whose bytes differ. It returns the class count.
func roundTripSource(t *testing.T, src Source) int {
	t.Helper()
	n := 0
	err := src.Walk(func(e ClassEntry) error {
		b, err := e.Read()
		if err != nil {
			return err
		}
		c, err := Parse(e.Path, b)
		if err != nil {
			return err
		}
		if out := c.Bytes(); !bytes.Equal(out, b) {
			i := 0
			for i < len(out) && i < len(b) && out[i] == b[i] {
				i++
			}
			t.Fatalf("%s %s/%s: re-encoded class differs from offset %d (%d bytes in, %d out)",
				src, e.Module, e.Path, i, len(b), len(out))
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return n
}

// TestRoundTripJDK: Parse then Bytes gives back every class of the local
// JDK's modules image byte for byte.
func TestRoundTripJDK(t *testing.T) {
	src, err := OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	start := time.Now()
	n := roundTripSource(t, src)
	t.Logf("%d classes of %d modules round-tripped byte-identically in %v", n, len(src.Modules()), time.Since(start))
	if n <= 20000 {
		t.Fatalf("only %d classes in the JDK image: is it complete?", n)
	}
}

// TestRoundTripJars does the same for every jar in /usr/share/java
// (guava and commons-lang3 must be there).
func TestRoundTripJars(t *testing.T) {
	jars, _ := filepath.Glob("/usr/share/java/*.jar")
	seen := map[string]bool{}
	total := 0
	for _, want := range []string{"guava.jar", "commons-lang3.jar"} {
		if _, err := os.Stat(filepath.Join("/usr/share/java", want)); err != nil {
			t.Fatalf("%v: install libguava-java and libcommons-lang3-java (bash .ci/run does)", err)
		}
	}
	for _, jar := range jars {
		real, err := filepath.EvalSymlinks(jar)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		src, err := OpenJar(real)
		if err != nil {
			t.Fatal(err)
		}
		n := roundTripSource(t, src)
		src.Close()
		if strings.Contains(real, "guava") || strings.Contains(real, "commons-lang3") {
			if n < 100 {
				t.Fatalf("%s: only %d classes", real, n)
			}
		}
		total += n
	}
	t.Logf("%d classes of %d jars in /usr/share/java round-tripped byte-identically", total, len(seen))
}
