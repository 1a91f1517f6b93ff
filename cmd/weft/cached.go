package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/weft-aop/weft/weaver/scope"

	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/weaver/jdk"
)

// This file is what weft run, serve and the tools keep in the cache
// (internal/cache): the woven JDK with its runtime image here; the woven
// class path, the load-time answers (run.go) and the application's
// archive (appcds.go) through the same cacheUse.

// rtCache is the cache's directory of what weft compiles from its own
// sources (the runtime, the tools' advice) and the facts it keeps about
// JDKs.
func rtCache() string { return cache.SharedDir(cache.Root()) }

// addCacheMaxFlag adds --cache-max to the flags of a command that makes
// cache entries.
func addCacheMaxFlag(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "cache-max", "", fmt.Sprintf(
		"bound the cache to `SIZE` (e.g. 2G, 500M), evicting the least recently used entries not in use (default: $%s, else %s)",
		cache.MaxEnv, cache.FormatSize(cache.DefaultMax)))
}

// A cacheUse is the cache entries one command uses: acquired as it goes,
// marked in use until release (the end of the JVM that reads them), and
// the cache trimmed to its bound once they are all made.
type cacheUse struct {
	store   *cache.Store
	max     int64
	entries []*cache.Entry
	log     io.Writer // what is woven, linked and evicted (the command's stderr)
}

// useCache opens the cache for a command with --cache-max maxFlag, which
// says what it does on log.
func useCache(maxFlag string, log io.Writer) (*cacheUse, error) {
	max, err := cache.Max(maxFlag)
	if err != nil {
		return nil, err
	}
	return &cacheUse{store: cache.Open(""), max: max, log: log}, nil
}

// acquire returns the entry kind-key, made by fill if need be
// (cache.Store.Acquire), in use until release.
func (u *cacheUse) acquire(kind, key string, meta cache.Meta, fill cache.Fill) (*cache.Entry, error) {
	e, err := u.store.Acquire(kind, key, meta, fill)
	if err != nil {
		return nil, err
	}
	u.entries = append(u.entries, e)
	return e, nil
}

// trim brings the cache under its bound: the entries this command uses
// stay, as do those other processes use.
func (u *cacheUse) trim() {
	removed, size, err := u.store.Trim(u.max)
	if err != nil {
		fmt.Fprintf(u.log, "weft: trimming the cache %s: %v\n", u.store.Dir(), err)
		return
	}
	var freed int64
	for _, e := range removed {
		freed += e.Size
	}
	if len(removed) > 0 {
		fmt.Fprintf(u.log, "weft: cache over %s: removed %d entr%s used least recently (%s)\n",
			cache.FormatSize(u.max), len(removed), plural2(len(removed), "y", "ies"), cache.FormatSize(freed))
	}
	if size > u.max {
		fmt.Fprintf(u.log, "weft: cache %s holds %s, over its bound %s: the rest is in use\n",
			u.store.Dir(), cache.FormatSize(size), cache.FormatSize(u.max))
	}
}

// release ends the command's use of its entries.
func (u *cacheUse) release() {
	for _, e := range u.entries {
		e.Release()
	}
	u.entries = nil
}

