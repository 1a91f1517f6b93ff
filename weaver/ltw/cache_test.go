package ltw

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-aop/weft/weaver"
)

// TestCacheAcrossRuns: a second server over the same cache directory
// answers from it what the first wove — the same bytes, sister and weave
// info included — and weaves nothing; a hidden class defined again in the
// same run is woven afresh with a sister of its own; join point ids and
// sister numbers never repeat across runs.
func TestCacheAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	plugin := compiled(t, "p/Plugin")
	type run struct {
		sum   Summary
		resps []*Response
		ids   []int32
		info  string
	}
	serve := func(reqs ...*Request) run {
		t.Helper()
		s, _ := newTestServer(t, "")
		c, err := OpenCache(dir, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var r run
		var mu sync.Mutex
		s.Cache = c
		s.OnResult = func(res *weaver.Result) {
			mu.Lock()
			for _, sh := range res.Shadows {
				r.ids = append(r.ids, sh.ID)
			}
			mu.Unlock()
		}
		s.OnInfo = func(lines string) { r.info += lines }
		for _, req := range reqs {
			r.resps = append(r.resps, s.Weave(req))
		}
		c.Close()
		r.sum = s.Summary()
		return r
	}
	normal := &Request{Kind: Normal, Name: "p.Plugin", Class: plugin}
	hidden := &Request{Kind: Hidden, Name: "p.Plugin", Class: plugin}

	first := serve(normal, hidden, hidden)
	if first.sum.Woven != 3 || first.sum.FromCache != 0 {
		t.Fatalf("first run: %s", first.sum)
	}
	second := serve(normal, hidden, hidden)
	if second.sum.Woven != 1 || second.sum.FromCache != 2 {
		t.Errorf("second run: %s, want 1 woven (the hidden class defined again), 2 from cache", second.sum)
	}
	for i := 0; i < 2; i++ {
		a, b := first.resps[i], second.resps[i]
		if !bytes.Equal(a.Class, b.Class) || len(b.Extra) != 1 || a.Extra[0].Name != b.Extra[0].Name ||
			!bytes.Equal(a.Extra[0].Class, b.Extra[0].Class) {
			t.Errorf("request %d: the cached answer differs from the first run's", i)
		}
	}
	sisters := map[string]bool{}
	for _, r := range append(first.resps, second.resps[2]) {
		sisters[r.Extra[0].Name] = true
	}
	if len(sisters) != 4 {
		t.Errorf("sisters %v: want 4 distinct names (normal, and three hidden definitions)", sisters)
	}
	for _, id := range second.ids {
		if slices.Contains(first.ids, id) || id < 1000 {
			t.Errorf("join point id %d of the second run: used by the first (%v) or below the base", id, first.ids)
		}
	}
	if first.info == "" || !bytes.Contains([]byte(second.info), []byte(first.info[:len(first.info)/3])) {
		t.Errorf("weave info: first run %q, second %q", first.info, second.info)
	}
}

// TestCacheIDsDisjoint: two processes' caches over one directory reserve
// disjoint join point ids.
func TestCacheIDsDisjoint(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenCache(dir, 50)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenCache(dir, 50)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	defer b.Close()
	used := map[int32]bool{}
	for i := 0; i < 40; i++ {
		c, n := a, int32(7)
		if i%3 == 0 {
			c, n = b, 300
		}
		start, err := c.ReserveIDs(n)
		if err != nil {
			t.Fatal(err)
		}
		for id := start; id < start+n; id++ {
			if used[id] || id < 50 {
				t.Fatalf("id %d handed out twice or below the base", id)
			}
			used[id] = true
		}
	}
}

