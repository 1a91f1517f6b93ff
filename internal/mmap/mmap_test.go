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

// TestGuardShrunkFile: reading a mapping past the end its file has after
// a truncation returns ErrShrank under Guard instead of ending the
// program; reading what is left works; a fault outside the mapping (a
// defect) still panics.
func TestGuardShrunkFile(t *testing.T) {
	const size = 1 << 16
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, bytes.Repeat([]byte{7}, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	data, unmap, err := File(f, size)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer unmap()
	if err := os.Truncate(p, 4096); err != nil {
		t.Fatal(err)
	}
	var got byte
	if err := Guard(data, func() error { got = data[100]; return nil }); err != nil || got != 7 {
		t.Errorf("reading the part left: %d, %v", got, err)
	}
	if err := Guard(data, func() error { got = data[size-1]; return nil }); err != ErrShrank {
		t.Errorf("reading past the new end: %v, want ErrShrank", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a nil dereference under Guard did not panic")
		}
	}()
	var nilPtr *[8]byte
	Guard(data, func() error { got = nilPtr[3]; return nil })
}
