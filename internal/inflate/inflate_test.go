package inflate

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"math/rand"
	"testing"
)

// stdInflate is compress/flate's answer: the bytes, and whether it
// decoded the stream without error.
func stdInflate(src []byte) ([]byte, bool) {
	b, err := io.ReadAll(flate.NewReader(bytes.NewReader(src)))
	return b, err == nil
}

func deflate(t testing.TB, data []byte, level int) []byte {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// samples are inputs for every block type: empty, short (fixed codes),
// text-like with long matches and overlapping runs (dynamic codes),
// random bytes (stored blocks at level 0, Huffman only at -2).
func samples() [][]byte {
	r := rand.New(rand.NewSource(1))
	random := make([]byte, 100_000)
	r.Read(random)
	var text bytes.Buffer
	for text.Len() < 300_000 {
		text.WriteString([]string{"java/lang/Object", "(Ljava/lang/String;)V", "<init>", "Code", "\x00\x01\x02"}[r.Intn(5)])
		if r.Intn(50) == 0 {
			text.Write(bytes.Repeat([]byte{byte(r.Intn(256))}, r.Intn(300)))
		}
	}
	return [][]byte{nil, []byte("a"), []byte("hello, hello, hello"), bytes.Repeat([]byte("ab"), 70_000), random, text.Bytes()}
}

// TestDecodeAgreesWithFlate decodes what compress/flate wrote, at every
// level, and every deflated entry of the jars at hand (written by other
// compressors: zlib through the jar tool), as compress/flate does.
func TestDecodeAgreesWithFlate(t *testing.T) {
	for i, data := range samples() {
		for _, level := range []int{flate.HuffmanOnly, flate.NoCompression, flate.BestSpeed, 5, flate.BestCompression} {
			src := deflate(t, data, level)
			dst := make([]byte, len(data))
			if err := Decode(dst, src); err != nil || !bytes.Equal(dst, data) {
				t.Fatalf("sample %d, level %d: %v, output equal: %v", i, level, err, bytes.Equal(dst, data))
			}
			// One byte more or less than the stream holds is an error.
			if err := Decode(make([]byte, len(data)+1), src); err == nil {
				t.Fatalf("sample %d, level %d: decoded into a buffer one byte too long", i, level)
			}
			if len(data) > 0 {
				if err := Decode(make([]byte, len(data)-1), src); err == nil {
					t.Fatalf("sample %d, level %d: decoded into a buffer one byte too short", i, level)
				}
			}
		}
	}
	entries := 0
	for _, jar := range []string{"/usr/share/java/guava.jar", "/usr/share/java/commons-lang3.jar", "/usr/share/java/aspectjweaver.jar"} {
		zr, err := zip.OpenReader(jar)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			if f.Method != zip.Deflate {
				continue
			}
			r, err := f.OpenRaw()
			if err != nil {
				t.Fatal(err)
			}
			src, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			want, ok := stdInflate(src)
			if !ok {
				t.Fatalf("%s!%s: compress/flate fails", jar, f.Name)
			}
			got := make([]byte, f.UncompressedSize64)
			if err := Decode(got, src); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s!%s: %v, output equal: %v", jar, f.Name, err, bytes.Equal(got, want))
			}
			entries++
		}
		zr.Close()
	}
	if entries < 3000 {
		t.Fatalf("only %d jar entries decoded", entries)
	}
}

// TestDecodeCorrupt: truncated and damaged streams fail, or decode to
// what compress/flate makes of them; nothing panics.
func TestDecodeCorrupt(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i, data := range samples() {
		src := deflate(t, data, 6)
		for cut := 0; cut < len(src); cut += 1 + len(src)/50 {
			if err := Decode(make([]byte, len(data)), src[:cut]); err == nil {
				t.Fatalf("sample %d cut at %d of %d bytes: no error", i, cut, len(src))
			}
		}
		for k := 0; k < 200 && len(src) > 0; k++ {
			bad := bytes.Clone(src)
			bad[r.Intn(len(bad))] ^= byte(1 + r.Intn(255))
			checkLikeFlate(t, bad, len(data))
		}
	}
	// Invalid block type, stored block length check, distance too far.
	for _, src := range [][]byte{{0x07}, {0x01, 0x05, 0x00, 0x00, 0x00}, {0x63, 0x00, 0x42, 0x00}} {
		if err := Decode(make([]byte, 16), src); err == nil {
			t.Fatalf("% x: no error", src)
		}
	}
}

// checkLikeFlate: where compress/flate decodes src to exactly size bytes,
// Decode must give the same bytes (it may accept more, e.g. incomplete
// codes: its callers check a CRC).
func checkLikeFlate(t *testing.T, src []byte, size int) {
	t.Helper()
	got := make([]byte, size)
	err := Decode(got, src)
	if want, ok := stdInflate(src); ok && len(want) == size && (err != nil || !bytes.Equal(got, want)) {
		t.Fatalf("% x: %v, output equal to compress/flate's: %v", src, err, bytes.Equal(got, want))
	}
}

func FuzzDecode(f *testing.F) {
	for _, data := range samples()[:4] {
		f.Add(deflate(f, data, 6), len(data))
	}
	f.Fuzz(func(t *testing.T, src []byte, size int) {
		if size < 0 || size > 1<<20 {
			return
		}
		checkLikeFlate(t, src, size)
	})
}

// BenchmarkDecode inflates guava's classes.
func BenchmarkDecode(b *testing.B) {
	zr, err := zip.OpenReader("/usr/share/java/guava.jar")
	if err != nil {
		b.Fatal(err)
	}
	defer zr.Close()
	var srcs, dsts [][]byte
	size := 0
	for _, f := range zr.File {
		if f.Method == zip.Deflate {
			r, _ := f.OpenRaw()
			src, _ := io.ReadAll(r)
			srcs, dsts = append(srcs, src), append(dsts, make([]byte, f.UncompressedSize64))
			size += int(f.UncompressedSize64)
		}
	}
	b.Run("inflate", func(b *testing.B) {
		b.SetBytes(int64(size))
		for i := 0; i < b.N; i++ {
			for k := range srcs {
				Decode(dsts[k], srcs[k])
			}
		}
	})
	b.Run("compress-flate", func(b *testing.B) {
		b.SetBytes(int64(size))
		fr := flate.NewReader(nil)
		br := bytes.NewReader(nil)
		for i := 0; i < b.N; i++ {
			for k := range srcs {
				br.Reset(srcs[k])
				fr.(flate.Resetter).Reset(br, nil)
				io.ReadFull(fr, dsts[k])
			}
		}
	})
}