// TestCachePacks: answers put by one Cache are read back by the next from
// its pack; a pack cut short (its writer died) keeps the records before
// the cut; a record whose bytes changed is absent, not a wrong answer;
// more than maxPacks packs are merged into one when a Cache opens, every
// answer kept.
func TestCachePacks(t *testing.T) {
	dir := t.TempDir()
	answer := func(i int) *Response {
		if i%3 == 2 {
			return &Response{Status: StatusUnchanged}
		}
		return &Response{Status: StatusWoven, Class: []byte{0xca, 0xfe, byte(i)},
			Extra: []Extra{{Name: "p.C" + strconv.Itoa(i) + "$weft$jp", Class: bytes.Repeat([]byte{byte(i)}, 100)}}}
	}
	key := func(c *Cache, i int) string {
		return c.Key(&Request{Kind: Normal, Name: "p.C" + strconv.Itoa(i), Class: []byte{byte(i)}})
	}
	put := func(from, to int) {
		t.Helper()
		c, err := OpenCache(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := from; i < to; i++ {
			c.Put(key(c, i), answer(i), "info "+strconv.Itoa(i)+"\n")
			if resp, info, ok := c.Get(key(c, i)); !ok || resp.Status != answer(i).Status || info != "info "+strconv.Itoa(i)+"\n" {
				t.Errorf("answer %d not served from memory before it is written: %v %q", i, ok, info)
			}
		}
		c.Close()
	}
	check := func(what string, want func(i int) bool, n int) {
		t.Helper()
		c, err := OpenCache(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for i := 0; i < n; i++ {
			resp, info, ok := c.Get(key(c, i))
			if ok != want(i) {
				t.Errorf("%s: answer %d cached %v, want %v", what, i, ok, want(i))
				continue
			}
			a := answer(i)
			if ok && (resp.Status != a.Status || !bytes.Equal(resp.Class, a.Class) || len(resp.Extra) != len(a.Extra) ||
				info != "info "+strconv.Itoa(i)+"\n") {
				t.Errorf("%s: answer %d differs: %+v %q", what, i, resp, info)
			}
		}
	}
	packs := func() []string {
		names, _ := filepath.Glob(filepath.Join(dir, "*"+packSuffix))
		return names
	}
	all := func(int) bool { return true }

	put(0, 6)
	check("reopened", all, 6)
	if n := len(packs()); n != 1 {
		t.Fatalf("%d packs after one run, want 1", n)
	}
	p := packs()[0]
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// A record cut short at the end: the writer died mid-record.
	if err := os.WriteFile(p, append(b, b[len(packMagic):len(packMagic)+recordHead+3]...), 0o644); err != nil {
		t.Fatal(err)
	}
	check("cut short", all, 6)
	// A changed byte in the second record's entry.
	first := int(binary.BigEndian.Uint32(b[len(packMagic):]))
	b[len(packMagic)+recordHead+first+recordHead+5] ^= 0xff
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	check("corrupt record", func(i int) bool { return i != 1 }, 6)

	for i := 6; i < 6+maxPacks; i++ {
		put(i, i+1)
	}
	if n := len(packs()); n != maxPacks+1 {
		t.Fatalf("%d packs, want %d", n, maxPacks+1)
	}
	check("merged", func(i int) bool { return i != 1 }, 6+maxPacks)
	if n := len(packs()); n != 1 {
		t.Errorf("%d packs after opening over %d, want them merged into 1", n, maxPacks+1)
	}
	check("after the merge", func(i int) bool { return i != 1 }, 6+maxPacks)
}

// TestCacheIndex: a JVM that asks for the Cache's index gets every answer
// of an earlier run by its key, each record in its pack holding the very
// answer the round trip gives (woven, sister and unchanged alike); the
// classes it reports answered from the index are counted as from cache
// with their --weave-info lines, and no weave request is needed for them;
// a hidden class the index lists is woven afresh when sent (the index's
// answer was the JVM's to use once); a connection's Hits come in before
// it ends (Drain).
func TestCacheIndex(t *testing.T) {
	dir := t.TempDir()
	plugin := compiled(t, "p/Plugin")
	normal := &Request{Kind: Normal, Name: "p.Plugin", Class: plugin}
	hidden := &Request{Kind: Hidden, Name: "p.Plugin", Class: plugin}

	first, _ := newTestServer(t, "")
	c, err := OpenCache(dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	first.Cache = c
	var firstInfo string
	first.OnInfo = func(lines string) { firstInfo += lines }
	woven := first.Weave(normal)
	hiddenWoven := first.Weave(hidden)
	already := &Request{Kind: Normal, Name: "p.Plugin", Class: woven.Class}
	if first.Weave(already).Status != StatusUnchanged || woven.Status != StatusWoven || hiddenWoven.Status != StatusWoven {
		t.Fatalf("first run: %s", first.Summary())
	}
	c.Close()

	s, _ := newTestServer(t, "")
	if s.Cache, err = OpenCache(dir, 1000); err != nil {
		t.Fatal(err)
	}
	defer s.Cache.Close()
	var info strings.Builder
	var mu sync.Mutex
	s.OnInfo = func(lines string) { mu.Lock(); info.WriteString(lines); mu.Unlock() }
	ln, path, err := Listen(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer func() { ln.Close(); s.Close() }()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write(AppendRequest(nil, &Request{Kind: Index}))
	resp, err := ReadResponse(conn)
	if err != nil || resp.Status != StatusIndex {
		t.Fatalf("index: %+v, %v", resp, err)
	}
	x, err := ParseIndex(resp.Index)
	if err != nil || len(x.Entries) != 3 {
		t.Fatalf("index of %d entries, want 3: %v", len(x.Entries), err)
	}
	var hits []byte
	for _, want := range []struct {
		req  *Request
		resp *Response
	}{{normal, woven}, {hidden, hiddenWoven}, {already, &Response{Status: StatusUnchanged}}} {
		key := s.Cache.Key(want.req)
		i := slices.IndexFunc(x.Entries, func(e IndexEntry) bool { return hex.EncodeToString(e.Key[:]) == key })
		if i < 0 {
			t.Fatalf("the index lacks the %s request's key", want.req.Kind)
		}
		e := x.Entries[i]
		f, err := os.Open(x.Packs[e.Pack])
		if err != nil {
			t.Fatal(err)
		}
		entry, err := (packed{f: f, off: e.Off, n: int(e.N)}).entry(key)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseResponse(entry[4 : 4+binary.BigEndian.Uint32(entry)])
		a, _ := AppendResponse(nil, got)
		b, _ := AppendResponse(nil, want.resp)
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s request: the index's record is not the round trip's answer (%v)", want.req.Kind, err)
		}
		v := uint32(i)
		if got.Status == StatusWoven {
			v |= HitWoven
		}
		hits = binary.BigEndian.AppendUint32(hits, v)
	}
	hits = binary.BigEndian.AppendUint32(hits, 99) // no such entry: ignored
	conn.Write(AppendRequest(nil, &Request{Kind: Hits, Class: hits}))
	// Defined again in this run: woven afresh, a sister of its own.
	conn.Write(AppendRequest(nil, hidden))
	again, err := ReadResponse(conn)
	if err != nil || again.Status != StatusWoven || again.Extra[0].Name == hiddenWoven.Extra[0].Name {
		t.Errorf("the hidden class defined again: %+v, %v", again, err)
	}
	conn.Close()
	ln.Close()
	s.Drain(5 * time.Second)
	sum := s.Summary()
	if sum.InJVM != 3 || sum.FromCache != 2 || sum.Unchanged != 1 || sum.Woven != 1 || sum.Requests != 1 {
		t.Errorf("summary %s: %+v", sum, sum)
	}
	if !strings.Contains(info.String(), firstInfo[:len(firstInfo)/2]) {
		t.Errorf("weave info of the hits %q lacks the first run's %q", info.String(), firstInfo)
	}
}

// FuzzParseIndex: the index parser never panics, and what it accepts it
// writes back byte for byte.
func FuzzParseIndex(f *testing.F) {
	f.Add((&CacheIndex{Packs: []string{"/a.pack"}, Entries: []IndexEntry{{Pack: 0, Off: 16, N: 9}}}).Append(nil))
	f.Add((&CacheIndex{}).Append(nil))
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ParseIndex(b)
		if err != nil {
			return
		}
		if out := x.Append(nil); !bytes.Equal(out, b) {
			t.Errorf("round trip: %x -> %x", b, out)
		}
	})
}
