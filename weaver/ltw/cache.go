package ltw

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Cache keeps the server's answers across runs: a second run of the same
// program gets each class's answer from disk and weaves nothing. One Cache
// directory serves one set of inputs to the weaver — the aspects and advice
// classes, the JDK and the modules woven ahead of time, the class path, and
// weft itself — so the caller names the directory by their digest
// (cmd/weft: the woven JDK's and class path's keys); inside it, an answer
// is keyed by the request (its kind, name and class bytes).
//
// Answers live in pack files (pack.go): each process appends the answers
// it adds to a pack of its own, and reads the others' through an index
// built when the Cache is opened. A file per answer cost an inode each,
// more than weaving the class.
//
// Join point ids and the numbers of hidden classes' sisters are baked into
// cached answers, so the Cache also hands them out: from a counter file in
// the directory, in blocks reserved under a file lock, so that ids stay
// unique across every run that shares the directory, concurrent ones
// included.
//
// What a class is woven against beyond its own bytes — its supertypes, when
// they are not on the class path or in the JDK — is not part of the key: a
// plugin whose base class changed but whose own bytes did not gets the
// answer woven against the old base class (AspectJ's load-time weaver
// caches the same way). Remove the directory to start afresh.
type Cache struct {
	dir  string
	kick chan struct{} // wakes the writer: a batch is queued, or Close
	done chan struct{} // closed when the writer is done

	mu      sync.Mutex
	index   map[string]packed // answers by key: in a pack, or queued
	queue   []cacheEntry      // answers to write
	queued  int               // their bytes
	closing bool
	packs   []*os.File // the packs read, and this process's own
	ids     block      // join point ids
	hidden  block      // numbers of hidden classes' sisters
	idBase  int64
	counter string // the counter file

	snapOnce sync.Once
	snap     *indexSnapshot // the index the JVMs get (index.go)
}

// block is a range [next, end) of numbers reserved for this process.
type block struct{ next, end int64 }

type cacheEntry struct {
	key  string
	data []byte
}

// idBlock is how many numbers a process reserves at a time: ids are array
// indexes in some advice (examples/count), so a run wastes few.
const idBlock = 256

// OpenCache opens (creating it) the cache directory dir and indexes the
// answers its packs hold. Join point ids handed out start at idBase at
// least (the first id after the woven JDK's and class path's). Close
// flushes the writes.
func OpenCache(dir string, idBase int32) (*Cache, error) {
	dir, err := filepath.Abs(dir) // the JVMs open its packs by name (index.go)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	c := &Cache{dir: dir, kick: make(chan struct{}, 1), done: make(chan struct{}),
		index: map[string]packed{}, idBase: int64(idBase), counter: filepath.Join(dir, "next")}
	if err := c.readPacks(); err != nil {
		return nil, err
	}
	go c.write()
	return c, nil
}

// Close writes what is still queued and closes the packs.
func (c *Cache) Close() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.wake()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.packs {
		f.Close()
	}
	c.packs = nil
	c.index = map[string]packed{}
}

// Key is the cache key of a request.
func (c *Cache) Key(req *Request) string { return requestKey(req) }

// requestKey is a request's key, hex: SHA-256 of the kind in decimal, NUL,
// the name, NUL, the class bytes (the JVM computes the same: LTWCache.java).
func requestKey(req *Request) string {
	sum := requestSum(req)
	return hex.EncodeToString(sum[:])
}

// requestSum is the SHA-256 sum requestKey spells in hex.
func requestSum(req *Request) (sum [sha256.Size]byte) {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00", req.wireKind(), req.Name)
	h.Write(req.Class)
	h.Sum(sum[:0])
	return sum
}

// Get returns the answer cached for key and its --weave-info text, if
// any. An entry that cannot be read, fails its checksum or does not parse
// counts as absent.
func (c *Cache) Get(key string) (*Response, string, bool) {
	c.mu.Lock()
	p, ok := c.index[key]
	c.mu.Unlock()
	if !ok {
		return nil, "", false
	}
	b, err := p.entry(key)
	if err != nil || len(b) < 4 {
		return nil, "", false
	}
	n := binary.BigEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return nil, "", false
	}
	resp, err := ParseResponse(b[4 : 4+n])
	if err != nil || resp.Status != StatusWoven && resp.Status != StatusUnchanged {
		return nil, "", false
	}
	return resp, string(b[4+n:]), true
}

// Put caches the answer for key (an unchanged or woven one) with its
// --weave-info text, in the background: the JVM is not kept waiting for
// the disk, nor woken for each answer: the writer takes them in batches.
// Until written, the answer is served from memory.
func (c *Cache) Put(key string, resp *Response, info string) {
	payload, err := AppendResponse(nil, resp)
	if err != nil {
		return
	}
	payload = payload[4:] // the frame's length: the entry's is below
	data := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(payload)+len(info)), uint32(len(payload)))
	data = append(append(data, payload...), info...)
	c.mu.Lock()
	c.index[key] = packed{data: data}
	c.queue = append(c.queue, cacheEntry{key, data})
	c.queued += len(data)
	full := c.queued >= batchSize
	c.mu.Unlock()
	if full {
		c.wake()
	}
}

// wake wakes the writer if it sleeps.
func (c *Cache) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// ReserveIDs takes n join point ids no run sharing the directory has
// taken and returns the first.
func (c *Cache) ReserveIDs(n int32) (int32, error) {
	v, err := c.take(&c.ids, 0, int64(n))
	return int32(v), err
}

// NextHidden returns a number no run sharing the directory has given a
// hidden class's sister.
func (c *Cache) NextHidden() (int64, error) { return c.take(&c.hidden, 1, 1) }

// take takes n numbers from b, reserving a new block from field i of the
// counter file when b runs out.
func (c *Cache) take(b *block, i int, n int64) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.next+n > b.end {
		start, err := c.reserve(i, max(n, idBlock))
		if err != nil {
			return 0, err
		}
		b.next, b.end = start, start+max(n, idBlock)
	}
	v := b.next
	b.next += n
	return v, nil
}

// reserve advances field i of the counter file ("ID HIDDEN\n") by n under
// an exclusive lock and returns its value before.
func (c *Cache) reserve(i int, n int64) (int64, error) {
	f, err := os.OpenFile(c.counter, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return 0, err
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	buf := make([]byte, 64)
	k, _ := f.ReadAt(buf, 0)
	vals := [2]int64{c.idBase, 1}
	for j, w := range strings.Fields(string(buf[:k])) {
		if v, err := strconv.ParseInt(w, 10, 64); err == nil && j < 2 && v > vals[j] {
			vals[j] = v
		}
	}
	start := vals[i]
	if i == 0 && start+n > 1<<31-1 {
		return 0, fmt.Errorf("%s: join point ids exhausted", c.counter)
	}
	vals[i] += n
	line := []byte(fmt.Sprintf("%d %d\n", vals[0], vals[1]))
	if _, err := f.WriteAt(line, 0); err != nil {
		return 0, err
	}
	return start, f.Truncate(int64(len(line)))
}
