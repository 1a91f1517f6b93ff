package jdk

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/weft-aop/weft/internal/proc"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// This file finds the modules the JDK resolves at boot.

// BootLayer returns the modules the JDK at javaHome resolves for a class
// path application (java --show-module-resolution). The answer is asked
// of the JVM once per process and JDK (WeaveModules asks while it weaves,
// so that writing weft.args at the end does not wait for a JVM to start;
// with Options.CacheDir, once per JDK); callers must not modify the map.
func BootLayer(javaHome string) (map[string]bool, error) { return bootLayer(javaHome, "") }

// bootLayer is BootLayer, whose answer is kept in cacheDir if set.
func bootLayer(javaHome, cacheDir string) (map[string]bool, error) {
	bootLayers.mu.Lock()
	q := bootLayers.m[javaHome]
	if q == nil {
		q = &bootQuery{done: make(chan struct{})}
		if bootLayers.m == nil {
			bootLayers.m = map[string]*bootQuery{}
		}
		bootLayers.m[javaHome] = q
		bootLayers.mu.Unlock()
		q.mods, q.err = cachedBootLayer(javaHome, cacheDir)
		if q.err != nil { // not kept: a later call asks again
			bootLayers.mu.Lock()
			delete(bootLayers.m, javaHome)
			bootLayers.mu.Unlock()
		}
		close(q.done)
	} else {
		bootLayers.mu.Unlock()
		<-q.done
	}
	return q.mods, q.err
}

// bootLayers holds BootLayer's answers (or questions under way) by JDK.
var bootLayers struct {
	mu sync.Mutex
	m  map[string]*bootQuery
}

type bootQuery struct {
	done chan struct{} // closed once mods and err are set
	mods map[string]bool
	err  error
}

// cachedBootLayer reads the boot layer of the JDK at javaHome from
// cacheDir, or asks the JVM and saves the answer there. The file's name
// says which JDK: its home and its modules image's size and time (an
// upgraded JDK has another image).
func cachedBootLayer(javaHome, cacheDir string) (map[string]bool, error) {
	if cacheDir == "" {
		return askBootLayer(javaHome)
	}
	st, err := os.Stat(filepath.Join(javaHome, "lib", "modules"))
	if err != nil {
		return askBootLayer(javaHome)
	}
	key := rtjava.SourcesHash(nil, []byte(javaHome), []byte(fmt.Sprint(st.Size(), st.ModTime().UnixNano())))
	file := filepath.Join(cacheDir, "boot-layer-"+key)
	if b, err := os.ReadFile(file); err == nil {
		mods := map[string]bool{}
		for _, m := range strings.Fields(string(b)) {
			mods[m] = true
		}
		if mods["java.base"] {
			return mods, nil
		}
	}
	mods, err := askBootLayer(javaHome)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(mods))
	for m := range mods {
		names = append(names, m)
	}
	sort.Strings(names)
	// Written whole then renamed: a concurrent run reads all or nothing.
	// The cache is an optimization: failing to write it is no error.
	if os.MkdirAll(cacheDir, 0o755) == nil {
		if f, err := os.CreateTemp(cacheDir, "boot-layer-*"); err == nil {
			_, werr := f.WriteString(strings.Join(names, "\n") + "\n")
			if cerr := f.Close(); werr == nil && cerr == nil {
				os.Rename(f.Name(), file)
			}
			os.Remove(f.Name())
		}
	}
	return mods, nil
}

func askBootLayer(javaHome string) (map[string]bool, error) {
	out, err := proc.CombinedOutput(exec.Command(filepath.Join(javaHome, "bin", "java"), "--show-module-resolution", "-version"))
	if err != nil {
		return nil, fmt.Errorf("java --show-module-resolution: %v\n%s", err, out)
	}
	mods := map[string]bool{}
	for _, f := range strings.Fields(string(out)) {
		if m, ok := strings.CutPrefix(f, "jrt:/"); ok {
			mods[m] = true
		}
	}
	if !mods["java.base"] {
		return nil, fmt.Errorf("java --show-module-resolution: no java.base in:\n%s", out)
	}
	return mods, nil
}