func plural2(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// weftDigest is the SHA-256 of the running weft executable (of its version
// string if it cannot be read), computed once: cached weavings depend on it.
var weftDigest = sync.OnceValue(func() []byte {
	h := sha256.New()
	h.Write([]byte(version))
	if exe, err := os.Executable(); err == nil {
		h.Write([]byte(cache.NewHasher().Path(exe).Key()))
	}
	return h.Sum(nil)
})

// jdkKey is the key of what the woven JDK depends on: weft itself (a
// rebuilt weft may weave differently), the JDK, the modules, the aspects'
// and the advice classes' bytes.
func jdkKey(home string, aspects []string, adviceCP, modules, scopeKey string) (string, error) {
	k := cache.NewHasher().String("weft " + version).Bytes(weftDigest()).String(jdk.Release(home)).String(home).String(modules)
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

// jdkMeta is what a woven JDK entry holds, for weft cache.
func jdkMeta(home string, aspects []string, adviceCP, modules string) cache.Meta {
	m := cache.Meta{JavaHome: home, JavaVersion: jdk.Release(home), Modules: modules,
		AdviceCP: strings.Join(absPaths(filepath.SplitList(adviceCP)), string(filepath.ListSeparator)),
		Aspects:  absPaths(aspects)}
	return m
}

// absPaths returns the paths made absolute, for a reader elsewhere.
func absPaths(ps []string) []string {
	var out []string
	for _, p := range ps {
		if abs, err := filepath.Abs(p); err == nil && p != "" {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

// The woven JDK's entry holds its patches (DIR/patch/, weft.args and
// weft.jargs, as weft jdk -o writes them), the summary, the advice
// applied (appliedFile) and, once a run asks for it, the runtime image
// linked from the patches (DIR/image/). The image holds every woven class
// the patches do: once it is linked, the patches are removed (when no
// other process uses the entry, maybe with them), and woven again if a
// run asks for them (--patches, weft serve): the entry never keeps both
// for long.
const (
	patchesDone = "patches.complete" // DIR/patch/ is whole
	imageDone   = ".complete"        // in DIR/image/: the image is whole
)

// A cachedWovenJDK is the JDK woven for a run's aspects, in the cache.
type cachedWovenJDK struct {
	key, dir string
	image    string // the runtime image, "" when the run uses the patches
	sum      *jdk.Summary
	wove     bool // woven by this call, not found in the cache
}

// cachedJDK returns the JDK woven for the aspects (jdkKey), weaving it
// the first time, and with image its runtime image, linked the first time
// (none for a JDK it cannot be linked for: then its patches, said so). holders are
// class-path entries holding advice classes, which bootCP includes. The
// advice applied is written in the entry (appliedFile) for the caller's
// lint. The entry is in use until u is released.
func cachedJDK(u *cacheUse, home string, m advice.Matcher, advs []*advice.Advice, aspects []string, bootCP, modules string,
	holders []string, image bool, sc *scope.Scope) (cachedWovenJDK, error) {
	var w cachedWovenJDK
	key, err := jdkKey(home, aspects, bootCP, modules, sc.Key())
	if err != nil {
		return w, err
	}
	if image && !jdk.CanLinkImage(home) {
		fmt.Fprintf(u.log, "weft: %s has no jmods/ to link a runtime image from, nor the lists of its modules' files to rebuild them: running it with --patch-module (slower start-up)\n", home)
		image = false
	}
	fill := func(dir string, fresh, alone bool) error {
		imageDir := filepath.Join(dir, "image")
		patched := fileExists(filepath.Join(dir, patchesDone))
		linked := fileExists(filepath.Join(imageDir, imageDone))
		if !patched && !(image && linked) {
			fmt.Fprintf(u.log, "weft: weaving the JDK into %s (once)\n", dir)
			if len(holders) > 0 {
				fmt.Fprintf(u.log, "weft: advice classes found on the class path in %s: on the boot class path too\n",
					strings.Join(holders, ", "))
			}
			s, applied, err := weaveJDK(jdkJob{matcher: m, advice: advs, adviceCP: bootCP, javaHome: home,
				modules: modules, scope: sc, out: dir, progress: true, diag: u.log})
			if err != nil {
				return err
			}
			if len(s.Intrinsics) > 0 {
				fmt.Fprintf(u.log, "weft: %d advised JDK methods are intrinsic candidates (see %s): counts there can be partial\n",
					len(s.Intrinsics), filepath.Join(dir, "summary.json"))
			}
			w.wove, patched = true, true
			if err := writeAppliedAdvice(dir, applied); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, patchesDone), nil, 0o644); err != nil {
				return err
			}
		}
		if image && !linked {
			os.RemoveAll(imageDir) // a link that died half way
			if err := buildImage(u.log, home, dir, imageDir, bootCP, true); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(imageDir, imageDone), nil, 0o644); err != nil {
				return err
			}
		}
		if image && patched && alone { // nothing kept twice
			if err := os.Remove(filepath.Join(dir, patchesDone)); err != nil {
				return err
			}
			return os.RemoveAll(filepath.Join(dir, "patch"))
		}
		return nil
	}
	e, err := u.acquire("jdk", key, jdkMeta(home, aspects, bootCP, modules), fill)
	if err != nil {
		return w, err
	}
	w.key, w.dir = key, e.Dir
	if image {
		w.image = filepath.Join(e.Dir, "image")
	}
	w.sum = &jdk.Summary{}
	if b, err := os.ReadFile(filepath.Join(e.Dir, "summary.json")); err == nil {
		if err := json.Unmarshal(b, w.sum); err != nil {
			return w, fmt.Errorf("%s: %v", e.Dir, err)
		}
	}
	return w, nil
}
