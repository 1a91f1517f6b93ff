package classfile

import (
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
)

// Constant-pool tags (JVMS §4.4).
const (
	TagUtf8               = 1
	TagInteger            = 3
	TagFloat              = 4
	TagLong               = 5
	TagDouble             = 6
	TagClass              = 7
	TagString             = 8
	TagFieldref           = 9
	TagMethodref          = 10
	TagInterfaceMethodref = 11
	TagNameAndType        = 12
	TagMethodHandle       = 15
	TagMethodType         = 16
	TagDynamic            = 17
	TagInvokeDynamic      = 18
	TagModule             = 19
	TagPackage            = 20
)

// Constant is one constant-pool entry. Which fields are used depends on Tag:
//
//	Utf8                         Str (the raw modified-UTF-8 bytes)
//	Integer, Float, Long, Double Num (the raw bits)
//	Class, String, MethodType,
//	Module, Package              A (index of a Utf8)
//	Fieldref, Methodref,
//	InterfaceMethodref           A (class), B (name-and-type)
//	NameAndType                  A (name), B (descriptor)
//	MethodHandle                 A (reference kind), B (reference index)
//	Dynamic, InvokeDynamic       A (bootstrap method index), B (name-and-type)
//
// The slot after a Long or Double has Tag 0, as has slot 0.
type Constant struct {
	Tag  uint8
	A, B uint16
	Num  uint64
	Str  string
}

// Pool is a constant pool. Index 0 is unused, as in the class file.
// Add* methods return the index of an equal existing entry or append one.
type Pool struct {
	entries []Constant
	// Deduplication indexes, each built on first use: most encodes add only
	// attribute names and class names, so those get cheap indexes of their own.
	utf8s   utf8Index // Utf8 entries
	classes []uint16  // Class entries by their Utf8 index (0: none)
	index   refIndex  // all other entries
	// The member references added last (entries never change once added).
	refs    [4]refMemo
	nextRef int
}

// refKey is a non-Utf8 constant without its (always empty) string: a
// pointer-free key hashes faster and costs the collector nothing.
type refKey struct {
	tag  uint8
	a, b uint16
	num  uint64
}

func keyOf(c *Constant) refKey { return refKey{c.Tag, c.A, c.B, c.Num} }

// NewPool returns an empty pool (with the unused slot 0).
func NewPool() *Pool { return &Pool{entries: constants(1, 64)} }

// Len returns constant_pool_count: one more than the highest index.
func (p *Pool) Len() int { return len(p.entries) }

// Get returns entry i; an out-of-range index gives the zero Constant.
func (p *Pool) Get(i uint16) Constant {
	if int(i) >= len(p.entries) {
		return Constant{}
	}
	return p.entries[i]
}

// Tag returns the tag of entry i, or 0 if i is invalid.
func (p *Pool) Tag(i uint16) uint8 { return p.Get(i).Tag }

// Utf8 returns the string of Utf8 entry i ("" if it is not one).
func (p *Pool) Utf8(i uint16) string {
	c := p.Get(i)
	if c.Tag != TagUtf8 {
		return ""
	}
	return c.Str
}

// ClassName returns the internal name of Class entry i (e.g. "java/lang/String").
func (p *Pool) ClassName(i uint16) string {
	c := p.Get(i)
	if c.Tag != TagClass {
		return ""
	}
	return p.Utf8(c.A)
}

// NameAndType returns the name and descriptor of NameAndType entry i.
func (p *Pool) NameAndType(i uint16) (name, desc string) {
	c := p.Get(i)
	if c.Tag != TagNameAndType {
		return "", ""
	}
	return p.Utf8(c.A), p.Utf8(c.B)
}

// MemberRef returns owner, name and descriptor of a Fieldref, Methodref or
// InterfaceMethodref entry.
func (p *Pool) MemberRef(i uint16) (owner, name, desc string) {
	c := p.Get(i)
	switch c.Tag {
	case TagFieldref, TagMethodref, TagInterfaceMethodref:
		name, desc = p.NameAndType(c.B)
		return p.ClassName(c.A), name, desc
	}
	return "", "", ""
}

// DynamicNameAndType returns the name and descriptor of a Dynamic or
// InvokeDynamic entry.
func (p *Pool) DynamicNameAndType(i uint16) (name, desc string) {
	c := p.Get(i)
	if c.Tag != TagDynamic && c.Tag != TagInvokeDynamic {
		return "", ""
	}
	return p.NameAndType(c.B)
}

