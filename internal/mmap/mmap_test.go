package mmap

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestFile(t *testing.T) {
	for _, want := range [][]byte{[]byte("a jar's bytes\x00\xff"), {}} {
		p := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		data, unmap, err := File(f, int64(len(want)))
		f.Close() // the mapping outlives the descriptor
		if err != nil {
			t.Fatalf("%d bytes: %v", len(want), err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("mapped %q, want %q", data, want)
		}
		if err := unmap(); err != nil {
			t.Errorf("%d bytes: unmap: %v", len(want), err)
		}
	}
}
