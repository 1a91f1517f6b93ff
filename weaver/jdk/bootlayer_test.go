package jdk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestBootLayerCached: the boot layer asked of the JVM is saved in the
// cache directory and read from there by the next run, which starts no JVM
// (the saved answer is altered to tell where it came from).
func TestBootLayerCached(t *testing.T) {
	home := jvmtest.JavaHome(t)
	dir := t.TempDir()
	asked, err := cachedBootLayer(home, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !asked["java.base"] || !asked["java.sql"] || asked["jdk.incubator.foreign"] {
		t.Fatalf("boot layer %v: want java.base and java.sql, no incubator module", asked)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "boot-layer-*"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	if err := os.WriteFile(files[0], []byte("java.base\nfrom.the.cache\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := cachedBootLayer(home, dir)
	if err != nil || len(got) != 2 || !got["from.the.cache"] {
		t.Fatalf("second run: %v, %v; want the cached answer", got, err)
	}
	// Another JDK (here: another home) is another file.
	other := t.TempDir()
	if err := os.MkdirAll(filepath.Join(other, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "lib", "modules"), filepath.Join(other, "lib", "modules")); err != nil {
		t.Fatal(err)
	}
	if _, err := cachedBootLayer(other, dir); err == nil {
		t.Fatal("a home without bin/java answered from the cache of another")
	}
}