// Int returns the value of an Integer entry.
func (p *Pool) Int(i uint16) int32 { return int32(uint32(p.Get(i).Num)) }

// Long returns the value of a Long entry.
func (p *Pool) Long(i uint16) int64 { return int64(p.Get(i).Num) }

// Float returns the value of a Float entry.
func (p *Pool) Float(i uint16) float32 { return math.Float32frombits(uint32(p.Get(i).Num)) }

// Double returns the value of a Double entry.
func (p *Pool) Double(i uint16) float64 { return math.Float64frombits(p.Get(i).Num) }

// Add returns the index of an entry equal to c, appending it if there is none.
// It panics if the pool would exceed 65,535 entries; callers that build
// classes from untrusted sizes check Len first.
func (p *Pool) Add(c Constant) uint16 {
	switch c.Tag {
	case TagUtf8:
		if p.utf8s.slots == nil {
			p.utf8s.build(p.entries)
		}
		if i := p.utf8s.find(p.entries, c.Str); i != 0 {
			return i
		}
	case TagClass:
		if p.classes == nil {
			p.classes = make([]uint16, len(p.entries), cap(p.entries))
			for i := 1; i < len(p.entries); i++ { // lowest index wins
				if e := &p.entries[i]; e.Tag == TagClass && int(e.A) < len(p.classes) && p.classes[e.A] == 0 {
					p.classes[e.A] = uint16(i)
				}
			}
		}
		if int(c.A) < len(p.classes) && p.classes[c.A] != 0 && c == (Constant{Tag: TagClass, A: c.A}) {
			return p.classes[c.A]
		}
	default:
		if p.index.slots == nil {
			p.index.build(p.entries)
		}
		if i := p.index.find(p.entries, keyOf(&c)); i != 0 && c.Str == "" {
			return i
		}
	}
	n := len(p.entries)
	width := 1
	if c.Tag == TagLong || c.Tag == TagDouble {
		width = 2
	}
	if n+width > 0xFFFF {
		panic(fmt.Sprintf("classfile: constant pool overflow (%d entries)", n))
	}
	p.entries = append(p.entries, c)
	if width == 2 {
		p.entries = append(p.entries, Constant{})
	}
	switch c.Tag {
	case TagUtf8:
		p.utf8s.insert(p.entries, uint16(n))
	case TagClass:
		for int(c.A) >= len(p.classes) {
			p.classes = append(p.classes, 0)
		}
		if p.classes[c.A] == 0 {
			p.classes[c.A] = uint16(n)
		}
	default:
		if c.Str == "" {
			p.index.insert(p.entries, uint16(n))
		}
	}
	return uint16(n)
}

// utf8Index finds Utf8 entries by their string: an open-addressing table
// of pool indices (0: empty slot), smaller and quicker to build than a
// map[string]uint16, which matters because weaving builds one per class.
type utf8Index struct {
	slots []uint16 // len is a power of two, at least twice the entries
	n     int
}

var utf8Seed = maphash.MakeSeed()

// build indexes the Utf8 entries of es; the lowest index of equal strings wins.
func (x *utf8Index) build(es []Constant) {
	n := 0
	for i := 1; i < len(es); i++ {
		if es[i].Tag == TagUtf8 {
			n++
		}
	}
	size := 64
	for size < 2*(n+16) {
		size *= 2
	}
	x.slots, x.n = make([]uint16, size), 0
	for i := 1; i < len(es); i++ {
		if es[i].Tag == TagUtf8 {
			x.insert(es, uint16(i))
		}
	}
}

// find returns the index of the Utf8 entry s, 0 if none.
func (x *utf8Index) find(es []Constant, s string) uint16 {
	mask := len(x.slots) - 1
	for k := int(maphash.String(utf8Seed, s)) & mask; ; k = (k + 1) & mask {
		i := x.slots[k]
		if i == 0 {
			return 0
		}
		if e := &es[i]; len(e.Str) == len(s) && e.Str == s {
			return i
		}
	}
}

// insert adds Utf8 entry i of es unless an equal string is indexed.
func (x *utf8Index) insert(es []Constant, i uint16) {
	if 2*(x.n+1) > len(x.slots) {
		old := x.slots
		x.slots, x.n = make([]uint16, 2*len(old)), 0
		for _, j := range old {
			if j != 0 {
				x.insert(es, j)
			}
		}
	}
	s := es[i].Str
	mask := len(x.slots) - 1
	k := int(maphash.String(utf8Seed, s)) & mask
	for ; x.slots[k] != 0; k = (k + 1) & mask {
		if es[x.slots[k]].Str == s {
			return
		}
	}
	x.slots[k] = i
	x.n++
}

