package jvmopts

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/weft-aop/weft/internal/javacmd"
)

// TestModuleAccessOptions: the module names on java's module path (an
// automatic jar named by its file or by its manifest) get weft's runtime
// exported and read the unnamed modules; no module path, no options.
func TestModuleAccessOptions(t *testing.T) {
	for file, want := range map[string]string{
		"guava-31.1-jre.jar":       "guava",
		"commons-lang3-3.12.0.jar": "commons.lang3",
		"foo_bar--baz.jar":         "foo.bar.baz",
	} {
		if got := automaticModuleName(file); got != want {
			t.Errorf("automaticModuleName(%q) = %q, want %q", file, got, want)
		}
	}
	dir := t.TempDir()
	writeJar := func(name string, files map[string]string) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		z := zip.NewWriter(f)
		for n, body := range files {
			w, _ := z.Create(n)
			w.Write([]byte(body))
		}
		z.Close()
		f.Close()
	}
	writeJar("lib-2.0.jar", nil)
	writeJar("named.jar", map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\nAutomatic-Module-Name: org.example.named\r\n\r\n"})
	got := ModuleAccess(modulePathOf(t, "-Xss1m", "-p", dir, "-m", "org.example.named/a.Main", "-p", "not-java's"))
	want := []string{"--add-exports", "java.base/weft.rt=lib,org.example.named",
		"--add-reads", "lib=ALL-UNNAMED", "--add-reads", "org.example.named=ALL-UNNAMED"}
	if !slices.Equal(got, want) {
		t.Errorf("options %q, want %q", got, want)
	}
	if got := ModuleAccess(modulePathOf(t, "-cp", dir, "Main", "-p", dir)); got != nil {
		t.Errorf("a class path application: %q", got)
	}
}

// modulePathOf returns the module path of a java command line.
func modulePathOf(t *testing.T, args ...string) []string {
	t.Helper()
	line, err := javacmd.ParseJava("java", args, nil)
	if err != nil {
		t.Fatal(err)
	}
	return line.ModulePath
}
