package archive

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// marker is what the test transform appends to the classes it changes.
const marker = "//changed"

// testTransform changes the classes named in change (by entry name),
// adding a class <name>$x next to each, and records the order Number sees
// the classes in.
type testTransform struct {
	change   map[string]bool
	mu       sync.Mutex
	numbered []string
}

type testPending struct {
	t    *testTransform
	name string
	data []byte
}

func (t *testTransform) Begin(e *Entry, data []byte) Pending {
	return &testPending{t: t, name: e.Name, data: data}
}

func (p *testPending) Number() {
	p.t.mu.Lock()
	p.t.numbered = append(p.t.numbered, p.name)
	p.t.mu.Unlock()
}

func (p *testPending) Finish() *Output {
	if !p.t.change[p.name] {
		return nil
	}
	return &Output{Class: append(p.data, marker...), Extra: map[string][]byte{"a/B$x": []byte("extra")}}
}

var compiled struct {
	sync.Mutex
	b, c []byte
}

// classes compiles a/B and a/C (once per run).
func classes(t *testing.T) (b, c []byte) {
	compiled.Lock()
	defer compiled.Unlock()
	if compiled.b == nil {
		dir := jvmtest.Compile(t, map[string]string{
			"a/B.java": "package a; public class B {}",
			"a/C.java": "package a; public class C {}",
		})
		var err error
		if b, err = os.ReadFile(filepath.Join(dir, "a/B.class")); err != nil {
			t.Fatal(err)
		}
		if c, err = os.ReadFile(filepath.Join(dir, "a/C.class")); err != nil {
			t.Fatal(err)
		}
		compiled.b, compiled.c = b, c
	}
	return compiled.b, compiled.c
}

type zipEntry struct {
	name   string
	data   []byte
	method uint16
}

