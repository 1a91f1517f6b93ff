package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"
)

// The files beside an entry's directory.
const (
	metaExt = ".json" // Meta; its modification time is the last use
	lockExt = ".lock" // held while the entry is made, changed or removed
	useExt  = ".use"  // held shared while the entry is in use
)

// Meta says what an entry holds, for the people who list the cache: it
// is written when the entry is made.
type Meta struct {
	Kind        string    `json:"kind"`
	Key         string    `json:"key"`
	Made        time.Time `json:"made"`
	Aspects     []string  `json:"aspects,omitempty"`     // the aspect files
	AdviceCP    string    `json:"adviceCP,omitempty"`    // the advice class path
	JavaHome    string    `json:"javaHome,omitempty"`    // the JDK
	JavaVersion string    `json:"javaVersion,omitempty"` // its release
	Modules     string    `json:"modules,omitempty"`     // the JDK modules woven
	ClassPath   []string  `json:"classPath,omitempty"`   // the application's class path
	Program     string    `json:"program,omitempty"`     // the program (a main class, -jar JAR)
}

// Holds is what the entry holds, in a line.
func (m *Meta) Holds() string {
	var parts []string
	if len(m.Aspects) > 0 {
		parts = append(parts, strings.Join(m.Aspects, ","))
	}
	if m.JavaHome != "" {
		jdk := m.JavaHome
		if m.JavaVersion != "" {
			jdk += " (" + m.JavaVersion + ")"
		}
		parts = append(parts, jdk)
	}
	if m.Modules != "" {
		parts = append(parts, "modules "+m.Modules)
	}
	if len(m.ClassPath) > 0 {
		parts = append(parts, "-cp "+strings.Join(m.ClassPath, ":"))
	}
	if m.Program != "" {
		parts = append(parts, m.Program)
	}
	return strings.Join(parts, "; ")
}

// An Entry is an entry this process uses: complete, and marked in use
// until Release.
type Entry struct {
	Kind, Key string
	Dir       string // its directory
	Made      bool   // made by this Acquire
	use       *os.File
}

// Release ends this process's use of the entry.
func (e *Entry) Release() {
	if e != nil && e.use != nil {
		e.use.Close()
		e.use = nil
	}
}

// A Fill makes or completes an entry's directory dir, under the entry's
// lock: fresh says dir is new and empty (Fill must make the entry), alone
// that no process uses the entry (Fill may remove files of it).
type Fill func(dir string, fresh, alone bool) error

// Acquire returns the entry kind-key marked in use by this process. If it
// is not complete, it is made: fill runs on a new directory and, if it
// succeeds, meta is written beside it. If it is complete, fill runs too
// (it may complete parts of the entry made on demand) and the entry's
// last use is touched. Concurrent processes wait for each other: an entry
// is made once. A fill that fails leaves no entry.
func (s *Store) Acquire(kind, key string, meta Meta, fill Fill) (*Entry, error) {
	if err := os.MkdirAll(s.root, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %v", err)
	}
	dir := s.EntryDir(kind, key)
	lk, err := lockPath(dir+lockExt, syscall.LOCK_EX, true)
	if err != nil {
		return nil, fmt.Errorf("cache: %v", err)
	}
	defer lk.Close()
	metaFile := dir + metaExt
	_, err = os.Stat(metaFile)
	fresh := errors.Is(err, fs.ErrNotExist)
	if fresh {
		os.RemoveAll(dir) // a command that died half way
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("cache: %v", err)
		}
	}
	alone := !busy(dir + useExt)
	if fill != nil {
		if err := fill(dir, fresh, alone); err != nil {
			if fresh {
				os.RemoveAll(dir)
			}
			return nil, err
		}
	}
	if fresh {
		meta.Kind, meta.Key, meta.Made = kind, key, time.Now().UTC().Truncate(time.Second)
		if err := writeMeta(metaFile, &meta); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("cache: %v", err)
		}
	} else {
		now := time.Now()
		os.Chtimes(metaFile, now, now)
	}
	use, err := lockPath(dir+useExt, syscall.LOCK_SH, true)
	if err != nil {
		return nil, fmt.Errorf("cache: %v", err)
	}
	return &Entry{Kind: kind, Key: key, Dir: dir, Made: fresh, use: use}, nil
}

// writeMeta writes m to name whole, under a temporary name first.
func writeMeta(name string, m *Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d", name, os.Getpid())
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// readMeta reads an entry's Meta; nil if it has none.
func readMeta(name string) *Meta {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	m := &Meta{}
	if json.Unmarshal(b, m) != nil {
		return nil
	}
	return m
}

// busy reports whether another process holds a lock on the file name:
// an existing file that cannot be locked exclusively at once.
func busy(name string) bool {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
