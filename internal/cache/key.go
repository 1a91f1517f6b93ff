package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// KeyLen is the length of a key: hex digits of a SHA-256 sum, enough for
// the few entries one user makes.
const KeyLen = 20

// A Hasher computes an entry's key from its inputs: each is written with
// its kind and length, so that no two sequences of inputs hash alike.
type Hasher struct{ h hash.Hash }

// NewHasher returns a Hasher with no input.
func NewHasher() *Hasher { return &Hasher{sha256.New()} }

// String adds a string input.
func (k *Hasher) String(s string) *Hasher { return k.Bytes([]byte(s)) }

// Bytes adds an input.
func (k *Hasher) Bytes(b []byte) *Hasher {
	fmt.Fprintf(k.h, "b%d\x00", len(b))
	k.h.Write(b)
	return k
}

// Path adds the contents of a file, or a directory's files' names and
// contents in name order; nothing for a path that does not exist.
func (k *Hasher) Path(p string) *Hasher {
	fmt.Fprintf(k.h, "p%d\x00%s", len(p), p)
	filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		f, err := os.Open(q)
		if err != nil {
			return nil
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(p, q)
		fmt.Fprintf(k.h, "f%d\x00%s%d\x00", len(rel), rel, st.Size())
		io.Copy(k.h, f)
		return nil
	})
	return k
}

// Key returns the key of the inputs added.
func (k *Hasher) Key() string { return hex.EncodeToString(k.h.Sum(nil))[:KeyLen] }

// Key returns the key of the strings given.
func Key(inputs ...string) string {
	k := NewHasher()
	for _, s := range inputs {
		k.String(s)
	}
	return k.Key()
}
