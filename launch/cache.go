package launch

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/weaver/jdk"
)

// A Cache is the cache entries one command uses (internal/cache):
// acquired as it goes, marked in use until Release (the end of the JVM
// that reads them), and the cache trimmed to its bound once they are all
// made (Trim).
type Cache struct {
	store   *cache.Store
	max     int64
	entries []*cache.Entry
	log     io.Writer // what is woven, linked and evicted (the command's stderr)
	weft    []byte    // Identity: what every key starts with
	made    bool      // an entry was made: Trim has work
}

// Identity is the SHA-256 of weft's version and of the running executable:
// what is cached depends on it (a rebuilt weft may weave differently).
func Identity(version string) []byte {
	h := sha256.New()
	h.Write([]byte(version))
	if exe, err := os.Executable(); err == nil {
		h.Write([]byte(executableKey(exe)))
	}
	return h.Sum(nil)
}

// executableKey is the key of the executable's contents, kept in the
// cache's shared directory in a file named by its path, size,
// modification time and inode: hashing weft's 13 MB took ~15 ms of CPU at
// the start of every command. A rebuilt weft is a new file, so a new
// name.
func executableKey(exe string) string {
	st, err := os.Stat(exe)
	if err != nil {
		return cache.NewHasher().Path(exe).Key()
	}
	var inode uint64
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		inode = sys.Ino
	}
	memo := filepath.Join(runtimeDir(), "exe-"+cache.Key(exe, strconv.FormatInt(st.Size(), 10),
		strconv.FormatInt(st.ModTime().UnixNano(), 10), strconv.FormatUint(inode, 10)))
	if b, err := os.ReadFile(memo); err == nil && len(b) == cache.KeyLen {
		return string(b)
	}
	key := cache.NewHasher().Path(exe).Key()
	// Written whole then renamed: a concurrent weft reads all or nothing.
	if os.MkdirAll(filepath.Dir(memo), 0o755) == nil {
		tmp := fmt.Sprintf("%s.%d", memo, os.Getpid())
		if os.WriteFile(tmp, []byte(key), 0o644) == nil && os.Rename(tmp, memo) != nil {
			os.Remove(tmp)
		}
	}
	return key
}

// openCache opens the cache ($WEFT_CACHE, else the user's cache directory)
// for a command that bounds it to maxFlag (cache.Max: "" for
// $WEFT_CACHE_MAX or the default) and says what it does on log; weft is
// Identity.
func openCache(maxFlag string, log io.Writer, weft []byte) (*Cache, error) {
	max, err := cache.Max(maxFlag)
	if err != nil {
		return nil, err
	}
	return &Cache{store: cache.Open(""), max: max, log: log, weft: weft}, nil
}

// Acquire returns the entry kind-key, made by fill if need be
// (cache.Store.Acquire), in use until Release.
func (c *Cache) Acquire(kind, key string, meta cache.Meta, fill cache.Fill) (*cache.Entry, error) {
	e, err := c.store.Acquire(kind, key, meta, func(dir string, fresh, alone bool) error {
		c.made = c.made || fresh
		if fill == nil {
			return nil
		}
		return fill(dir, fresh, alone)
	})
	if err != nil {
		return nil, err
	}
	c.entries = append(c.entries, e)
	return e, nil
}

// Trim brings the cache under its bound if the command made an entry:
// the entries this command uses stay, as do those other processes use.
// Measuring the cache walks every file of every entry (80-100 ms of CPU
// for 15,000 files, 10 GB), so a command that made nothing does not; what the
// entries in use grow by (load-time answers, an application archive) is
// counted by the next command that makes one.
func (c *Cache) Trim() {
	if !c.made {
		return
	}
	removed, size, err := c.store.Trim(c.max)
	if err != nil {
		fmt.Fprintf(c.log, "weft: trimming the cache %s: %v\n", c.store.Dir(), err)
		return
	}
	var freed int64
	for _, e := range removed {
		freed += e.Size
	}
	if n := len(removed); n > 0 {
		entries := "entries"
		if n == 1 {
			entries = "entry"
		}
		fmt.Fprintf(c.log, "weft: cache over %s: removed %d %s used least recently (%s)\n",
			cache.FormatSize(c.max), n, entries, cache.FormatSize(freed))
	}
	if size > c.max {
		fmt.Fprintf(c.log, "weft: cache %s holds %s, over its bound %s: the rest is in use\n",
			c.store.Dir(), cache.FormatSize(size), cache.FormatSize(c.max))
	}
}

// Release ends the command's use of its entries.
func (c *Cache) Release() {
	for _, e := range c.entries {
		e.Release()
	}
	c.entries = nil
}

// EntryDir is the directory entry kind-key has, or will have, in the
// cache (cache.Store.EntryDir).
func (c *Cache) EntryDir(kind, key string) string { return c.store.EntryDir(kind, key) }

// JDKKey is the key of what a woven JDK depends on: weft itself, the JDK,
// the modules, the scope, the aspects' and the advice classes' bytes.
func (c *Cache) JDKKey(home string, aspects []string, adviceCP, modules, scopeKey string) (string, error) {
	k := cache.NewHasher().Bytes(c.weft).String(jdk.Release(home)).String(home).String(modules)
	if scopeKey != "" { // a narrower scope is another woven JDK, class path and answers
		k.String("scope " + scopeKey)
	}
	for _, a := range aspects {
		b, err := os.ReadFile(a)
		if err != nil {
			return "", err
		}
		k.String("aspect").Bytes(b)
	}
	for _, p := range filepath.SplitList(adviceCP) {
		k.String("advice").Path(p)
	}
	return k.Key(), nil
}

// jDKMeta is what a woven JDK entry holds, for weft cache.
func jDKMeta(home string, aspects []string, adviceCP, modules string) cache.Meta {
	return cache.Meta{JavaHome: home, JavaVersion: jdk.Release(home), Modules: modules,
		AdviceCP: strings.Join(absPaths(filepath.SplitList(adviceCP)), string(filepath.ListSeparator)),
		Aspects:  absPaths(aspects)}
}
