package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFollowerReadsAsWritten: a file written in pieces, with pauses, by a
// writer that starts after the reader, is read whole, and the reader ends
// only once the writer has.
func TestFollowerReadsAsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profile.cct")
	done := make(chan struct{})
	var want bytes.Buffer
	go func() {
		defer close(done)
		time.Sleep(20 * time.Millisecond) // the reader waits for the file
		f, err := os.Create(path)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for i := 0; i < 20; i++ {
			line := strings.Repeat(string(rune('a'+i)), 1000+i) + "\n"
			want.WriteString(line)
			f.WriteString(line[:500])
			time.Sleep(2 * time.Millisecond) // a line cut where the reader may meet the end
			f.WriteString(line[500:])
		}
	}()
	r := followFile(path, done)
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	<-done
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("read %d bytes, want the %d written", len(got), want.Len())
	}
	r.Close() // as the page's writer does before weft profile asks
	if !r.Whole() {
		t.Error("Whole() = false for a file written once")
	}
}

// TestFollowerNoFile: a writer that ends without writing the file makes a
// read fail with fs.ErrNotExist, not wait for ever.
func TestFollowerNoFile(t *testing.T) {
	done := make(chan struct{})
	go func() {
		time.Sleep(10 * time.Millisecond)
		close(done)
	}()
	r := followFile(filepath.Join(t.TempDir(), "none"), done)
	if _, err := io.ReadAll(r); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
	if r.Whole() {
		t.Error("Whole() = true with no file")
	}
}

// TestFollowerRewritten: a file another writer cuts and writes again while
// it is read is not reported whole (weft profile then reads it afresh).
func TestFollowerRewritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profile.cct")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 4096)), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	r := followFile(path, done)
	buf := make([]byte, 4096)
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("short\n"), 0o644); err != nil { // a second JVM's, shorter
		t.Fatal(err)
	}
	close(done)
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if r.Whole() {
		t.Error("Whole() = true for a file rewritten while read")
	}
}
