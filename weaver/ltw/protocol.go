package ltw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The channel's frames (docs/ltw.md), big-endian, each a u32 length then
// that many bytes:
//
//	request:  u8 kind, u16 n, name[n] (UTF-8, "" if unknown), class bytes (the rest)
//	response: u8 status
//	          StatusWoven: u32 n, class[n], u8 count, count × (u16 n, binary name[n], u32 m, class[m])
//	          StatusError: u16 n, message[n]
//	          StatusQuery: u16 n, binary name[n]
//	          StatusToken: u16 n, token[n]
//	          StatusIndex: the cache's index (index.go)
//	          StatusAhead: u32 count, count × (u16 n, binary name[n], key[32], u32 number,
//	                       u32 m, answer[m]: a StatusUnchanged or StatusWoven payload),
//	                       then the response proper (u8 status ..., never StatusAhead)
//
// A StatusQuery asks the JVM for a class's bytes in the middle of a
// request: the JVM answers with a request of kind Answer, then reads the
// request's response (or another query).
//
// Everything read from the JVM is untrusted input: ReadRequest checks
// every length against what is left and against MaxFrame before using it.

// Kind says how the JVM defines a class.
type Kind uint8

const (
	// Normal: ClassLoader.defineClass (a class loader's own class).
	Normal Kind = 0
	// Hidden: Lookup.defineHiddenClass (lambda proxies, LambdaForms,
	// string concatenation...): the name may be defined many times.
	Hidden Kind = 1
	// Lookup: Lookup.defineClass (a normal class of the lookup's package).
	Lookup Kind = 2
	// Answer: the JVM's answer to a StatusQuery: Name is the class asked
	// for, Class its bytes as the defining loader finds them (its
	// resource), empty if it has none.
	Answer Kind = 3
	// Split asks for the responses to come on a second connection: the
	// server answers StatusToken, which the second connection's first
	// request, of kind Reply, names. A connection's first request only.
	Split Kind = 4
	// Reply: this connection carries the responses of the one that got
	// the token Name (Split). It sends nothing more.
	Reply Kind = 5
	// Index asks for the Cache's index (StatusIndex): the JVM answers the
	// classes it lists itself, from the Cache's packs.
	Index Kind = 6
	// Hits reports classes the JVM answered from the index, or from
	// answers woven ahead: Class holds their u32 numbers in it. It gets
	// no response.
	Hits Kind = 7
	// Source names, in Name, the code source (a URL: the jar) of the
	// classes this connection sends next: the server may weave the jar's
	// other classes ahead (ahead.go). It gets no response.
	Source Kind = 8
)

// bridgedKinds is added on the wire to the kind of a Normal, Hidden or
// Lookup request whose defining loader does not see weft's runtime
// (Request.Bridged).
const bridgedKinds = 10