// refIndex finds the entries other than Utf8 and Class by their refKey:
// an open-addressing table of pool indices (0: empty slot), like utf8Index.
type refIndex struct {
	slots []uint16
	n     int
}

func (k refKey) hash() uint64 {
	h := uint64(k.tag)<<32 | uint64(k.a)<<16 | uint64(k.b)
	h ^= k.num * 0x9E3779B97F4A7C15
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>29
}

func isRef(tag uint8) bool { return tag != 0 && tag != TagUtf8 && tag != TagClass }

// build indexes the entries of es; the lowest index of equal keys wins.
func (x *refIndex) build(es []Constant) {
	n := 0
	for i := 1; i < len(es); i++ {
		if isRef(es[i].Tag) {
			n++
		}
	}
	size := 64
	for size < 2*(n+16) {
		size *= 2
	}
	x.slots, x.n = make([]uint16, size), 0
	for i := 1; i < len(es); i++ {
		if isRef(es[i].Tag) {
			x.insert(es, uint16(i))
		}
	}
}

// find returns the index of the entry with key k, 0 if none.
func (x *refIndex) find(es []Constant, k refKey) uint16 {
	mask := len(x.slots) - 1
	for s := int(k.hash()) & mask; ; s = (s + 1) & mask {
		i := x.slots[s]
		if i == 0 {
			return 0
		}
		if keyOf(&es[i]) == k {
			return i
		}
	}
}

// insert adds entry i of es unless an equal one is indexed.
func (x *refIndex) insert(es []Constant, i uint16) {
	if 2*(x.n+1) > len(x.slots) {
		old := x.slots
		x.slots, x.n = make([]uint16, 2*len(old)), 0
		for _, j := range old {
			if j != 0 {
				x.insert(es, j)
			}
		}
	}
	k := keyOf(&es[i])
	mask := len(x.slots) - 1
	s := int(k.hash()) & mask
	for ; x.slots[s] != 0; s = (s + 1) & mask {
		if keyOf(&es[x.slots[s]]) == k {
			return
		}
	}
	x.slots[s] = i
	x.n++
}

// classIndex returns the index of the Class entry for name, adding one if
// there is none. Before the dedup indexes exist it scans the Class entries,
// which is cheaper than building them for the few names a method's frames
// use.
func (p *Pool) classIndex(name string) uint16 {
	if p.classes == nil || p.utf8s.slots == nil {
		for i := 1; i < len(p.entries); i++ {
			if e := &p.entries[i]; e.Tag == TagClass && len(p.Get(e.A).Str) == len(name) && p.Utf8(e.A) == name {
				return uint16(i)
			}
		}
	}
	return p.AddClass(name)
}

// size returns the encoded size of the pool.
func (p *Pool) size() int {
	n := 2
	for i := 1; i < len(p.entries); i++ {
		size, slots := entrySize(&p.entries[i])
		n += size
		i += slots - 1
	}
	return n
}

// entrySize returns the encoded size of entry c and the pool slots it
// takes (2 for Long and Double).
func entrySize(c *Constant) (size, slots int) {
	switch c.Tag {
	case TagUtf8:
		return 3 + len(c.Str), 1
	case TagLong, TagDouble:
		return 9, 2
	case TagClass, TagString, TagMethodType, TagModule, TagPackage:
		return 3, 1
	case TagMethodHandle:
		return 4, 1
	}
	return 5, 1
}

// AddUtf8 adds a Utf8 entry.
func (p *Pool) AddUtf8(s string) uint16 { return p.Add(Constant{Tag: TagUtf8, Str: s}) }

// AddClass adds a Class entry for an internal name.
func (p *Pool) AddClass(internalName string) uint16 {
	return p.Add(Constant{Tag: TagClass, A: p.AddUtf8(internalName)})
}

// AddString adds a String entry.
func (p *Pool) AddString(s string) uint16 {
	return p.Add(Constant{Tag: TagString, A: p.AddUtf8(s)})
}

// AddInt adds an Integer entry.
func (p *Pool) AddInt(v int32) uint16 {
	return p.Add(Constant{Tag: TagInteger, Num: uint64(uint32(v))})
}

// AddIntSlot appends an Integer entry of value v that Add never returns
// for an equal value (its B is 1, which Integer entries otherwise leave 0
// and the encoding ignores): a slot whose value the caller sets in the
// encoded class, at EntryOffsets, once it knows it.
func (p *Pool) AddIntSlot(v int32) uint16 {
	n := len(p.entries)
	if n+1 > 0xFFFF {
		panic(fmt.Sprintf("classfile: constant pool overflow (%d entries)", n))
	}
	p.entries = append(p.entries, Constant{Tag: TagInteger, B: 1, Num: uint64(uint32(v))})
	return uint16(n)
}

