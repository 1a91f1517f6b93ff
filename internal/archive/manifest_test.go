package archive

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classpath"
)

func TestSetManifestClassPath(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "app.jar")
	manifest := "Manifest-Version: 1.0\r\nClass-Path: lib/a.jar\r\n  lib/b.jar\r\nMain-Class: app.Main\r\n\r\nName: x\r\nClass-Path: keep\r\n\r\n"
	f, _ := os.Create(jar)
	zw := zip.NewWriter(f)
	w, _ := zw.Create("META-INF/MANIFEST.MF")
	w.Write([]byte(manifest))
	w, _ = zw.Create("app/Main.class")
	w.Write([]byte("class bytes"))
	zw.Close()
	f.Close()

	long := filepath.Join(dir, strings.Repeat("long-directory-name/", 4), "with space.jar")
	if err := SetManifestClassPath(jar, []string{"/cache/a.jar", long}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != 2 || zr.File[1].Name != "app/Main.class" {
		t.Fatalf("entries: %v", zr.File)
	}
	b, _ := classpath.ReadZipEntry("test.jar", zr.File[0])
	got := string(b)
	for _, line := range strings.Split(got, "\r\n") {
		if len(line) > 72 {
			t.Errorf("line of %d bytes: %q", len(line), line)
		}
	}
	joined := strings.ReplaceAll(got, "\r\n ", "")
	want := "Manifest-Version: 1.0\r\nClass-Path: file:///cache/a.jar file://" + filepath.ToSlash(strings.ReplaceAll(long, " ", "%20")) +
		"\r\nMain-Class: app.Main\r\n\r\nName: x\r\nClass-Path: keep\r\n\r\n"
	if joined != want {
		t.Errorf("manifest:\n%q\nwant (continuations joined):\n%q", joined, want)
	}
	if c, _ := classpath.ReadZipEntry("test.jar", zr.File[1]); string(c) != "class bytes" {
		t.Errorf("class entry %q", c)
	}
}

func TestManifestAttribute(t *testing.T) {
	jar := filepath.Join(t.TempDir(), "a.jar")
	f, _ := os.Create(jar)
	zw := zip.NewWriter(f)
	w, _ := zw.Create("META-INF/MANIFEST.MF")
	w.Write([]byte("Manifest-Version: 1.0\r\nclass-path: lib/a.jar\r\n  lib/b.jar\r\nAutomatic-Module-Name: org.x\r\n\r\nName: y\r\nMain-Class: Not.Main\r\n"))
	zw.Close()
	f.Close()
	for name, want := range map[string]string{"Class-Path": "lib/a.jar lib/b.jar", "Automatic-Module-Name": "org.x", "Main-Class": ""} {
		if got := ManifestAttribute(jar, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if got := ManifestAttribute(filepath.Join(t.TempDir(), "none.jar"), "Class-Path"); got != "" {
		t.Errorf("a missing jar: %q", got)
	}
}
