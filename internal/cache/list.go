package cache

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Info is what List tells of an entry.
type Info struct {
	Kind, Key string
	Dir       string
	Meta      *Meta // nil: none (being made, or made by an older weft)
	Size      int64 // its files' bytes
	LastUse   time.Time
	InUse     bool // in use or being made by a process
}

// ErrInUse is Remove's error for an entry in use or being made.
var ErrInUse = errors.New("in use")

// List returns the store's entries, least recently used first.
func (s *Store) List() ([]Info, error) {
	ents, err := os.ReadDir(s.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range ents {
		n := e.Name()
		switch {
		case e.IsDir() && n != sharedName && !strings.HasPrefix(n, "."):
			names[n] = true
		case strings.HasSuffix(n, metaExt):
			names[strings.TrimSuffix(n, metaExt)] = true
		}
	}
	var out []Info
	for n := range names {
		out = append(out, s.info(n))
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].LastUse.Equal(out[j].LastUse) {
			return out[i].LastUse.Before(out[j].LastUse)
		}
		return out[i].Dir < out[j].Dir
	})
	return out, nil
}

// info returns the Info of the entry named name.
func (s *Store) info(name string) Info {
	dir := filepath.Join(s.root, name)
	kind, key, _ := strings.Cut(name, "-")
	i := Info{Kind: kind, Key: key, Dir: dir, Meta: readMeta(dir + metaExt), Size: DiskSize(dir)}
	if st, err := os.Stat(dir + metaExt); err == nil {
		i.LastUse = st.ModTime()
	} else if st, err := os.Stat(dir); err == nil {
		i.LastUse = st.ModTime()
	}
	i.InUse = busy(dir+useExt) || busy(dir+lockExt)
	return i
}

// DiskSize returns the bytes of the regular files under p (p itself if a
// file); symbolic links are not followed.
func DiskSize(p string) int64 {
	var n int64
	filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// Remove removes the entry, unless a process uses it or is making it
// (ErrInUse).
func (s *Store) Remove(i Info) error {
	lk, err := lockPath(i.Dir+lockExt, syscall.LOCK_EX, false)
	if err == errBusy {
		return ErrInUse
	} else if err != nil {
		return err
	}
	defer lk.Close()
	use, err := lockPath(i.Dir+useExt, syscall.LOCK_EX, false)
	if err == errBusy {
		return ErrInUse
	} else if err != nil {
		return err
	}
	defer use.Close()
	// The record first: what is left if removal stops half way is an
	// unfinished entry, remade when next used.
	if err := os.Remove(i.Dir + metaExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.RemoveAll(i.Dir); err != nil {
		return err
	}
	os.Remove(i.Dir + useExt)
	os.Remove(i.Dir + lockExt)
	return nil
}

// PruneOptions says which entries Prune removes (those not in use only).
type PruneOptions struct {
	// Max, if at least 0, is the size to bring the store under, removing
	// the least recently used entries first.
	Max int64
	// OlderThan, if not 0: remove the entries last used longer ago.
	OlderThan time.Duration
	// All: remove every entry, the rt directory and any other file.
	All bool
}

// Prune removes the entries opts says, except those in use, and returns
// those it removed and the store's size after.
func (s *Store) Prune(opts PruneOptions) (removed []Info, size int64, err error) {
	ents, err := s.List()
	if err != nil {
		return nil, 0, err
	}
	size = DiskSize(s.Shared())
	for _, e := range ents {
		size += e.Size
	}
	kept := map[string]bool{}
	cutoff := time.Now().Add(-opts.OlderThan)
	for _, e := range ents { // least recently used first
		switch {
		case opts.All,
			opts.OlderThan != 0 && e.LastUse.Before(cutoff),
			opts.Max >= 0 && size > opts.Max:
		default:
			kept[e.Dir] = true
			continue
		}
		if err := s.Remove(e); err == ErrInUse {
			kept[e.Dir] = true
			continue
		} else if err != nil {
			return removed, size, err
		}
		removed = append(removed, e)
		size -= e.Size
	}
	if opts.All {
		err = s.removeRest(kept)
		size = 0
		for _, e := range ents {
			if kept[e.Dir] {
				size += e.Size
			}
		}
	}
	return removed, size, err
}

// removeRest removes the files of the root that belong to no entry kept.
func (s *Store) removeRest(kept map[string]bool) error {
	ents, err := os.ReadDir(s.root)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := filepath.Join(s.root, e.Name())
		base := p
		for _, ext := range []string{metaExt, lockExt, useExt} {
			base = strings.TrimSuffix(base, ext)
		}
		if kept[base] {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return nil
}

// Trim brings the store under max bytes, removing the entries not in use
// least recently used first (Prune), and returns those it removed and the
// store's size after.
func (s *Store) Trim(max int64) ([]Info, int64, error) {
	return s.Prune(PruneOptions{Max: max})
}