// EntryOffsets returns the offsets, in the class file Class.Bytes encodes
// with this pool, of the entries at indexes (in increasing order): each
// offset is that of the entry's tag byte.
func (p *Pool) EntryOffsets(indexes []uint16) []int {
	out := make([]int, 0, len(indexes))
	off := 10 // magic, versions, constant_pool_count
	k := 0
	for i := 1; i < len(p.entries) && k < len(indexes); i++ {
		if uint16(i) == indexes[k] {
			out = append(out, off)
			k++
		}
		size, slots := entrySize(&p.entries[i])
		off += size
		i += slots - 1
	}
	return out
}

// AddLong adds a Long entry.
func (p *Pool) AddLong(v int64) uint16 { return p.Add(Constant{Tag: TagLong, Num: uint64(v)}) }

// AddFloat adds a Float entry.
func (p *Pool) AddFloat(v float32) uint16 {
	return p.Add(Constant{Tag: TagFloat, Num: uint64(math.Float32bits(v))})
}

// AddDouble adds a Double entry.
func (p *Pool) AddDouble(v float64) uint16 {
	return p.Add(Constant{Tag: TagDouble, Num: math.Float64bits(v)})
}

// AddNameAndType adds a NameAndType entry.
func (p *Pool) AddNameAndType(name, desc string) uint16 {
	return p.Add(Constant{Tag: TagNameAndType, A: p.AddUtf8(name), B: p.AddUtf8(desc)})
}

// AddFieldref adds a Fieldref entry.
func (p *Pool) AddFieldref(owner, name, desc string) uint16 {
	return p.addRef(TagFieldref, owner, name, desc)
}

// AddMethodref adds a Methodref entry, or an InterfaceMethodref if iface.
func (p *Pool) AddMethodref(owner, name, desc string, iface bool) uint16 {
	tag := uint8(TagMethodref)
	if iface {
		tag = TagInterfaceMethodref
	}
	return p.addRef(tag, owner, name, desc)
}

// refMemo remembers a member reference added to a pool. A weaver adds the
// same few references (its runtime's guard, a sister class's helpers) to
// every method it rewrites: remembering them saves five lookups each time.
type refMemo struct {
	owner, name, desc string
	tag               uint8
	index             uint16
}

func (p *Pool) addRef(tag uint8, owner, name, desc string) uint16 {
	for i := range p.refs {
		if r := &p.refs[i]; r.index != 0 && r.tag == tag && r.name == name && r.owner == owner && r.desc == desc {
			return r.index
		}
	}
	i := p.Add(Constant{Tag: tag, A: p.AddClass(owner), B: p.AddNameAndType(name, desc)})
	p.refs[p.nextRef] = refMemo{owner, name, desc, tag, i}
	p.nextRef = (p.nextRef + 1) % len(p.refs)
	return i
}

// released holds entry slices of released pools, for parsePool and
// NewPool to reuse, by size: released[k] those of capacity in [2^k,
// 2^(k+1)). A weaver parses thousands of classes, each dropped once
// encoded, and their entries were a seventh of its allocation. The lists
// are short (a slice that does not fit is dropped): a sync.Pool kept every
// slice released between two collections, tens of MB over the JDK.
var released = func() (r [17]chan []Constant) {
	for k := range r {
		r[k] = make(chan []Constant, 16>>max(0, k-10)+1)
	}
	return r
}()

// constants returns n zero entries with room for capacity, a released
// slice if one of capacity [capacity, 4*capacity) is there.
func constants(n, capacity int) []Constant {
	if k := bits.Len(uint(capacity - 1)); capacity > 0 && k < len(released) {
		select {
		case e := <-released[k]:
			return e[:n] // cleared by Release
		default:
		}
	}
	return make([]Constant, n, capacity)
}

// Release gives the pool's entries for reuse by a later Parse: the pool,
// and so its class, must not be used afterwards (the strings read from it
// stay valid). A weaver releases each class it has encoded.
func (p *Pool) Release() {
	e := p.entries[:cap(p.entries)]
	*p = Pool{}
	if k := bits.Len(uint(cap(e))) - 1; k >= 0 && k < len(released) {
		clear(e) // drops the strings too
		select {
		case released[k] <- e[:0]:
		default:
		}
	}
}

