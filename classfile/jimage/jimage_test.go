package jimage

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// listed is one line of `jimage list --verbose`.
type listed struct {
	module, name             string
	offset, size, compressed uint64
}

// jimageList runs the JDK's own jimage tool on file.
func jimageList(t *testing.T, file string) []listed {
	t.Helper()
	out, err := exec.Command(filepath.Join(jvmtest.JavaHome(t), "bin", "jimage"), jvmtest.ToolArgs("list", "--verbose", file)...).Output()
	if err != nil {
		t.Fatalf("jimage list %s: %v", file, err)
	}
	var ls []listed
	module := ""
	for _, line := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(line, "Module: "); ok {
			module = m
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 || module == "" {
			continue
		}
		var n [3]uint64
		ok := true
		for i := range n {
			v, err := strconv.ParseUint(f[i], 10, 64)
			n[i], ok = v, ok && err == nil
		}
		if ok {
			ls = append(ls, listed{module, f[3], n[0], n[1], n[2]})
		}
	}
	return ls
}

// checkAgainstJimageTool compares our entries with the jimage tool's list
// and reads every listed entry.
func checkAgainstJimageTool(t *testing.T, file string) *Image {
	t.Helper()
	img, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	es, err := img.Entries()
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]Entry{}
	for _, e := range es {
		if e.Module != "" && e.Module != "modules" && e.Module != "packages" {
			ours[e.Module+"/"+e.Name] = e
		}
	}
	want := jimageList(t, file)
	if len(want) < 100 || len(want) != len(ours) {
		t.Fatalf("jimage lists %d entries, we found %d", len(want), len(ours))
	}
	for _, w := range want {
		e, ok := ours[w.module+"/"+w.name]
		if !ok {
			t.Fatalf("jimage lists %s/%s, we do not", w.module, w.name)
		}
		if e.Offset != w.offset || e.UncompressedSize != w.size || e.CompressedSize != w.compressed {
			t.Fatalf("%s/%s: we have %+v, jimage says %+v", w.module, w.name, e, w)
		}
		found, err := img.Find(w.module, w.name)
		if err != nil || found != e {
			t.Fatalf("Find(%s, %s) = %+v, %v; want %+v", w.module, w.name, found, err, e)
		}
	}
	return img
}

