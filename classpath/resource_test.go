package classpath

import (
	"archive/zip"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadResources reads resources of a directory and of a jar, as a
// class loader finds them; a missing entry and a file that is no jar have
// none.
func TestReadResources(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "META-INF"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "META-INF", "aop.xml"), []byte("dir"), 0o644)
	jar := filepath.Join(t.TempDir(), "a.jar")
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, text := range map[string]string{"org/aspectj/aop.xml": "jar", "META-INF/MANIFEST.MF": "m"} {
		w, _ := zw.Create(name)
		w.Write([]byte(text))
	}
	zw.Close()
	f.Close()
	notJar := filepath.Join(t.TempDir(), "x.txt")
	os.WriteFile(notJar, []byte("text"), 0o644)

	names := []string{"META-INF/aop.xml", "org/aspectj/aop.xml"}
	for _, c := range []struct {
		entry string
		want  map[string][]byte
	}{
		{dir, map[string][]byte{"META-INF/aop.xml": []byte("dir")}},
		{jar, map[string][]byte{"org/aspectj/aop.xml": []byte("jar")}},
		{notJar, nil},
		{filepath.Join(dir, "missing.jar"), nil},
	} {
		got, err := ReadResources(c.entry, names...)
		if err != nil || (len(got) > 0 || len(c.want) > 0) && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, %v; want %q", c.entry, got, err, c.want)
		}
	}
}