func writeZip(t *testing.T, path string, entries []zipEntry) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	zw.SetComment("kept")
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunJar: a jar's entries come out in input order, changed classes
// followed by their extra classes (in the same versions directory for a
// multi-release jar), the others copied raw; classes are numbered in
// input order; a stale copy of a class is left alone; a signed jar is
// warned about; the comment is kept.
func TestRunJar(t *testing.T) {
	b, c := classes(t)
	res := bytes.Repeat([]byte("resource "), 100)
	in := filepath.Join(t.TempDir(), "in.jar")
	writeZip(t, in, []zipEntry{
		{"META-INF/", nil, zip.Store},
		{"META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\r\n\r\n"), zip.Deflate},
		{"META-INF/APP.SF", []byte("signature"), zip.Deflate},
		{"a/B.class", b, zip.Deflate},
		{"a/data.txt", res, zip.Deflate},
		{"a/C.class", c, zip.Deflate},
		{"META-INF/versions/11/a/B.class", b, zip.Deflate},
		{"old/a/B.class", b, zip.Deflate},
	})
	tr := &testTransform{change: map[string]bool{"a/B.class": true, "META-INF/versions/11/a/B.class": true, "old/a/B.class": true}}
	src, err := Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	out := filepath.Join(t.TempDir(), "sub", "out.jar")
	rep, err := Run(src, out, tr, Options{Store: true, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Classes != 4 || rep.Changed != 2 || rep.Copied != 4 {
		t.Errorf("report %+v, want 4 classes, 2 changed, 4 copied", rep)
	}
	warns := strings.Join(rep.Warnings, "\n")
	if len(rep.Warnings) != 2 || !strings.Contains(warns, "old/a/B.class: copied unchanged: a copy of class a/B, whose own entry is a/B.class") ||
		!strings.Contains(warns, "signed jar (META-INF/APP.SF)") {
		t.Errorf("warnings:\n%s", warns)
	}
	if got := strings.Join(tr.numbered, " "); got != "a/B.class a/C.class META-INF/versions/11/a/B.class" {
		t.Errorf("numbered %s, want the classes in input order but the stale copy", got)
	}

	inZ, err := zip.OpenReader(in)
	if err != nil {
		t.Fatal(err)
	}
	defer inZ.Close()
	outZ, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer outZ.Close()
	var names []string
	for _, f := range outZ.File {
		names = append(names, f.Name)
	}
	want := "META-INF/ META-INF/MANIFEST.MF META-INF/APP.SF a/B.class a/B$x.class a/data.txt a/C.class " +
		"META-INF/versions/11/a/B.class META-INF/versions/11/a/B$x.class old/a/B.class"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("entries\n%s\nwant\n%s", got, want)
	}
	if outZ.Comment != "kept" {
		t.Errorf("comment %q", outZ.Comment)
	}
	raw := func(f *zip.File) []byte {
		r, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	byName := map[string]*zip.File{}
	for _, f := range inZ.File {
		byName[f.Name] = f
	}
	for _, f := range outZ.File {
		switch f.Name {
		case "a/B.class", "META-INF/versions/11/a/B.class":
			if f.Method != zip.Store || !bytes.Equal(raw(f), append(append([]byte{}, b...), marker...)) {
				t.Errorf("%s: method %d, not the changed class stored", f.Name, f.Method)
			}
		case "a/B$x.class", "META-INF/versions/11/a/B$x.class":
			if !bytes.Equal(raw(f), []byte("extra")) {
				t.Errorf("%s: not the extra class", f.Name)
			}
		case "META-INF/":
		default: // copied raw, still compressed
			g := byName[f.Name]
			if f.Method != g.Method || f.CRC32 != g.CRC32 || !bytes.Equal(raw(f), raw(g)) {
				t.Errorf("%s: not copied raw", f.Name)
			}
		}
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".weft-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestPrefetch: a jar Prefetch read (in full, here) gives Open its
// class entries, once; Run then writes the same bytes as from a plain
// Open, and the unchanged Read reads again after the first.
func TestPrefetch(t *testing.T) {
	b, c := classes(t)
	in := filepath.Join(t.TempDir(), "in.jar")
	writeZip(t, in, []zipEntry{
		{"META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\r\n\r\n"), zip.Deflate},
		{"a/B.class", b, zip.Deflate},
		{"a/data.txt", []byte("resource"), zip.Deflate},
		{"a/C.class", c, zip.Store},
	})
	var outs [2][]byte
	for i := range outs {
		if i == 1 {
			Prefetch(filepath.Join(t.TempDir(), "missing.jar"))
			Prefetch(in)
			v, ok := prefetched.Load(in)
			if !ok {
				t.Fatal("Prefetch did not open the jar")
			}
			<-v.(*prefetcher).done // all read
		}
		src, err := Open(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, left := prefetched.Load(in); left {
			t.Error("Open left the prefetched jar for another")
		}
		for _, e := range src.Entries {
			if e.prefetched != (i == 1 && e.IsClass()) {
				t.Errorf("open %d: %s prefetched %v", i, e.Name, e.prefetched)
			}
		}
		if i == 1 {
			first, err1 := src.Entries[1].Read()
			again, err2 := src.Entries[1].Read()
			if err1 != nil || err2 != nil || !bytes.Equal(first, b) || !bytes.Equal(again, b) {
				t.Errorf("a/B.class read %d bytes (%v), then %d (%v), want %d twice", len(first), err1, len(again), err2, len(b))
			}
			src.Entries[1].prefetched, src.Entries[1].pre = true, first // as Prefetch left it
		}
		out := filepath.Join(t.TempDir(), "out.jar")
		tr := &testTransform{change: map[string]bool{"a/B.class": true}}
		if _, err := Run(src, out, tr, Options{Store: true}); err != nil {
			t.Fatal(err)
		}
		src.Close()
		if outs[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("the prefetched jar's output differs from the plain one's")
	}
}

// TestRunKeepsCompression: without Options.Store, a changed class keeps
// its entry's compression (deflated by the worker that changed it).
func TestRunKeepsCompression(t *testing.T) {
	b, _ := classes(t)
	in := filepath.Join(t.TempDir(), "in.jar")
	writeZip(t, in, []zipEntry{{"a/B.class", b, zip.Deflate}})
	src, err := Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	out := filepath.Join(t.TempDir(), "out.jar")
	if _, err := Run(src, out, &testTransform{change: map[string]bool{"a/B.class": true}}, Options{}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	f := zr.File[0]
	r, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if f.Method != zip.Deflate || f.CompressedSize64 >= f.UncompressedSize64 || !bytes.HasSuffix(got, []byte(marker)) {
		t.Errorf("method %d, %d of %d bytes, changed %v", f.Method, f.CompressedSize64, f.UncompressedSize64, bytes.HasSuffix(got, []byte(marker)))
	}
}

// TestRunDirAndClassFile: a directory becomes a directory (empty
// directories kept), a class file a class file, or a file in a directory
// output, its extra class next to it.
func TestRunDirAndClassFile(t *testing.T) {
	b, c := classes(t)
	dir := t.TempDir()
	for name, data := range map[string][]byte{"a/B.class": b, "a/C.class": c, "a/data.txt": []byte("res")} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	tr := &testTransform{change: map[string]bool{"a/B.class": true, "B.class": true}}
	src, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := Run(src, out, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Classes != 2 || rep.Changed != 1 || rep.Copied != 2 {
		t.Errorf("report %+v", rep)
	}
	for name, want := range map[string][]byte{"a/B.class": append(append([]byte{}, b...), marker...), "a/B$x.class": []byte("extra"),
		"a/C.class": c, "a/data.txt": []byte("res")} {
		if got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name))); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, or not the expected bytes", name, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(out, "empty")); err != nil || !fi.IsDir() {
		t.Errorf("empty directory not kept: %v", err)
	}

	class := filepath.Join(dir, "a", "B.class")
	for _, o := range []struct{ out, class, extra string }{
		{filepath.Join(out, "woven", "New.class"), filepath.Join(out, "woven", "New.class"), filepath.Join(out, "woven", "B$x.class")},
		{out, filepath.Join(out, "B.class"), filepath.Join(out, "B$x.class")},
	} {
		os.MkdirAll(filepath.Dir(o.out), 0o755)
		src, err := Open(class)
		if err != nil {
			t.Fatal(err)
		}
		if src.Kind != Class || len(src.Entries) != 1 || src.Entries[0].Name != "B.class" {
			t.Fatalf("class file listed as %v %d entries", src.Kind, len(src.Entries))
		}
		if _, err := Run(src, o.out, tr, Options{}); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(o.class); err != nil || !bytes.HasSuffix(got, []byte(marker)) {
			t.Errorf("%s: %v, or not the changed class", o.class, err)
		}
		if got, err := os.ReadFile(o.extra); err != nil || string(got) != "extra" {
			t.Errorf("%s: %v, or not the extra class", o.extra, err)
		}
	}
}

// TestRunErrorsNameTheOutput: when the output cannot be written, the
// error names it as the caller did, never the temporary file.
func TestRunErrorsNameTheOutput(t *testing.T) {
	b, _ := classes(t)
	in := filepath.Join(t.TempDir(), "in.jar")
	writeZip(t, in, []zipEntry{{"a/B.class", b, zip.Deflate}})
	busy := t.TempDir() // an existing directory in the way
	os.WriteFile(filepath.Join(busy, "f"), nil, 0o644)
	// /proc takes no new files, even from root.
	for _, out := range []string{busy, "/proc/weft-test-out.jar"} {
		src, err := Open(in)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Run(src, out, &testTransform{}, Options{})
		src.Close()
		if err == nil || !strings.Contains(err.Error(), out) || strings.Contains(err.Error(), ".weft-") {
			t.Errorf("writing %s: error %v, want one naming it and no temporary file", out, err)
		}
	}
}

// TestRunJarTruncatedWhileOpen: a jar rewritten shorter after Open (its
// mapping then ends before its pages) makes Run and Read fail with an
// error naming the jar, the entry and why, instead of ending the process
// with SIGBUS.
func TestRunJarTruncatedWhileOpen(t *testing.T) {
	b, c := classes(t)
	in := filepath.Join(t.TempDir(), "in.jar")
	writeZip(t, in, []zipEntry{
		{"a/B.class", b, zip.Store},
		{"a/data.bin", bytes.Repeat([]byte("resource "), 1<<14), zip.Store},
		{"a/C.class", c, zip.Store},
	})
	for _, run := range []bool{false, true} {
		src, err := Open(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(in, 4096); err != nil {
			t.Fatal(err)
		}
		if run {
			_, err = Run(src, filepath.Join(t.TempDir(), "out.jar"), &testTransform{}, Options{Workers: 2})
		} else {
			_, err = src.Entries[2].Read()
		}
		src.Close()
		if err == nil || !strings.Contains(err.Error(), in) || !strings.Contains(err.Error(), "shrank") {
			t.Errorf("run %v: error %v, want one naming %s and saying it shrank", run, err, in)
		}
		writeZip(t, in, []zipEntry{
			{"a/B.class", b, zip.Store},
			{"a/data.bin", bytes.Repeat([]byte("resource "), 1<<14), zip.Store},
			{"a/C.class", c, zip.Store},
		})
	}
}
