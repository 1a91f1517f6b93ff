package ltw

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
)

// The Cache's index, as the JVM gets it when it first connects (an Index
// request, answered StatusIndex), big-endian:
//
//	u16 packs, packs × (u16 n, path[n]: a pack file, UTF-8, absolute)
//	u32 count, count × (key[32], u16 pack, u64 offset, u32 n)
//
// Entry i (numbered from 0) is the cached answer of the request whose
// Cache.Key is key: the record at offset in the pack (pack.go), whose
// entry is n bytes long. The JVM computes the key of each class it is to
// define, answers a listed class from the record itself — checking the
// record's length, key and checksum, and the answer's bounds — and reports
// it by number in a Hits request; anything that fails falls back to a
// round trip, which the server answers as before.
type CacheIndex struct {
	Packs   []string
	Entries []IndexEntry
}

// IndexEntry is one cached answer of a CacheIndex.
type IndexEntry struct {
	Key  [sha256.Size]byte
	Pack uint16 // index in Packs
	Off  int64  // the record's offset in the pack
	N    uint32 // the record's entry length
}

const (
	indexEntrySize = sha256.Size + 2 + 8 + 4
	// maxIndexEntries bounds an index (its frame stays within MaxFrame);
	// answers beyond it are served by round trip.
	maxIndexEntries = 1 << 20
	// HitWoven marks a Hits number whose answer was a woven class (the
	// others were answered unchanged).
	HitWoven = 1 << 31
)

// Append appends the encoded index to b.
func (x *CacheIndex) Append(b []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(x.Packs)))
	for _, p := range x.Packs {
		b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(x.Entries)))
	for _, e := range x.Entries {
		b = append(b, e.Key[:]...)
		b = binary.BigEndian.AppendUint16(b, e.Pack)
		b = binary.BigEndian.AppendUint64(b, uint64(e.Off))
		b = binary.BigEndian.AppendUint32(b, e.N)
	}
	return b
}

// ParseIndex decodes an encoded index, checking every length and pack
// number (the JVM's client checks the same).
func ParseIndex(b []byte) (*CacheIndex, error) {
	d := decoder{b: b}
	x := &CacheIndex{}
	np := int(d.u16())
	for i := 0; i < np && d.err == nil; i++ {
		x.Packs = append(x.Packs, string(d.bytes(int(d.u16()))))
	}
	n := int64(d.u32())
	if d.err == nil && n*indexEntrySize != int64(len(d.b)) {
		d.err = fmt.Errorf("%w: index of %d entries in %d bytes", ErrFrame, n, len(d.b))
	}
	for i := int64(0); i < n && d.err == nil; i++ {
		var e IndexEntry
		copy(e.Key[:], d.bytes(sha256.Size))
		e.Pack = d.u16()
		e.Off = int64(binary.BigEndian.Uint64(d.bytes(8)))
		e.N = d.u32()
		if int(e.Pack) >= len(x.Packs) || e.Off < 0 {
			d.err = fmt.Errorf("%w: index entry %d: pack %d of %d, offset %d", ErrFrame, i, e.Pack, len(x.Packs), e.Off)
		}
		x.Entries = append(x.Entries, e)
	}
	return x, d.err
}

// indexSnapshot is the index a Cache hands the JVMs: built once, so that
// the numbers of Hits requests mean the same for every JVM.
type indexSnapshot struct {
	enc  []byte         // the encoded CacheIndex
	keys []string       // Cache keys by entry number
	has  map[string]int // entry numbers by key
}

// snapshot returns the index of the answers written to packs so far,
// built at its first call.
func (c *Cache) snapshot() *indexSnapshot {
	c.snapOnce.Do(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		var x CacheIndex
		packs := map[string]uint16{}
		keys := make([]string, 0, len(c.index))
		for k, p := range c.index {
			if p.f != nil {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		if len(keys) > maxIndexEntries {
			keys = keys[:maxIndexEntries]
		}
		snap := &indexSnapshot{has: make(map[string]int, len(keys))}
		for _, k := range keys {
			p := c.index[k]
			var key [sha256.Size]byte
			if n, err := hex.Decode(key[:], []byte(k)); err != nil || n != sha256.Size {
				continue
			}
			name := p.f.Name()
			i, ok := packs[name]
			if !ok {
				i = uint16(len(x.Packs))
				packs[name] = i
				x.Packs = append(x.Packs, name)
			}
			snap.has[k] = len(snap.keys)
			snap.keys = append(snap.keys, k)
			x.Entries = append(x.Entries, IndexEntry{Key: key, Pack: i, Off: p.off, N: uint32(p.n)})
		}
		snap.enc = x.Append(nil)
		c.snap = snap
	})
	return c.snap
}
