package cache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fill returns a Fill that writes n bytes into a fresh entry and counts
// its calls in *made.
func fill(n int, made *int) Fill {
	return func(dir string, fresh, _ bool) error {
		if !fresh {
			return nil
		}
		*made++
		return os.WriteFile(filepath.Join(dir, "data"), bytes.Repeat([]byte{'x'}, n), 0o644)
	}
}

// age sets an entry's last use to d ago.
func age(t *testing.T, e *Entry, d time.Duration) {
	t.Helper()
	then := time.Now().Add(-d)
	if err := os.Chtimes(e.Dir+metaExt, then, then); err != nil {
		t.Fatal(err)
	}
}

func TestAcquireMakesOnce(t *testing.T) {
	s := Open(t.TempDir())
	made := 0
	meta := Meta{Aspects: []string{"count.weft"}, JavaHome: "/jdk", JavaVersion: "17"}
	e, err := s.Acquire("jdk", "k1", meta, fill(100, &made))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Made {
		t.Error("first Acquire: Made false")
	}
	e.Release()
	e, err = s.Acquire("jdk", "k1", meta, fill(100, &made))
	if err != nil {
		t.Fatal(err)
	}
	e.Release()
	if e.Made || made != 1 {
		t.Errorf("second Acquire: Made %v, fill made %d entries, want 1", e.Made, made)
	}
	ents, err := s.List()
	if err != nil || len(ents) != 1 {
		t.Fatalf("List: %v, %v", ents, err)
	}
	i := ents[0]
	if i.Kind != "jdk" || i.Key != "k1" || i.Size != 100 || i.Meta == nil || i.InUse {
		t.Errorf("List: %+v", i)
	}
	if h := i.Meta.Holds(); h != "count.weft; /jdk (17)" {
		t.Errorf("Holds = %q", h)
	}
}

