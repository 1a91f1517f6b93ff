package classfile

import (
	"encoding/binary"
	"fmt"
)

// Access flags (JVMS §4.1, §4.5, §4.6).
const (
	AccPublic       = 0x0001
	AccPrivate      = 0x0002
	AccProtected    = 0x0004
	AccStatic       = 0x0008
	AccFinal        = 0x0010
	AccSuper        = 0x0020 // classes
	AccSynchronized = 0x0020 // methods
	AccVolatile     = 0x0040 // fields
	AccBridge       = 0x0040 // methods
	AccTransient    = 0x0080 // fields
	AccVarargs      = 0x0080 // methods
	AccNative       = 0x0100
	AccInterface    = 0x0200
	AccAbstract     = 0x0400
	AccStrict       = 0x0800
	AccSynthetic    = 0x1000
	AccAnnotation   = 0x2000
	AccEnum         = 0x4000
	AccModule       = 0x8000
)

// Supported class-file major versions: Java 1.1 (45) to Java 25 (69).
const (
	MinMajorVersion = 45
	MaxMajorVersion = 69
)

// Class is a parsed class file. Indices refer to Pool.
type Class struct {
	Minor, Major uint16
	Pool         *Pool
	Access       uint16
	This         uint16 // Class entry
	Super        uint16 // Class entry; 0 for java/lang/Object and module-info
	Interfaces   []uint16
	Fields       []*Member
	Methods      []*Member
	Attributes   []Attribute
}

// Member is a field or a method.
type Member struct {
	Access     uint16
	Name       uint16 // Utf8 entry
	Desc       uint16 // Utf8 entry
	Attributes []Attribute
}

// Attribute is an attribute kept as its raw bytes (without the 6-byte header).
// Decode* functions in attrs.go turn the known ones into structured values.
type Attribute struct {
	Name uint16 // Utf8 entry
	Info []byte
}

// FormatError reports malformed class-file input: the class (or the source
// name given to Parse), the byte offset, and what was wrong there.
type FormatError struct {
	Class  string
	Offset int
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", e.Class, e.Offset, e.Msg)
}

// Name returns the class's internal name.
func (c *Class) Name() string { return c.Pool.ClassName(c.This) }

// SuperName returns the internal name of the superclass, "" if none.
func (c *Class) SuperName() string { return c.Pool.ClassName(c.Super) }

// InterfaceNames returns the internal names of the direct superinterfaces.
func (c *Class) InterfaceNames() []string {
	names := make([]string, len(c.Interfaces))
	for i, x := range c.Interfaces {
		names[i] = c.Pool.ClassName(x)
	}
	return names
}

// IsInterface reports whether the class is an interface.
func (c *Class) IsInterface() bool { return c.Access&AccInterface != 0 }

// MemberName returns a member's name.
func (c *Class) MemberName(m *Member) string { return c.Pool.Utf8(m.Name) }

// MemberDesc returns a member's descriptor.
func (c *Class) MemberDesc(m *Member) string { return c.Pool.Utf8(m.Desc) }

// FindMethod returns the method with the given name and descriptor, or nil.
func (c *Class) FindMethod(name, desc string) *Member {
	for _, m := range c.Methods {
		if c.Pool.Utf8(m.Name) == name && c.Pool.Utf8(m.Desc) == desc {
			return m
		}
	}
	return nil
}

// FindField returns the field with the given name and descriptor, or nil.
func (c *Class) FindField(name, desc string) *Member {
	for _, f := range c.Fields {
		if c.Pool.Utf8(f.Name) == name && c.Pool.Utf8(f.Desc) == desc {
			return f
		}
	}
	return nil
}

// Attr returns the first attribute named name in attrs, or nil.
func (c *Class) Attr(attrs []Attribute, name string) *Attribute {
	for i := range attrs {
		if c.Pool.Utf8(attrs[i].Name) == name {
			return &attrs[i]
		}
	}
	return nil
}

// Parse decodes a class file. name labels errors (a file or jar entry name);
// Parse never panics on malformed input. The returned Class shares no memory
// with b except attribute bytes, which alias b: callers that reuse b must
// copy it first.
func Parse(name string, b []byte) (*Class, error) {
	r := &reader{b: b, name: name}
	if r.u4() != 0xCAFEBABE {
		if r.err != nil {
			return nil, r.err
		}
		r.off = 0
		return nil, r.fail("bad magic number")
	}
	c := &Class{Minor: r.u2(), Major: r.u2()}
	if r.err != nil {
		return nil, r.err
	}
	if c.Major < MinMajorVersion || c.Major > MaxMajorVersion {
		r.off = 6
		return nil, r.fail("unsupported class-file version %d.%d", c.Major, c.Minor)
	}
	pool, err := parsePool(r)
	if err != nil {
		return nil, err
	}
	c.Pool = pool
	c.Access = r.u2()
	c.This = r.u2()
	c.Super = r.u2()
	if r.err == nil && c.Pool.Tag(c.This) != TagClass {
		r.off -= 4
		return nil, r.fail("this_class %d is not a Class constant", c.This)
	}
	if n := r.count(2); n > 0 {
		c.Interfaces = make([]uint16, n)
		for i := range c.Interfaces {
			c.Interfaces[i] = r.u2()
		}
	}
	r.name = name + " (" + c.Name() + ")"
	if name == "" || name == c.Name() || name == c.Name()+".class" {
		r.name = c.Name()
	}
	c.Fields = r.members()
	c.Methods = r.members()
	c.Attributes = r.attributes()
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(b) {
		return nil, r.fail("%d bytes of trailing data", len(b)-r.off)
	}
	return c, nil
}