func (k Kind) String() string {
	switch k {
	case Normal:
		return "normal"
	case Hidden:
		return "hidden"
	case Lookup:
		return "lookup"
	case Answer:
		return "answer"
	case Split:
		return "split"
	case Reply:
		return "reply"
	case Index:
		return "index"
	case Hits:
		return "hits"
	case Source:
		return "source"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Status is a response's outcome.
type Status uint8

const (
	StatusUnchanged Status = 0 // define the original bytes
	StatusWoven     Status = 1 // define Extra, then Class
	StatusError     Status = 2 // define the original bytes; Message says why
	StatusQuery     Status = 3 // not an answer: send the bytes of class Query (a request of kind Answer)
	StatusToken     Status = 4 // to a Split request: Message is the token the Reply connection names
	StatusIndex     Status = 5 // to an Index request: Index is the Cache's index, encoded (index.go)
	// StatusAhead prefixes a response with answers woven ahead (ahead.go):
	// Response.Ahead, then the response's own status and payload.
	StatusAhead Status = 6
)

// MaxFrame bounds a frame's length: a class file the JVM accepts is far
// smaller (its constant pool and methods are bounded by u16 counts of
// 64 KB items, in practice a few MB at most).
const MaxFrame = 64 << 20

// Request asks for one class to be woven.
type Request struct {
	Kind Kind
	// Bridged marks a class whose defining loader does not see weft's
	// runtime: woven, its code reaches the runtime and the advice through
	// java.lang.invoke (weaver.Weaver.Bridge). Kind is then Normal, Hidden
	// or Lookup; the wire's kind is bridgedKinds more.
	Bridged bool
	Name    string // as the JVM was given it (binary name), "" if none
	Class   []byte
}

// Extra is a class to define before the woven one (its sister).
type Extra struct {
	Name  string // binary name (a.b.C), as ClassLoader.defineClass takes it
	Class []byte
}

// Response answers a Request.
type Response struct {
	Status  Status
	Class   []byte  // StatusWoven
	Extra   []Extra // StatusWoven, at most 255
	Message string  // StatusError; StatusToken: the token
	Query   string  // StatusQuery: the binary name of the class asked for
	Index   []byte  // StatusIndex: the encoded index, the rest of the frame
	// Ahead, if not empty, goes before the response (StatusAhead): answers
	// to classes the JVM has not sent yet, which it keeps and uses itself.
	Ahead []AheadAnswer
}

// AheadAnswer is the answer to a class woven ahead: the class named Name
// whose request's key (Cache.Key) is Key gets Answer, a StatusUnchanged
// or StatusWoven response's payload (status included); the JVM reports
// Number in a Hits request when it uses it.
type AheadAnswer struct {
	Name   string
	Key    [32]byte
	Number uint32
	Answer []byte
}

// ErrFrame wraps every malformed frame.
var ErrFrame = errors.New("malformed frame")

// ReadRequest reads one request frame. It returns io.EOF when the peer
// closed the channel between frames.
func ReadRequest(r io.Reader) (*Request, error) {
	b, err := readFrame(r)
	if err != nil {
		return nil, err
	}
	return ParseRequest(b)
}

// ParseRequest decodes a request frame's payload.
func ParseRequest(b []byte) (*Request, error) {
	if len(b) < 3 {
		return nil, fmt.Errorf("%w: request of %d bytes", ErrFrame, len(b))
	}
	req := &Request{Kind: Kind(b[0])}
	if req.Kind >= bridgedKinds && req.Kind <= bridgedKinds+Lookup {
		req.Kind, req.Bridged = req.Kind-bridgedKinds, true
	}
	if req.Kind > Source {
		return nil, fmt.Errorf("%w: unknown request kind %d", ErrFrame, b[0])
	}
	n := int(binary.BigEndian.Uint16(b[1:]))
	if n > len(b)-3 {
		return nil, fmt.Errorf("%w: name of %d bytes in a request of %d", ErrFrame, n, len(b))
	}
	req.Name = string(b[3 : 3+n])
	req.Class = b[3+n:]
	return req, nil
}

// wireKind is req's kind as the frame says it.
func (req *Request) wireKind() Kind {
	if req.Bridged {
		return req.Kind + bridgedKinds
	}
	return req.Kind
}

// kindName names req's kind in a summary: "bridged" for a normal class
// bridged, "bridged hidden" and "bridged lookup" for the others.
func (req *Request) kindName() string {
	switch {
	case !req.Bridged:
		return req.Kind.String()
	case req.Kind == Normal:
		return "bridged"
	}
	return "bridged " + req.Kind.String()
}

// AppendRequest appends req as a frame.
func AppendRequest(b []byte, req *Request) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(3+len(req.Name)+len(req.Class)))
	b = append(b, byte(req.wireKind()))
	b = binary.BigEndian.AppendUint16(b, uint16(len(req.Name)))
	b = append(b, req.Name...)
	return append(b, req.Class...)
}

// AppendResponse appends resp as a frame. Names and messages longer than a
// u16 allows are cut (a binary name that long would not be a class's);
// more than 255 extra classes is an error.
func AppendResponse(b []byte, resp *Response) ([]byte, error) {
	start := len(b)
	b = append(b, 0, 0, 0, 0)
	if len(resp.Ahead) > 0 {
		if resp.Status == StatusAhead {
			return nil, errors.New("a response woven ahead inside another")
		}
		b = append(b, byte(StatusAhead))
		b = binary.BigEndian.AppendUint32(b, uint32(len(resp.Ahead)))
		for _, a := range resp.Ahead {
			name := cut(a.Name)
			b = binary.BigEndian.AppendUint16(b, uint16(len(name)))
			b = append(b, name...)
			b = append(b, a.Key[:]...)
			b = binary.BigEndian.AppendUint32(b, a.Number)
			b = binary.BigEndian.AppendUint32(b, uint32(len(a.Answer)))
			b = append(b, a.Answer...)
		}
	}
	b = append(b, byte(resp.Status))
	switch resp.Status {
	case StatusWoven:
		if len(resp.Extra) > 255 {
			return nil, fmt.Errorf("%d extra classes in one response", len(resp.Extra))
		}
		b = binary.BigEndian.AppendUint32(b, uint32(len(resp.Class)))
		b = append(b, resp.Class...)
		b = append(b, byte(len(resp.Extra)))
		for _, x := range resp.Extra {
			name := cut(x.Name)
			b = binary.BigEndian.AppendUint16(b, uint16(len(name)))
			b = append(b, name...)
			b = binary.BigEndian.AppendUint32(b, uint32(len(x.Class)))
			b = append(b, x.Class...)
		}
	case StatusError, StatusQuery, StatusToken:
		msg := cut(resp.Message)
		if resp.Status == StatusQuery {
			msg = cut(resp.Query)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(msg)))
		b = append(b, msg...)
	case StatusIndex:
		b = append(b, resp.Index...)
	}
	if len(b)-start-4 > MaxFrame {
		return nil, fmt.Errorf("response of %d bytes exceeds %d", len(b)-start-4, MaxFrame)
	}
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}

