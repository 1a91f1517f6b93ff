package cache

import (
	"os"
	"path/filepath"
)

// Root returns the cache's directory: $WEFT_CACHE, else the user cache
// directory's weft/ (the temporary directory's if there is none).
func Root() string {
	if d := os.Getenv("WEFT_CACHE"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "weft")
}

// SharedDir is the directory, in a store at root, of what is compiled
// from weft's own sources and the facts kept about JDKs: ROOT/rt.
func SharedDir(root string) string { return filepath.Join(root, sharedName) }

const sharedName = "rt"

// A Store is the cache under one root.
type Store struct {
	root string
}

// Open returns the store at root (Root() if ""); it creates nothing until
// an entry is made.
func Open(root string) *Store {
	if root == "" {
		root = Root()
	}
	return &Store{root: root}
}

// Dir returns the store's root.
func (s *Store) Dir() string { return s.root }

// Shared returns the store's rt directory (SharedDir).
func (s *Store) Shared() string { return SharedDir(s.root) }

// EntryDir returns the directory of the entry kind-key.
func (s *Store) EntryDir(kind, key string) string { return filepath.Join(s.root, kind+"-"+key) }
