package archive

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteClasses: a jar starts with its manifest, then the classes in
// name order; a class tree holds the same classes.
func TestWriteClasses(t *testing.T) {
	classes := map[string][]byte{"b/C": []byte("c"), "a/B": []byte("b"), "A": []byte("a")}
	for _, kind := range []Kind{Jar, Dir} {
		path := filepath.Join(t.TempDir(), "rt")
		if kind == Jar {
			path += ".jar"
		}
		if err := WriteClasses(path, kind, classes); err != nil {
			t.Fatal(err)
		}
		in, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range in.Entries {
			if strings.HasSuffix(e.Name, "/") {
				continue // a directory of the tree
			}
			names = append(names, e.Name)
			if b, err := e.Read(); err != nil || strings.HasSuffix(e.Name, ".class") && string(b) != string(classes[strings.TrimSuffix(e.Name, ".class")]) {
				t.Errorf("%s: %s: %q, %v", path, e.Name, b, err)
			}
		}
		in.Close()
		want := "A.class a/B.class b/C.class"
		if kind == Jar {
			want = "META-INF/MANIFEST.MF " + want
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s: entries %s, want %s", path, got, want)
		}
	}
	if err := WriteClasses(filepath.Join(t.TempDir(), "x.class"), Class, classes); err == nil {
		t.Error("WriteClasses to a single class file: no error")
	}
}