// Bytes encodes the class file.
func (c *Class) Bytes() []byte {
	b := make([]byte, 0, c.size())
	b = be32(b, 0xCAFEBABE)
	b = be16(b, c.Minor)
	b = be16(b, c.Major)
	b = c.Pool.write(b)
	b = be16(b, c.Access)
	b = be16(b, c.This)
	b = be16(b, c.Super)
	b = be16(b, uint16(len(c.Interfaces)))
	for _, x := range c.Interfaces {
		b = be16(b, x)
	}
	b = writeMembers(b, c.Fields)
	b = writeMembers(b, c.Methods)
	return writeAttributes(b, c.Attributes)
}

// size returns the encoded size of the class, so Bytes allocates once.
func (c *Class) size() int {
	n := 10 + c.Pool.size() + 8 + 2*len(c.Interfaces) + 6 + attributesSize(c.Attributes)
	for _, ms := range [2][]*Member{c.Fields, c.Methods} {
		for _, m := range ms {
			n += 6 + attributesSize(m.Attributes)
		}
	}
	return n
}

func attributesSize(as []Attribute) int {
	n := 2
	for _, a := range as {
		n += 6 + len(a.Info)
	}
	return n
}

func writeMembers(b []byte, ms []*Member) []byte {
	b = be16(b, uint16(len(ms)))
	for _, m := range ms {
		b = be16(b, m.Access)
		b = be16(b, m.Name)
		b = be16(b, m.Desc)
		b = writeAttributes(b, m.Attributes)
	}
	return b
}

func writeAttributes(b []byte, as []Attribute) []byte {
	b = be16(b, uint16(len(as)))
	for _, a := range as {
		b = be16(b, a.Name)
		b = be32(b, uint32(len(a.Info)))
		b = append(b, a.Info...)
	}
	return b
}

// reader decodes big-endian values and records the first error; after an
// error every read returns zero, so decoders check r.err once per structure.
type reader struct {
	b    []byte
	off  int
	name string
	err  error
}

func (r *reader) fail(format string, args ...any) error {
	if r.err == nil {
		r.err = &FormatError{Class: r.name, Offset: r.off, Msg: fmt.Sprintf(format, args...)}
	}
	return r.err
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || len(r.b)-r.off < n {
		r.fail("truncated: need %d bytes, have %d", n, len(r.b)-r.off)
		return false
	}
	return true
}

func (r *reader) u1() uint8 {
	if !r.need(1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u2() uint16 {
	if !r.need(2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u4() uint32 {
	if !r.need(4) {
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *reader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	v := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return v
}

// count reads a u2 count of items that take at least minSize bytes each and
// checks it against the remaining input, so no allocation is sized by an
// unchecked count.
func (r *reader) count(minSize int) int {
	n := int(r.u2())
	if r.err == nil && n*minSize > len(r.b)-r.off {
		r.off -= 2
		r.fail("count %d exceeds the remaining %d bytes", n, len(r.b)-r.off-2)
		return 0
	}
	return n
}

func (r *reader) members() []*Member {
	n := r.count(8)
	if n == 0 {
		return nil
	}
	ms := make([]*Member, n)
	block := make([]Member, n)
	for i := range ms {
		m := &block[i]
		m.Access = r.u2()
		m.Name = r.u2()
		m.Desc = r.u2()
		m.Attributes = r.attributes()
		ms[i] = m
	}
	return ms
}

func (r *reader) attributes() []Attribute {
	n := r.count(6)
	if n == 0 {
		return nil
	}
	as := make([]Attribute, n)
	for i := range as {
		as[i].Name = r.u2()
		size := r.u4()
		if r.err == nil && uint64(size) > uint64(len(r.b)-r.off) {
			r.off -= 4
			r.fail("attribute length %d exceeds the remaining %d bytes", size, len(r.b)-r.off-4)
		}
		as[i].Info = r.bytes(int(size))
	}
	return as
}

func be16(b []byte, v uint16) []byte { return append(b, byte(v>>8), byte(v)) }
func be32(b []byte, v uint32) []byte {
	return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}