// ReadResponse reads one response frame (the JVM's side, for tests and
// tools).
func ReadResponse(r io.Reader) (*Response, error) {
	b, err := readFrame(r)
	if err != nil {
		return nil, err
	}
	return ParseResponse(b)
}

// ParseResponse decodes a response frame's payload.
func ParseResponse(b []byte) (*Response, error) {
	d := decoder{b: b}
	resp := &Response{Status: Status(d.u8())}
	if resp.Status == StatusAhead {
		n := int64(d.u32())
		// Each answer takes 42 bytes at least: a count the frame cannot
		// hold allocates nothing.
		if d.err == nil && n > int64(len(d.b))/42 {
			d.err = fmt.Errorf("%w: %d answers woven ahead in %d bytes", ErrFrame, n, len(d.b))
		}
		for i := int64(0); i < n && d.err == nil; i++ {
			var a AheadAnswer
			a.Name = string(d.bytes(int(d.u16())))
			copy(a.Key[:], d.bytes(32))
			a.Number = d.u32()
			a.Answer = d.bytes(int(d.u32()))
			resp.Ahead = append(resp.Ahead, a)
		}
		resp.Status = Status(d.u8())
		if d.err == nil && resp.Status == StatusAhead {
			d.err = fmt.Errorf("%w: a response woven ahead inside another", ErrFrame)
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	switch resp.Status {
	case StatusUnchanged:
	case StatusWoven:
		resp.Class = d.bytes(int(d.u32()))
		n := int(d.u8())
		for i := 0; i < n && d.err == nil; i++ {
			name := string(d.bytes(int(d.u16())))
			resp.Extra = append(resp.Extra, Extra{Name: name, Class: d.bytes(int(d.u32()))})
		}
	case StatusError, StatusToken:
		resp.Message = string(d.bytes(int(d.u16())))
	case StatusQuery:
		resp.Query = string(d.bytes(int(d.u16())))
	case StatusIndex:
		resp.Index = d.bytes(len(d.b))
	default:
		return nil, fmt.Errorf("%w: unknown status %d", ErrFrame, resp.Status)
	}
	if d.err == nil && len(d.b) > 0 {
		d.err = fmt.Errorf("%w: %d bytes after the response", ErrFrame, len(d.b))
	}
	return resp, d.err
}

// readAhead: a frame up to this long is allocated at once; a longer one
// as its bytes arrive, so a length alone cannot make the reader allocate
// more than this.
const readAhead = 1 << 20

// readFrame reads a u32 length and that many bytes (the length is checked
// against MaxFrame first).
func readFrame(r io.Reader) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: truncated length", ErrFrame)
		}
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: frame of %d bytes exceeds %d", ErrFrame, n, MaxFrame)
	}
	if n <= readAhead {
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, fmt.Errorf("%w: frame of %d bytes cut short", ErrFrame, n)
			}
			return nil, err
		}
		return b, nil
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil {
		return nil, err
	}
	if len(b) != int(n) {
		return nil, fmt.Errorf("%w: frame of %d bytes ends after %d", ErrFrame, n, len(b))
	}
	return b, nil
}

// decoder reads big-endian fields, recording the first overrun.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.err = fmt.Errorf("%w: field of %d bytes with %d left", ErrFrame, n, len(d.b))
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) u8() uint8 {
	if v := d.take(1); v != nil {
		return v[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if v := d.take(2); v != nil {
		return binary.BigEndian.Uint16(v)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if v := d.take(4); v != nil {
		return binary.BigEndian.Uint32(v)
	}
	return 0
}

func (d *decoder) bytes(n int) []byte { return d.take(n) }

func cut(s string) string {
	if len(s) > 0xffff {
		return s[:0xffff]
	}
	return s
}