func TestAcquireFailedFillLeavesNothing(t *testing.T) {
	s := Open(t.TempDir())
	_, err := s.Acquire("app", "k", Meta{}, func(dir string, fresh, alone bool) error {
		os.WriteFile(filepath.Join(dir, "half"), []byte("x"), 0o644)
		return errors.New("boom")
	})
	if err == nil || err.Error() != "boom" {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := s.List(); len(ents) != 0 {
		t.Errorf("entries left: %+v", ents)
	}
}

// TestTrimEvictsLeastRecentlyUsed: a bound smaller than two entries keeps
// the newer; an older one in use stays.
func TestTrimEvictsLeastRecentlyUsed(t *testing.T) {
	s := Open(t.TempDir())
	made := 0
	var es []*Entry
	for i, k := range []string{"a", "b", "c"} {
		e, err := s.Acquire("app", k, Meta{}, fill(1000, &made))
		if err != nil {
			t.Fatal(err)
		}
		age(t, e, time.Duration(3-i)*time.Hour) // a the oldest
		es = append(es, e)
	}
	es[1].Release()
	es[2].Release()
	// a is in use: b, the oldest not in use, goes, and c stays: the bound
	// (1500) holds one entry, but a cannot be removed.
	removed, size, err := s.Trim(1500)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || removed[0].Key != "b" || removed[1].Key != "c" || size != 1000 {
		t.Errorf("Trim removed %v, size %d; want b and c, 1000", keys(removed), size)
	}
	if _, err := os.Stat(es[0].Dir); err != nil {
		t.Errorf("the entry in use was removed: %v", err)
	}
	// Released, it is evicted in turn when over a bound.
	es[0].Release()
	if removed, size, _ := s.Trim(500); len(removed) != 1 || size != 0 {
		t.Errorf("Trim after release removed %v, size %d", keys(removed), size)
	}
	if ents, _ := os.ReadDir(s.Dir()); len(ents) != 0 {
		t.Errorf("files left: %v", ents)
	}
}

func TestTrimKeepsNewest(t *testing.T) {
	s := Open(t.TempDir())
	made := 0
	for i, k := range []string{"old", "new"} {
		e, err := s.Acquire("jdk", k, Meta{}, fill(1000, &made))
		if err != nil {
			t.Fatal(err)
		}
		age(t, e, time.Duration(2-i)*time.Minute)
		e.Release()
	}
	removed, size, err := s.Trim(1500)
	if err != nil || len(removed) != 1 || removed[0].Key != "old" || size != 1000 {
		t.Fatalf("Trim: removed %v, size %d, %v", keys(removed), size, err)
	}
	// Using it again counts: made once only.
	e, err := s.Acquire("jdk", "new", Meta{}, fill(1000, &made))
	if err != nil || e.Made || made != 2 {
		t.Errorf("Acquire after Trim: %v, Made %v, made %d", err, e.Made, made)
	}
	e.Release()
}

func TestPrune(t *testing.T) {
	s := Open(t.TempDir())
	made := 0
	for i, k := range []string{"x", "y"} {
		e, err := s.Acquire("ltw", k, Meta{}, fill(10, &made))
		if err != nil {
			t.Fatal(err)
		}
		age(t, e, time.Duration(i*48)*time.Hour) // y two days old
		e.Release()
	}
	os.MkdirAll(s.Shared(), 0o755)
	os.WriteFile(filepath.Join(s.Shared(), "rt-1"), []byte("rt"), 0o644)
	os.WriteFile(filepath.Join(s.Dir(), "stray.weft"), []byte("old"), 0o644)
	removed, _, err := s.Prune(PruneOptions{Max: -1, OlderThan: 24 * time.Hour})
	if err != nil || len(removed) != 1 || removed[0].Key != "y" {
		t.Fatalf("Prune --older-than: %v, %v", keys(removed), err)
	}
	held, err := s.Acquire("ltw", "z", Meta{}, fill(10, &made))
	if err != nil {
		t.Fatal(err)
	}
	removed, size, err := s.Prune(PruneOptions{Max: -1, All: true})
	if err != nil || len(removed) != 1 || removed[0].Key != "x" || size != 10 {
		t.Fatalf("Prune --all: %v, size %d, %v", keys(removed), size, err)
	}
	var left []string
	ents, _ := os.ReadDir(s.Dir())
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "ltw-z ltw-z.json ltw-z.lock ltw-z.use" {
		t.Errorf("left after --all: %v", left)
	}
	held.Release()
}

// TestRemoveWhileWaiting: a process waiting for an entry's lock while the
// entry is removed locks the new lock file, not the removed one.
func TestRemoveWhileWaiting(t *testing.T) {
	s := Open(t.TempDir())
	made := 0
	e, err := s.Acquire("cds", "k", Meta{}, fill(1, &made))
	if err != nil {
		t.Fatal(err)
	}
	e.Release()
	ents, _ := s.List()
	hold, err := LockFile(e.Dir + lockExt) // as Remove would hold it
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	go func() {
		e, err := s.Acquire("cds", "k", Meta{}, fill(1, &made))
		if err == nil {
			e.Release()
		}
		got <- err
	}()
	time.Sleep(50 * time.Millisecond)
	os.Remove(ents[0].Dir + metaExt)
	os.RemoveAll(ents[0].Dir)
	os.Remove(ents[0].Dir + lockExt)
	hold()
	if err := <-got; err != nil || made != 2 {
		t.Errorf("Acquire: %v, made %d entries, want 2", err, made)
	}
}

func TestKey(t *testing.T) {
	if Key("ab", "c") == Key("a", "bc") {
		t.Error("Key(ab, c) = Key(a, bc)")
	}
	if k := Key("x"); len(k) != KeyLen || k != Key("x") {
		t.Errorf("Key(x) = %q", k)
	}
	d := t.TempDir()
	os.WriteFile(filepath.Join(d, "f"), []byte("1"), 0o644)
	k1 := NewHasher().Path(d).Key()
	os.WriteFile(filepath.Join(d, "f"), []byte("2"), 0o644)
	if k1 == NewHasher().Path(d).Key() {
		t.Error("Path: a changed file gives the same key")
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "1024": 1024, "5G": 5 << 30, "5GB": 5 << 30, "5gib": 5 << 30,
		"1.5K": 1536, "512M": 512 << 20} {
		if n, err := ParseSize(s); err != nil || n != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, n, err, want)
		}
	}
	for _, s := range []string{"", "G", "-1", "5X", "lots"} {
		if _, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q): no error", s)
		}
	}
	for n, want := range map[int64]string{512: "512B", 1536: "1.5K", 287 << 20: "287M", 5 << 30: "5.0G"} {
		if s := FormatSize(n); s != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, s, want)
		}
	}
}

func TestMax(t *testing.T) {
	t.Setenv(MaxEnv, "")
	if n, _ := Max(""); n != DefaultMax {
		t.Errorf("Max() = %d", n)
	}
	t.Setenv(MaxEnv, "1M")
	if n, _ := Max(""); n != 1<<20 {
		t.Errorf("Max() with $%s=1M = %d", MaxEnv, n)
	}
	if n, _ := Max("2K"); n != 2048 {
		t.Errorf("Max(2K) = %d", n)
	}
}

func keys(is []Info) []string {
	var ks []string
	for _, i := range is {
		ks = append(ks, i.Key)
	}
	return ks
}
