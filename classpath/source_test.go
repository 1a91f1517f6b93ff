package classpath

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// testClasses compiles a few classes for the directory and jar sources.
func testClasses(t *testing.T) string {
	return jvmtest.Compile(t, map[string]string{
		"p/A.java": "package p; public class A implements Runnable, java.io.Serializable { public void run() {} }",
		"p/B.java": "package p; public class B extends A { class Inner {} }",
		"q/I.java": "package q; public interface I extends Comparable<I> {}",
	})
}

func jarOf(t *testing.T, dir string) string {
	jar := filepath.Join(t.TempDir(), "test.jar")
	cmd := exec.Command(filepath.Join(jvmtest.JavaHome(t), "bin", "jar"), "cf", jar, "-C", dir, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, out)
	}
	return jar
}

func walkPaths(t *testing.T, src Source) []string {
	var ps []string
	err := src.Walk(func(e ClassEntry) error {
		b, err := e.Read()
		if err != nil {
			return err
		}
		if _, err := classfile.Parse(e.Path, b); err != nil {
			return err
		}
		ps = append(ps, e.Module+":"+e.Path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ps)
	return ps
}

func TestDirAndJarSources(t *testing.T) {
	dir := testClasses(t)
	jar := jarOf(t, dir)
	want := []string{":p/A.class", ":p/B$Inner.class", ":p/B.class", ":q/I.class"}
	for _, spec := range []string{dir, jar} {
		src, err := OpenSource(spec, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := walkPaths(t, src); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Walk visits %v, want %v", spec, got, want)
		}
		b, err := src.Class("p/B$Inner")
		if err != nil {
			t.Fatal(err)
		}
		if c, err := classfile.Parse("", b); err != nil || c.Name() != "p/B$Inner" {
			t.Fatalf("%s: Class(p/B$Inner) parses as %v, %v", spec, c.Name(), err)
		}
		for _, missing := range []string{"p/Nope", "../etc/passwd", "java/lang/Object"} {
			if _, err := src.Class(missing); !errors.Is(err, classfile.ErrClassNotFound) {
				t.Errorf("%s: Class(%s) error %v, want classfile.ErrClassNotFound", spec, missing, err)
			}
		}
		if err := src.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenSourceSpecs(t *testing.T) {
	home := jvmtest.JavaHome(t)
	all, err := OpenSource("jdk:", home)
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	mods := all.(*ImageSource).Modules()
	if len(mods) < 20 || !slices.Contains(mods, "java.sql") {
		t.Fatalf("jdk: has modules %v", mods)
	}
	if _, err := all.Class("java/sql/Connection"); err != nil {
		t.Fatalf("jdk: Class(java/sql/Connection): %v", err)
	}

	two, err := OpenSource("jdk:java.base,java.logging", home)
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close()
	if _, err := two.Class("java/sql/Connection"); !errors.Is(err, classfile.ErrClassNotFound) {
		t.Fatalf("jdk:java.base,java.logging has java.sql's Connection: %v", err)
	}
	modules := map[string]bool{}
	n := 0
	two.Walk(func(e ClassEntry) error { modules[e.Module] = true; n++; return nil })
	if len(modules) != 2 || !modules["java.base"] || !modules["java.logging"] || n < 5000 {
		t.Fatalf("jdk:java.base,java.logging walks %d classes in modules %v", n, modules)
	}

	if _, err := OpenSource("jdk:no.such.module", home); err == nil || !strings.Contains(err.Error(), "no.such.module") {
		t.Fatalf("unknown module: error %v", err)
	}
	if _, err := OpenSource(filepath.Join(t.TempDir(), "missing.jar"), home); err == nil {
		t.Fatal("a missing jar opened")
	}
	notJar := filepath.Join(t.TempDir(), "x.jar")
	os.WriteFile(notJar, []byte("not a zip"), 0o644)
	if _, err := OpenSource(notJar, home); err == nil || !strings.Contains(err.Error(), notJar) {
		t.Fatalf("a corrupt jar: error %v, want one naming it", err)
	}

	h, err := DefaultJavaHome()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(h, "lib", "modules")); err != nil {
		t.Fatalf("DefaultJavaHome %s: %v", h, err)
	}
}

func TestSourceHierarchy(t *testing.T) {
	dir := testClasses(t)
	app, err := OpenSource(jarOf(t, dir), "")
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	jdk, err := OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer jdk.Close()
	h := NewHierarchy(app, jdk)
	var _ classfile.Hierarchy = h

	cases := map[string]classfile.ClassInfo{
		"p/B":                 {Name: "p/B", Super: "p/A", Access: classfile.AccPublic | classfile.AccSuper},
		"p/A":                 {Name: "p/A", Super: "java/lang/Object", Interfaces: []string{"java/lang/Runnable", "java/io/Serializable"}, Access: classfile.AccPublic | classfile.AccSuper},
		"q/I":                 {Name: "q/I", Super: "java/lang/Object", Interfaces: []string{"java/lang/Comparable"}, Access: classfile.AccPublic | classfile.AccInterface | classfile.AccAbstract},
		"java/lang/Object":    {Name: "java/lang/Object", Access: classfile.AccPublic | classfile.AccSuper},
		"java/util/ArrayList": {Name: "java/util/ArrayList", Super: "java/util/AbstractList", Interfaces: []string{"java/util/List", "java/util/RandomAccess", "java/lang/Cloneable", "java/io/Serializable"}, Access: classfile.AccPublic | classfile.AccSuper},
		"java/sql/Connection": {Name: "java/sql/Connection", Super: "java/lang/Object", Interfaces: []string{"java/sql/Wrapper", "java/lang/AutoCloseable"}, Access: classfile.AccPublic | classfile.AccInterface | classfile.AccAbstract},
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ { // concurrent first lookups
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, want := range cases {
				got, err := h.Lookup(name)
				if err != nil {
					t.Errorf("Lookup(%s): %v", name, err)
					continue
				}
				if !reflect.DeepEqual(*got, want) {
					t.Errorf("Lookup(%s) = %+v, want %+v", name, *got, want)
				}
			}
			if _, err := h.Lookup("p/Missing"); !errors.Is(err, classfile.ErrClassNotFound) {
				t.Errorf("Lookup(p/Missing): %v, want classfile.ErrClassNotFound", err)
			}
		}()
	}
	wg.Wait()
	a1, _ := h.Lookup("p/A")
	a2, _ := h.Lookup("p/A")
	if a1 != a2 {
		t.Error("Lookup does not cache")
	}
}

// OpenClassPath opens a class path's entries in order and fails on an
// entry that cannot be opened.
func TestOpenClassPath(t *testing.T) {
	dir := testClasses(t)
	jar := jarOf(t, dir)
	home := jvmtest.JavaHome(t)
	sep := string(filepath.ListSeparator)
	srcs, err := OpenClassPath(jar+sep+sep+dir, home)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range srcs {
		got = append(got, s.String())
		s.Close()
	}
	if want := []string{jar, dir}; !reflect.DeepEqual(got, want) {
		t.Errorf("OpenClassPath opened %v, want %v", got, want)
	}
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := OpenClassPath(dir+sep+missing, home); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing entry: error %v, want one naming it", err)
	}
}

// A jar entry whose header claims more than maxClassSize is refused
// before anything is allocated for it.
func TestReadZipEntryRefusesLargeEntries(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	// A forged header: 5 stored bytes claiming maxClassSize+1.
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "p/Big.class", Method: zip.Store,
		CompressedSize64: 5, UncompressedSize64: maxClassSize + 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("hello"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	jar := filepath.Join(t.TempDir(), "big.jar")
	if err := os.WriteFile(jar, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := OpenJar(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if _, err := src.Class("p/Big"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Class(p/Big) of %d bytes: error %v, want too large", maxClassSize+1, err)
	}
}

// TestReadZipEntryInflates: deflated entries read through inflateEntry
// are the bytes written; an entry whose data does not match its checksum,
// or whose size is forged, fails as archive/zip says (inflateEntry hands
// it over).
func TestReadZipEntryInflates(t *testing.T) {
	data := bytes.Repeat([]byte("java/lang/Object (Ljava/lang/String;)V "), 500)
	var deflated bytes.Buffer
	fw, _ := flate.NewWriter(&deflated, flate.DefaultCompression)
	fw.Write(data)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []struct {
		name      string
		crc, size uint32
	}{
		{"p/Good.class", crc32.ChecksumIEEE(data), uint32(len(data))},
		{"p/BadCRC.class", crc32.ChecksumIEEE(data) + 1, uint32(len(data))},
		{"p/BadSize.class", crc32.ChecksumIEEE(data), uint32(len(data)) - 1},
	} {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: e.crc,
			CompressedSize64: uint64(deflated.Len()), UncompressedSize64: uint64(e.size)})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(deflated.Bytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := inflateEntry(zr.File[0]); !ok || !bytes.Equal(b, data) {
		t.Fatalf("inflateEntry(p/Good.class): %v, equal %v", ok, bytes.Equal(b, data))
	}
	if b, err := ReadZipEntry("t.jar", zr.File[0]); err != nil || !bytes.Equal(b, data) {
		t.Fatalf("ReadZipEntry(p/Good.class): %v, equal %v", err, bytes.Equal(b, data))
	}
	for i, want := range []error{zip.ErrChecksum, zip.ErrFormat} {
		f := zr.File[i+1]
		if _, ok := inflateEntry(f); ok {
			t.Errorf("inflateEntry(%s) succeeded", f.Name)
		}
		if _, err := ReadZipEntry("t.jar", f); !errors.Is(err, want) || !strings.Contains(err.Error(), "t.jar: "+f.Name) {
			t.Errorf("ReadZipEntry(%s): %v, want %v naming the entry", f.Name, err, want)
		}
	}
}

// Exports lists a module's unqualified exports only.
func TestImageExports(t *testing.T) {
	jdk, err := OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer jdk.Close()
	pkgs, err := jdk.Exports("java.base")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pkgs, "java/util") || !slices.Contains(pkgs, "java/lang") {
		t.Errorf("java.base exports %v, lacks java/util or java/lang", pkgs)
	}
	if slices.Contains(pkgs, "jdk/internal/misc") {
		t.Errorf("java.base exports jdk/internal/misc to everyone: %v", pkgs)
	}
}