func TestJDKImage(t *testing.T) {
	img := checkAgainstJimageTool(t, filepath.Join(jvmtest.JavaHome(t), "lib", "modules"))
	ms := img.Modules()
	if len(ms) < 20 || ms[0] > ms[len(ms)-1] {
		t.Fatalf("Modules() = %v", ms)
	}
	if i := sort.SearchStrings(ms, "java.base"); i == len(ms) || ms[i] != "java.base" {
		t.Fatalf("java.base not among %v", ms)
	}
	b, err := img.Read("java.base", "java/lang/Object.class")
	if err != nil || !bytes.HasPrefix(b, []byte{0xCA, 0xFE, 0xBA, 0xBE}) {
		t.Fatalf("Read java/lang/Object.class: %v (% x...)", err, b[:min(8, len(b))])
	}
	if _, err := img.Read("java.base", "java/lang/NoSuchClass.class"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read of a missing entry: %v, want fs.ErrNotExist", err)
	}
	if _, err := img.Read("java.sql", "java/lang/Object.class"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read in the wrong module: %v, want fs.ErrNotExist", err)
	}

	// Modules and Packages, which scan the index, agree with Entries.
	es, _ := img.Entries()
	var wantMods []string
	wantPkgs := map[string][]string{}
	for _, e := range es {
		if e.Name == "module-info.class" && e.Module != "" {
			wantMods = append(wantMods, e.Module)
		}
		if strings.HasSuffix(e.Name, ".class") {
			pkg := path.Dir(e.Name)
			if ms := wantPkgs[pkg]; len(ms) == 0 || ms[len(ms)-1] != e.Module {
				wantPkgs[pkg] = append(ms, e.Module)
			}
		}
	}
	if !slices.Equal(ms, wantMods) {
		t.Fatalf("Modules() = %v, want %v (from Entries)", ms, wantMods)
	}
	pkgs, err := img.Packages()
	if err != nil || len(pkgs) != len(wantPkgs) || len(pkgs["java/lang"]) != 1 {
		t.Fatalf("Packages(): %d packages, java/lang in %v, %v; want %d", len(pkgs), pkgs["java/lang"], err, len(wantPkgs))
	}
	for p, want := range wantPkgs {
		if !slices.Equal(pkgs[p], want) {
			t.Fatalf("Packages()[%q] = %v, want %v (from Entries)", p, pkgs[p], want)
		}
	}

	// Concurrent reads of every class, as the rewrite tool does.
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(es); i += 4 {
				b, err := img.ReadEntry(es[i])
				if err == nil && uint64(len(b)) != es[i].UncompressedSize {
					err = fmt.Errorf("%s: %d bytes, want %d", es[i].Name, len(b), es[i].UncompressedSize)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	if err := img.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := img.Read("java.base", "java/lang/Object.class"); err == nil {
		t.Fatal("Read after Close succeeded")
	}
}

// TestJlinkCompressed reads images that jlink compressed: "zip"
// (--compress=2) must give the same bytes as the stock image,
// "compact-cp" (--compress=1) must say it is unsupported.
func TestJlinkCompressed(t *testing.T) {
	home := jvmtest.JavaHome(t)
	stock, err := Open(filepath.Join(home, "lib", "modules"))
	if err != nil {
		t.Fatal(err)
	}
	defer stock.Close()
	jlink := func(compress string) string {
		out := filepath.Join(t.TempDir(), "image")
		cmd := exec.Command(filepath.Join(home, "bin", "jlink"), jvmtest.ToolArgs("--add-modules", "java.base",
			"--compress="+compress, "--output", out)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jlink --compress=%s: %v\n%s", compress, err, b)
		}
		return filepath.Join(out, "lib", "modules")
	}

	zipped := checkAgainstJimageTool(t, jlink("2"))
	es, _ := zipped.Entries()
	compressed, same := 0, 0
	for _, e := range es {
		if e.Module != "java.base" || !strings.HasSuffix(e.Name, ".class") {
			continue
		}
		if e.CompressedSize != 0 {
			compressed++
		}
		got, err := zipped.ReadEntry(e)
		if err != nil {
			t.Fatal(err)
		}
		want, err := stock.Read(e.Module, e.Name)
		if err != nil {
			t.Fatal(err)
		}
		// jlink's plugins may rewrite a few classes (module-info's
		// ModuleTarget/Hashes); all others are byte-identical.
		if bytes.Equal(got, want) {
			same++
		}
	}
	t.Logf("zip image: %d of %d java.base classes compressed, %d identical to the stock image", compressed, len(es), same)
	if compressed < 1000 || same < compressed-10 {
		t.Fatalf("zip image: %d compressed classes, %d identical", compressed, same)
	}

	// compact-cp only for java.lang's classes: the entry checked is
	// String's, and jlink compacting every class took three times as long.
	cp := checkAgainstJimageTool(t, jlink("1:filter=**/java/lang/*.class"))
	e, err := cp.Find("java.base", "java/lang/String.class")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.ReadEntry(e); e.CompressedSize == 0 || !errors.Is(err, ErrUnsupportedCompression) {
		t.Fatalf("compact-cp entry %+v: read error %v, want ErrUnsupportedCompression", e, err)
	}
}

// testResource is a resource for buildImage.
type testResource struct {
	module, name string
	content      []byte
	plugin       string // "" stored, "zip", or another plugin name (content stored as is)
}

// buildImage writes a modules image the way jlink does (ImageFileCreator,
// PerfectHashBuilder), small enough for unit tests and fuzz seeds.
func buildImage(order binary.ByteOrder, rs []testResource) []byte {
	var strs bytes.Buffer
	strIndex := map[string]uint32{}
	addStr := func(s string) uint32 {
		if i, ok := strIndex[s]; ok {
			return i
		}
		i := uint32(strs.Len())
		strs.WriteString(s)
		strs.WriteByte(0)
		strIndex[s] = i
		return i
	}
	addStr("")

	n := uint32(len(rs))
	var content, locs bytes.Buffer
	locOffsets := make([]uint32, n)
	for i, r := range rs {
		data := r.content
		var compressed uint64
		if r.plugin != "" {
			stored := data
			if r.plugin == "zip" {
				var z bytes.Buffer
				w := zlib.NewWriter(&z)
				w.Write(data)
				w.Close()
				stored = z.Bytes()
			}
			h := make([]byte, compressedHeaderSize)
			order.PutUint32(h, compressedMagic)
			order.PutUint64(h[4:], uint64(len(stored)))
			order.PutUint64(h[12:], uint64(len(data)))
			order.PutUint32(h[20:], addStr(r.plugin))
			order.PutUint32(h[24:], 0xFFFFFFFF)
			h[28] = 1
			data = append(h, stored...)
			compressed = uint64(len(data))
		}
		parent, file := path.Split(r.name)
		parent = strings.TrimSuffix(parent, "/")
		base, ext := file, ""
		if j := strings.LastIndexByte(file, '.'); j > 0 {
			base, ext = file[:j], file[j+1:]
		}
		attrs := [attrCount]uint64{
			attrModule:       uint64(addStr(r.module)),
			attrParent:       uint64(addStr(parent)),
			attrBase:         uint64(addStr(base)),
			attrExtension:    uint64(addStr(ext)),
			attrOffset:       uint64(content.Len()),
			attrCompressed:   compressed,
			attrUncompressed: uint64(len(r.content)),
		}
		locOffsets[i] = uint32(locs.Len())
		for kind := 1; kind < attrCount; kind++ {
			v := attrs[kind]
			if v == 0 {
				continue
			}
			nb := 0
			for x := v; x > 0xFF; x >>= 8 {
				nb++
			}
			locs.WriteByte(byte(kind<<3 | nb))
			for j := nb; j >= 0; j-- {
				locs.WriteByte(byte(v >> (8 * j)))
			}
		}
		locs.WriteByte(0)
		content.Write(data)
	}

	// Perfect hash: buckets of colliding names get a seed that spreads
	// them over free slots; single names get a direct (negative) index.
	redirect := make([]int32, n)
	slot := make([]int, n) // slot → resource+1
	buckets := make([][]int, n)
	for i, r := range rs {
		b := nameHash(hashSeed, r.module, r.name) % n
		buckets[b] = append(buckets[b], i)
	}
	order2 := make([]int, n)
	for i := range order2 {
		order2[i] = i
	}
	sort.SliceStable(order2, func(a, b int) bool { return len(buckets[order2[a]]) > len(buckets[order2[b]]) })
	free := 0
	for _, b := range order2 {
		members := buckets[b]
		switch {
		case len(members) > 1:
		seeds:
			for seed := uint32(1); ; seed++ {
				var used []uint32
				for _, m := range members {
					s := nameHash(seed, rs[m].module, rs[m].name) % n
					if slot[s] != 0 || containsU32(used, s) {
						continue seeds
					}
					used = append(used, s)
				}
				for k, m := range members {
					slot[used[k]] = m + 1
				}
				redirect[b] = int32(seed)
				break
			}
		case len(members) == 1:
			for slot[free] != 0 {
				free++
			}
			slot[free] = members[0] + 1
			redirect[b] = int32(-1 - free)
		}
	}

	var img bytes.Buffer
	u4 := func(v uint32) { binary.Write(&img, order, v) }
	u4(Magic)
	u4(MajorVersion<<16 | MinorVersion)
	u4(0)
	u4(n)
	u4(n)
	u4(uint32(locs.Len()))
	u4(uint32(strs.Len()))
	for _, r := range redirect {
		u4(uint32(r))
	}
	for _, s := range slot {
		u4(locOffsets[s-1])
	}
	img.Write(locs.Bytes())
	img.Write(strs.Bytes())
	img.Write(content.Bytes())
	return img.Bytes()
}

func containsU32(s []uint32, v uint32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func testResources() []testResource {
	var rs []testResource
	for i := 0; i < 40; i++ {
		rs = append(rs, testResource{module: "m.one", name: fmt.Sprintf("p/q/C%d.class", i),
			content: bytes.Repeat([]byte{byte(i)}, i*7)})
	}
	rs = append(rs,
		testResource{module: "m.two", name: "module-info.class", content: []byte("module two")},
		testResource{module: "m.two", name: "a/Zipped.class", content: bytes.Repeat([]byte("zipped! "), 300), plugin: "zip"},
		testResource{module: "m.two", name: "a/Shared.class", content: []byte("whatever"), plugin: "compact-cp"},
		testResource{module: "m.two", name: "META-INF/services/x.y.Z", content: []byte("a.b.C\n")},
	)
	return rs
}

func TestSyntheticImages(t *testing.T) {
	rs := testResources()
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		img, err := NewImage("test.jimage", buildImage(order, rs))
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if img.ByteOrder() != order {
			t.Fatalf("byte order %v, want %v", img.ByteOrder(), order)
		}
		for _, r := range rs {
			got, err := img.Read(r.module, r.name)
			if r.plugin == "compact-cp" {
				if !errors.Is(err, ErrUnsupportedCompression) {
					t.Fatalf("%v %s: error %v, want ErrUnsupportedCompression", order, r.name, err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, r.content) {
				t.Fatalf("%v %s: %q, %v; want %q", order, r.name, got, err, r.content)
			}
		}
		es, err := img.Entries()
		if err != nil || len(es) != len(rs) {
			t.Fatalf("%v: %d entries, %v", order, len(es), err)
		}
		if ms := img.Modules(); len(ms) != 1 || ms[0] != "m.two" {
			t.Fatalf("Modules() = %v, want [m.two] (the module with a module-info)", ms)
		}
	}
}

func TestMalformedImages(t *testing.T) {
	good := buildImage(binary.LittleEndian, testResources())
	le := binary.LittleEndian
	cases := []struct {
		name   string
		mutate func(b []byte) []byte
		open   bool // the index is fine, reading content fails
	}{
		{"empty", func(b []byte) []byte { return nil }, false},
		{"bad magic", func(b []byte) []byte { b[0] = 0; return b }, false},
		{"version", func(b []byte) []byte { le.PutUint32(b[4:], 2<<16); return b }, false},
		{"huge table", func(b []byte) []byte { le.PutUint32(b[16:], 0x7FFFFFFF); return b }, false},
		{"huge strings", func(b []byte) []byte { le.PutUint32(b[24:], 0xFFFFFFFF); return b }, false},
		{"truncated index", func(b []byte) []byte { return b[:headerSize+10] }, false},
		{"truncated content", func(b []byte) []byte { return b[:len(b)-100] }, true},
		{"bad location offset", func(b []byte) []byte {
			n := le.Uint32(b[16:])
			for i := uint32(0); i < n; i++ {
				le.PutUint32(b[headerSize+4*n+4*i:], 0x7FFFFFF0)
			}
			return b
		}, true},
	}
	for _, c := range cases {
		b := c.mutate(bytes.Clone(good))
		img, err := NewImage("bad.jimage", b)
		if !c.open {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Errorf("%s: NewImage error %v, want a *FormatError", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: NewImage: %v", c.name, err)
			continue
		}
		readAll := func() error {
			es, err := img.Entries()
			if err != nil {
				return err
			}
			for _, e := range es {
				if _, err := img.ReadEntry(e); err != nil {
					return err
				}
			}
			return nil
		}
		var fe *FormatError
		if err := readAll(); !errors.As(err, &fe) {
			t.Errorf("%s: reading all entries gave %v, want a *FormatError", c.name, err)
		}
	}
}

// TestSameBytesAsJimageExtract: every resource of the JDK's image reads as
// the bytes the JDK's own `jimage extract` writes for it, and the image
// has no resource that the tool does not extract.
func TestSameBytesAsJimageExtract(t *testing.T) {
	file := filepath.Join(jvmtest.JavaHome(t), "lib", "modules")
	dir := t.TempDir()
	if out, err := exec.Command(filepath.Join(jvmtest.JavaHome(t), "bin", "jimage"), jvmtest.ToolArgs("extract", "--dir", dir, file)...).CombinedOutput(); err != nil {
		t.Fatalf("jimage extract: %v\n%s", err, out)
	}
	img, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	extracted := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		module, name, _ := strings.Cut(filepath.ToSlash(rel), "/")
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := img.Read(module, name)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s/%s: %d bytes read differ from the %d bytes jimage extracts", module, name, len(got), len(want))
		}
		extracted++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	es, err := img.Entries()
	if err != nil {
		t.Fatal(err)
	}
	resources := 0
	for _, e := range es {
		if e.Module != "" && e.Module != "modules" && e.Module != "packages" {
			resources++
		}
	}
	if extracted < 20000 || extracted != resources {
		t.Fatalf("jimage extracted %d resources; the image has %d", extracted, resources)
	}
	t.Logf("%d resources identical to jimage extract's", extracted)
}
