package ltw

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// A pack file holds cached answers one after another:
//
//	"weft-ltw-pack 1\n"
//	record: u32 n, u32 CRC-32C of key and entry, key (the SHA-256 the Cache's key spells in hex), entry[n]
//	entry:  u32 m, a response frame's payload[m], the --weave-info text
//
// Each process appends to a pack of its own, named *.pack in the cache
// directory. A record cut short — its process died, or is still writing —
// ends the pack for a reader; a record whose checksum fails is skipped
// when read.
const packMagic = "weft-ltw-pack 1\n"

const (
	packSuffix = ".pack"
	recordHead = 4 + 4 + sha256.Size
	// maxPacks: more packs than this when a Cache opens are merged into
	// one (every run that weaves something adds one).
	maxPacks = 16
	// writeEvery: queued answers wait at most this long to be written.
	writeEvery = time.Second
	// batchSize: the writer is woken when this many bytes of answers are
	// queued, and at least every writeEvery.
	batchSize = 256 << 10
	// flushSize: the buffer of a merge's writes.
	flushSize = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// packed is where an answer is: a record of a pack, or in memory while it
// is queued for writing.
type packed struct {
	f    *os.File
	off  int64 // the record's
	n    int   // its entry's length
	data []byte
}

// errRecord is a record that does not hold what its index entry says.
var errRecord = errors.New("corrupt cache record")

// entry returns the answer's entry, checking the record's key and checksum.
func (p packed) entry(key string) ([]byte, error) {
	if p.f == nil {
		return p.data, nil
	}
	rec := make([]byte, recordHead+p.n)
	if _, err := p.f.ReadAt(rec, p.off); err != nil {
		return nil, err
	}
	want, err := hex.DecodeString(key)
	if err != nil || int(binary.BigEndian.Uint32(rec)) != p.n || !bytes.Equal(rec[8:recordHead], want) ||
		crc32.Checksum(rec[8:], castagnoli) != binary.BigEndian.Uint32(rec[4:]) {
		return nil, errRecord
	}
	return rec[recordHead:], nil
}

// appendRecord appends key's record of entry to b.
func appendRecord(b []byte, key string, entry []byte) []byte {
	start := len(b)
	b = append(b, make([]byte, 8)...)
	b, _ = hex.AppendDecode(b, []byte(key)) // Key spells SHA-256 sums
	b = append(b, entry...)
	binary.BigEndian.PutUint32(b[start:], uint32(len(entry)))
	binary.BigEndian.PutUint32(b[start+4:], crc32.Checksum(b[start+8:], castagnoli))
	return b
}

// readPacks indexes the packs in the directory, merging them first if
// there are more than maxPacks.
func (c *Cache) readPacks() error {
	names, err := filepath.Glob(filepath.Join(c.dir, "*"+packSuffix))
	if err != nil {
		return err
	}
	if len(names) > maxPacks {
		if merged, err := c.merge(names); err == nil {
			names = []string{merged}
		}
	}
	for _, name := range names {
		c.indexPack(name)
	}
	return nil
}

// indexPack adds the records of pack name to the index; a pack that cannot
// be read adds nothing.
func (c *Cache) indexPack(name string) {
	f, err := os.Open(name)
	if err != nil {
		return
	}
	n := 0
	scanPack(f, func(key string, off int64, size int) {
		c.index[key] = packed{f: f, off: off, n: size}
		n++
	})
	if n == 0 {
		f.Close()
		return
	}
	c.packs = append(c.packs, f)
}

// scanPack calls record for each whole record of the pack f, with its key,
// offset and entry length.
func scanPack(f *os.File, record func(key string, off int64, n int)) {
	r := bufio.NewReaderSize(f, 64<<10)
	magic := make([]byte, len(packMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != packMagic {
		return
	}
	off := int64(len(packMagic))
	var head [recordHead]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		n := int64(binary.BigEndian.Uint32(head[:]))
		if d, err := r.Discard(int(n)); err != nil || int64(d) != n {
			return // cut short: the rest of the pack is being written, or lost
		}
		record(hex.EncodeToString(head[8:]), off, int(n))
		off += recordHead + n
	}
}

// merge copies the whole, sound records of the packs names into one new
// pack and removes them; it returns the new pack's name. Another process
// merging at the same time makes it give up (an error). A pack still being
// written by a live process loses what that process writes after the
// merge read it: those classes are woven again by a later run.
func (c *Cache) merge(names []string) (string, error) {
	lock, err := os.OpenFile(filepath.Join(c.dir, "merge.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return "", err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	out, err := os.CreateTemp(c.dir, ".merge-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(out.Name()) // after the rename, a no-op
	w := bufio.NewWriterSize(out, flushSize)
	w.WriteString(packMagic)
	seen := map[string]bool{}
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		scanPack(f, func(key string, off int64, n int) {
			if seen[key] {
				return
			}
			if e, err := (packed{f: f, off: off, n: n}).entry(key); err == nil {
				seen[key] = true
				w.Write(appendRecord(nil, key, e))
			}
		})
		f.Close()
	}
	err = w.Flush()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	merged := filepath.Join(c.dir, "merged-"+filepath.Base(out.Name())[len(".merge-"):]+packSuffix)
	if err == nil {
		err = os.Rename(out.Name(), merged)
	}
	if err != nil {
		return "", fmt.Errorf("merging the load-time cache's packs: %w", err)
	}
	for _, name := range names {
		os.Remove(name)
	}
	return merged, nil
}

// write appends the queued answers to this process's pack (created at the
// first) in batches, one write each, until Close; once written, the index
// points at the pack instead of memory. If the pack cannot be created or
// written, answers stay in memory for this run.
func (c *Cache) write() {
	defer close(c.done)
	tick := time.NewTicker(writeEvery)
	defer tick.Stop()
	var (
		f      *os.File
		off    int64
		buf    []byte
		failed bool
	)
	for {
		select {
		case <-c.kick:
		case <-tick.C:
		}
		c.mu.Lock()
		batch, closing := c.queue, c.closing
		c.queue, c.queued = nil, 0
		c.mu.Unlock()
		if len(batch) > 0 && !failed && f == nil {
			var err error
			if f, err = c.createPack(); err != nil {
				failed = true
			}
			off = int64(len(packMagic))
		}
		if len(batch) > 0 && !failed {
			buf = buf[:0]
			for _, e := range batch {
				buf = appendRecord(buf, e.key, e.data)
			}
			if _, err := f.Write(buf); err != nil {
				failed = true // the answers stay in memory
			} else {
				c.mu.Lock()
				for _, e := range batch {
					c.index[e.key] = packed{f: f, off: off, n: len(e.data)}
					off += int64(recordHead + len(e.data))
				}
				c.mu.Unlock()
			}
		}
		if closing {
			return
		}
	}
}

// createPack creates this process's pack and adds it to the packs read.
func (c *Cache) createPack() (*os.File, error) {
	f, err := os.CreateTemp(c.dir, "*"+packSuffix)
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(packMagic); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	c.mu.Lock()
	c.packs = append(c.packs, f)
	c.mu.Unlock()
	return f, nil
}
