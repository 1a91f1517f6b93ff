package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunLeavesMisplacedClasses: a class stored under a path that is not
// its name's (Jython's Lib/encodings/__init__$py.class holds encodings$py),
// nor in a directory the end of it (a package's directory), is copied
// unchanged and not numbered, in a jar and in a directory, and
// one warning counts such classes and names the first: no loader would
// find a sister class added beside it. Weaving it wrote the sister where
// no loader looked it up (NoClassDefFoundError at the class's first join
// point), and two such classes' sisters onto one entry.
func TestRunLeavesMisplacedClasses(t *testing.T) {
	b, c := classes(t)
	files := map[string][]byte{"Lib/a/__init__.class": b, "Lib/a/other.class": b, "a/C.class": c}
	change := map[string]bool{"Lib/a/__init__.class": true, "Lib/a/other.class": true, "a/C.class": true}

	jar := filepath.Join(t.TempDir(), "in.jar")
	writeZip(t, jar, []zipEntry{{"Lib/a/__init__.class", b, 8}, {"Lib/a/other.class", b, 8}, {"a/C.class", c, 8}})
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A package's directory holds its classes at the end of their names'
	// paths: woven, their added classes beside them.
	pkg := &testTransform{change: map[string]bool{"C.class": true}}
	src, err := Open(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(src, t.TempDir(), pkg, Options{})
	src.Close()
	if err != nil || rep.Changed != 1 || len(rep.Warnings) != 0 || strings.Join(pkg.numbered, " ") != "C.class" {
		t.Errorf("a package's directory: %v, report %+v, numbered %q", err, rep, pkg.numbered)
	}

	for _, in := range []string{jar, dir} {
		tr := &testTransform{change: change}
		src, err := Open(in)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		if in == jar {
			out += ".jar"
		}
		rep, err := Run(src, out, tr, Options{})
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(tr.numbered, " "); got != "a/C.class" {
			t.Errorf("%s: numbered %q, want a/C.class alone", in, got)
		}
		if rep.Changed != 1 || len(rep.Warnings) != 1 ||
			!strings.Contains(rep.Warnings[0], "2 classes stored under paths other than their names copied unchanged (Lib/a/__init__.class holds a/B, Lib/a/other.class holds a/B)") {
			t.Errorf("%s: report %+v", in, rep)
		}
		back, err := Open(out)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range back.Entries {
			data, err := e.Read()
			if err != nil {
				t.Fatal(err)
			}
			if want, ok := files[e.Name]; ok && e.Name != "a/C.class" && !bytes.Equal(data, want) {
				t.Errorf("%s: %s changed", in, e.Name)
			}
			if !e.IsDir() {
				names = append(names, e.Name)
			}
		}
		back.Close()
		// a/C.class's extra (the test transform names it a/B$x) alone.
		if got := strings.Join(names, " "); strings.Count(got, "$x.class") != 1 || strings.Contains(got, "Lib/a/B$x") {
			t.Errorf("%s: entries %s, want one extra class, a/C.class's", in, got)
		}
	}
}
