package jdk

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// TestJmodHashAndDescriptor: a jmod written by writeJmod with a stock
// module's classes hashes as the JDK hashes modules (the hash java.base's
// descriptor records for it: jlink refuses a module whose hash differs),
// and the JDK's jmod tool reads it back; java.base's descriptor with the
// runtime's package added lists and exports it, and its recorded hashes
// take new values.
func TestJmodHashAndDescriptor(t *testing.T) {
	home := jvmtest.JavaHome(t)
	jmods := filepath.Join(home, "jmods")
	base, err := openJmod(filepath.Join(jmods, "java.base.jmod"))
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	info, err := base.read(classesSection + "module-info.class")
	if err != nil {
		t.Fatal(err)
	}
	mi, err := parseModuleInfo("java.base", info)
	if err != nil {
		t.Fatal(err)
	}
	hashed, err := mi.hashed()
	if err != nil {
		t.Fatal(err)
	}
	const tied = "java.transaction.xa" // a small module java.base records
	off, ok := hashed[tied]
	if !ok || len(hashed) < 20 {
		t.Fatalf("java.base records the hashes of %d modules, %s not among them", len(hashed), tied)
	}
	recorded := append([]byte(nil), mi.c.Attr(mi.c.Attributes, "ModuleHashes").Info[off:off+32]...)

	stock, err := openJmod(filepath.Join(jmods, tied+".jmod"))
	if err != nil {
		t.Fatal(err)
	}
	defer stock.Close()
	out, names := rewriteJmod(t, stock, tied, recorded)
	list, err := exec.Command(filepath.Join(home, "bin", "jmod"), "list", out).CombinedOutput()
	if err != nil {
		t.Fatalf("jmod list %s: %v\n%s", out, err, list)
	}
	want := []string{}
	for _, n := range names {
		want = append(want, classesSection+n)
	}
	for _, f := range stock.zr.File {
		if !strings.HasPrefix(f.Name, classesSection) {
			want = append(want, f.Name)
		}
	}
	got := strings.Fields(string(list))
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("jmod list of the rewritten jmod:\n%s\nwant:\n%s", got, want)
	}

	// The runtime's package, listed and exported; a new hash.
	if err := mi.addPackages([]string{rtnames.Package}, map[string]bool{rtnames.Package: true}); err != nil {
		t.Fatal(err)
	}
	if err := mi.setHashes(map[string][]byte{tied: bytes.Repeat([]byte{7}, 32)}); err != nil {
		t.Fatal(err)
	}
	again, err := parseModuleInfo("java.base", mi.bytes())
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := again.packages()
	if err != nil {
		t.Fatal(err)
	}
	if !pkgs[rtnames.Package] || !pkgs["java/lang"] {
		t.Errorf("packages after adding %s: %d, without it or java/lang", rtnames.Package, len(pkgs))
	}
	mod, err := again.c.FindAttr(again.c.Attributes, "Module")
	if err != nil {
		t.Fatal(err)
	}
	exported := false
	for _, e := range mod.(*classfile.Module).Exports {
		if again.c.Pool.Utf8(again.c.Pool.Get(e.Package).A) == rtnames.Package && len(e.To) == 0 {
			exported = true
		}
	}
	if !exported {
		t.Errorf("%s is not exported to every module", rtnames.Package)
	}
	h2, err := again.hashed()
	if err != nil {
		t.Fatal(err)
	}
	if got := again.c.Attr(again.c.Attributes, "ModuleHashes").Info[h2[tied] : h2[tied]+32]; !bytes.Equal(got, bytes.Repeat([]byte{7}, 32)) || len(h2) != len(hashed) {
		t.Errorf("hash of %s after setHashes: %x (%d modules hashed, was %d)", tied, got, len(h2), len(hashed))
	}
}

// rewriteJmod writes module m's jmod again, its classes unchanged, and
// checks its hash is the one java.base records (recorded). It returns the
// jmod's path and its classes section's names.
func rewriteJmod(t *testing.T, m stockModule, module string, recorded []byte) (string, []string) {
	t.Helper()
	var names []string
	for n := range m.classes() {
		names = append(names, n)
	}
	out := filepath.Join(t.TempDir(), module+".jmod")
	sum, err := writeJmod(out, m, names, func(n string) ([]byte, error) { return m.read(classesSection + n) })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sum, recorded) {
		t.Errorf("hash of the rewritten %s: %x, java.base records %x", module, sum, recorded)
	}
	return out, names
}