// parsePool reads the constant pool starting at r's position.
func parsePool(r *reader) (*Pool, error) {
	count := int(r.u2())
	if r.err != nil {
		return nil, r.err
	}
	if count == 0 {
		return nil, r.fail("constant_pool_count is 0")
	}
	// Each entry takes at least 3 bytes: bound the allocation by the input.
	if count-1 > (len(r.b)-r.off)/3+1 {
		return nil, r.fail("constant_pool_count %d exceeds the class size", count)
	}
	// Room for what a weaver typically adds, so the first Add does not
	// copy the whole pool.
	p := &Pool{entries: constants(count, count+count/4+16)}
	// One string for the whole pool: Utf8 entries are substrings of it,
	// which saves an allocation per entry.
	base := r.off
	text := string(r.b[base:poolEnd(r.b, base, count)])
	for i := 1; i < count; i++ {
		at := r.off
		tag := r.u1()
		c := Constant{Tag: tag}
		switch tag {
		case TagUtf8:
			n := int(r.u2())
			if r.need(n) {
				c.Str = text[r.off-base : r.off-base+n]
				r.off += n
			}
		case TagInteger, TagFloat:
			c.Num = uint64(r.u4())
		case TagLong, TagDouble:
			c.Num = uint64(r.u4())<<32 | uint64(r.u4())
		case TagClass, TagString, TagMethodType, TagModule, TagPackage:
			c.A = r.u2()
		case TagFieldref, TagMethodref, TagInterfaceMethodref, TagNameAndType,
			TagDynamic, TagInvokeDynamic:
			c.A = r.u2()
			c.B = r.u2()
		case TagMethodHandle:
			c.A = uint16(r.u1())
			c.B = r.u2()
		default:
			if r.err == nil {
				r.off = at
				return nil, r.fail("constant pool entry %d has unknown tag %d", i, tag)
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		p.entries[i] = c
		if tag == TagLong || tag == TagDouble {
			i++ // the next slot is unusable
			if i == count {
				r.off = at
				return nil, r.fail("constant pool entry %d: 8-byte constant in the last slot", i-1)
			}
		}
	}
	return p, nil
}

// poolEnd returns the offset in b just past the count-1 constant-pool
// entries starting at off, or len(b) if they do not fit b or a tag is
// unknown (parsePool then reports where).
func poolEnd(b []byte, off, count int) int {
	for i := 1; i < count; i++ {
		if off >= len(b) {
			return len(b)
		}
		n, wide := entryLen(b, off)
		if n == 0 {
			return len(b)
		}
		off += n
		if wide {
			i++
		}
	}
	return min(off, len(b))
}

// entryLen returns the length in bytes of the constant-pool entry at
// b[off] (off < len(b)), and whether it takes two slots (Long, Double);
// 0 for an unknown tag. A Utf8 entry whose header runs past b counts as 3
// bytes: callers see the entry cut short by comparing with len(b).
func entryLen(b []byte, off int) (n int, wide bool) {
	switch b[off] {
	case TagUtf8:
		if off+3 > len(b) {
			return 3, false
		}
		return 3 + (int(b[off+1])<<8 | int(b[off+2])), false
	case TagInteger, TagFloat, TagFieldref, TagMethodref, TagInterfaceMethodref, TagNameAndType,
		TagDynamic, TagInvokeDynamic:
		return 5, false
	case TagLong, TagDouble:
		return 9, true
	case TagClass, TagString, TagMethodType, TagModule, TagPackage:
		return 3, false
	case TagMethodHandle:
		return 4, false
	}
	return 0, false
}

// write appends the pool's encoding to b.
func (p *Pool) write(b []byte) []byte {
	b = be16(b, uint16(len(p.entries)))
	for i := 1; i < len(p.entries); i++ {
		c := &p.entries[i]
		b = append(b, c.Tag)
		switch c.Tag {
		case TagUtf8:
			b = be16(b, uint16(len(c.Str)))
			b = append(b, c.Str...)
		case TagInteger, TagFloat:
			b = be32(b, uint32(c.Num))
		case TagLong, TagDouble:
			b = be32(b, uint32(c.Num>>32))
			b = be32(b, uint32(c.Num))
			i++
		case TagClass, TagString, TagMethodType, TagModule, TagPackage:
			b = be16(b, c.A)
		case TagMethodHandle:
			b = append(b, byte(c.A))
			b = be16(b, c.B)
		default:
			b = be16(b, c.A)
			b = be16(b, c.B)
		}
	}
	return b
}
