// Package ltw weaves at load time: it serves the woven JDK's class
// definition hook (weaver/jdk's PatchDefiners) over a Unix socket, weaving
// each class the JVM defines with the aspect weaver and sending back the
// woven class and its sister. docs/ltw.md describes the scheme and the
// protocol.
package ltw

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weft-aop/weft/weaver"
)

// Unwoven is a class the JVM defined unwoven because weaving it failed.
type Unwoven struct {
	Class  string `json:"class"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// Summary counts what a Server did.
type Summary struct {
	Woven int `json:"woven"` // classes woven by this server
	// Bridged counts the classes among Woven and FromCache whose loader
	// does not see weft's runtime, which their code reaches through
	// java.lang.invoke (weaver.Weaver.Bridge).
	Bridged   int `json:"bridged,omitempty"`
	FromCache int `json:"fromCache"` // classes sent back woven from the Cache
	Unchanged int `json:"unchanged"` // classes no advice applies to, or already woven (from the Cache or not)
	// Unwoven lists the classes that could not be woven (at most
	// MaxUnwovenListed; UnwovenCount counts them all).
	Unwoven      []Unwoven `json:"unwoven"`
	UnwovenCount int       `json:"unwovenCount"`
	// Methods lists the methods the weaver left unwoven in classes it
	// wove or left unchanged, each with its class and the weaver's
	// warning (at most MaxUnwovenListed; MethodsCount counts them all):
	// a method whose frames need a type no source has, say.
	Methods      []Unwoven `json:"methodsUnwoven,omitempty"`
	MethodsCount int       `json:"methodsUnwovenCount,omitempty"`
	// Skipped counts the classes Server.Skip kept unwoven.
	Skipped int `json:"skipped"`
	// OutOfScope counts the classes the weaver's scope left out
	// (weaver.Options.Scope).
	OutOfScope int `json:"outOfScope,omitempty"`
	// Unreached counts the classes no aspect's shadows can be in
	// (weaver.Weaver.Reach), left as they are: mostly in the JVM, which
	// then sends them no more.
	Unreached int `json:"unreached,omitempty"`
	// Asked counts the supertypes asked of the JVM (learnSupertypes), or
	// read from the jar for a class woven ahead that the JVM defined.
	Asked int `json:"asked"`
	// InJVM counts the classes the JVM answered itself from the Cache's
	// index (index.go), also counted in FromCache or Unchanged.
	InJVM int `json:"inJVM"`
	// Ahead counts the classes the JVM answered itself from answers woven
	// ahead (ahead.go), also counted in Woven, FromCache or Unchanged.
	Ahead int `json:"ahead"`
	// Requests counts the classes the JVM asked to be woven (round trips).
	Requests int `json:"requests"`
	// Seconds is the time spent answering requests (all connections
	// summed), from the request read to the response built.
	Seconds float64 `json:"seconds"`
}

// MaxUnwovenListed bounds Summary.Unwoven.
const MaxUnwovenListed = 1000

// String is the summary as one line.
func (s Summary) String() string {
	skipped := ""
	if s.Skipped > 0 {
		skipped = fmt.Sprintf(", %d of JDK modules not woven ahead of time", s.Skipped)
	}
	inJVM := ""
	if s.InJVM > 0 {
		inJVM = fmt.Sprintf(", %d answered in the JVM from the cache", s.InJVM)
	}
	ahead := ""
	if s.Ahead > 0 {
		ahead = fmt.Sprintf(", %d answered in the JVM, woven ahead", s.Ahead)
	}
	if s.OutOfScope > 0 {
		skipped += fmt.Sprintf(", %d outside the scope", s.OutOfScope)
	}
	if s.Unreached > 0 {
		skipped += fmt.Sprintf(", %d no aspect reaches", s.Unreached)
	}
	if s.Bridged > 0 {
		skipped += fmt.Sprintf(", %d bridged (their loaders do not see weft's runtime)", s.Bridged)
	}
	methods := ""
	if s.MethodsCount > 0 {
		methods = fmt.Sprintf(", %d methods left unwoven", s.MethodsCount)
	}
	return fmt.Sprintf("load-time weaving: %d classes woven, %d from cache, %d unchanged, %d left unwoven%s%s%s%s (%.1f ms serving)",
		s.Woven, s.FromCache, s.Unchanged, s.UnwovenCount, methods, skipped, inJVM, ahead, 1000*s.Seconds)
}

// Server answers weave requests. It is safe for concurrent use: each
// connection is served by a goroutine of its own.
type Server struct {
	w *weaver.Weaver
	h *Hierarchy
	// OnResult, if set, sees each woven class's result (concurrently).
	OnResult func(*weaver.Result)
	// Skip, if set, keeps the classes it names (internal names) unwoven
	// and counts them in Summary.Skipped: e.g. classes of JDK modules
	// that were not woven ahead of time, whose module cannot reach weft's
	// runtime package.
	Skip func(name string) bool
	// Cache, if set, answers classes woven (or found unchanged) before,
	// in this run or an earlier one, and numbers join points and hidden
	// classes' sisters.
	Cache *Cache
	// Timeout, if not zero, bounds the time weaving one class may take:
	// past it the class is answered with an error (defined unwoven) and
	// reported; the weaving goes on in the background and is dropped.
	Timeout time.Duration
	// OnInfo, if set, gets the --weave-info lines of each class sent back
	// woven (from the Cache too), concurrently.
	OnInfo func(lines string)

	hidden atomic.Int64 // numbers the sisters of hidden classes without a Cache
	// indexSent is set once a JVM got the Cache's index: a hidden class
	// it lists is the JVM's to answer once, and is woven afresh when sent.
	indexSent atomic.Bool

	mu      sync.Mutex
	sum     Summary
	served  map[string]bool // the Cache keys of hidden classes answered
	conns   map[*conn]bool
	pending map[string]chan *conn // connections waiting for their reply connection, by token
	ahead   aheadState
	closed  bool
	done    chan struct{} // closed by Close
	wg      sync.WaitGroup
}

// NewServer returns a server weaving with w, whose hierarchy must be h
// (the classes the JVM defines are added to it).
func NewServer(w *weaver.Weaver, h *Hierarchy) *Server {
	return &Server{w: w, h: h, conns: map[*conn]bool{}, served: map[string]bool{},
		pending: map[string]chan *conn{}, done: make(chan struct{})}
}

// Listen creates a directory only the user can read (under dir, "" for
// the system's temporary directory) and listens on a Unix socket in it.
// Closing the listener removes the socket; the caller removes the
// directory (filepath.Dir of the path).
func Listen(dir string) (ln *net.UnixListener, path string, err error) {
	d, err := os.MkdirTemp(dir, "weft-ltw-")
	if err != nil {
		return nil, "", err
	}
	if ln, path, err = ListenIn(d); err != nil {
		os.RemoveAll(d)
	}
	return ln, path, err
}

// ListenIn listens on a Unix socket named s in dir, a directory it creates
// if need be and makes readable by the user only (a long-lived server's
// known place: weft serve). A socket left there by a server that died is
// replaced.
func ListenIn(dir string) (ln *net.UnixListener, path string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, "", err
	}
	path = filepath.Join(dir, "s")
	if st, err := os.Lstat(path); err == nil && st.Mode().Type() == os.ModeSocket {
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return nil, "", fmt.Errorf("%s: another server is listening there", path)
		}
		os.Remove(path)
	}
	ln, err = net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, "", err
	}
	return ln, path, nil
}

// Serve accepts connections on ln until it is closed (by Close or the
// caller) and serves each on a goroutine of its own.
func (s *Server) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			return err
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return nil
		}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(c)
	}
}

// Close closes every open connection (the JVM then defines its classes
// unwoven) and waits for their goroutines. The caller closes the listener.
func (s *Server) Close() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
	for c := range s.conns {
		c.shutdown()
	}
	s.mu.Unlock()
	s.wg.Wait()
	s.closeJars()
}

// Summary returns the counts so far, the unwoven classes sorted by name.
func (s *Server) Summary() Summary {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := s.sum
	sum.Unwoven = append([]Unwoven(nil), s.sum.Unwoven...)
	sort.Slice(sum.Unwoven, func(i, j int) bool { return sum.Unwoven[i].Class < sum.Unwoven[j].Class })
	return sum
}

// serveConn serves c, which s.wg counts, until it closes.
func (s *Server) serveConn(c net.Conn) {
	cn := &conn{in: c, r: bufio.NewReaderSize(c, 64<<10), out: c}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.Close()
		s.wg.Done()
		return
	}
	s.conns[cn] = true
	s.mu.Unlock()
	s.serveFrom(cn)
}

// conn is a connection being served. Its requests come in on in; its
// responses and queries go out on in too, or, once the JVM asked for it
// (a Split request), on a second connection, reply, written with blocking
// system calls outside Go's network poller (rawConn): a connection used
// both ways woke each side's thread twice a round trip, once for the data
// and once when the other side's read made room to write again.
type conn struct {
	in    net.Conn
	r     *bufio.Reader
	out   io.Writer      // in or reply
	reply io.WriteCloser // nil until split
	buf   []byte         // the response being written
	// jars are the jars the JVM named (Source requests) on this
	// connection, current the one of the classes it sends now.
	jars    []*connJar
	current *connJar
}

// Write writes to the connection responses go out on.
func (cn *conn) Write(b []byte) (int, error) { return cn.out.Write(b) }

// shutdown wakes whatever blocks on cn (Server.Close).
func (cn *conn) shutdown() {
	cn.in.Close()
	if r, ok := cn.reply.(*rawConn); ok {
		r.Shutdown()
	}
}

// close closes cn's connections (their serving goroutine, done with them).
func (cn *conn) close() {
	cn.in.Close()
	if cn.reply != nil {
		cn.reply.Close()
	}
}

// race decides who answers a request whose weaving is timed: the
// weaving, or the timer (Server.Timeout) first.
type race struct {
	state  atomic.Int32 // raceOpen, then raceWoven or raceLate
	expire func()       // the timer's answer
}

const (
	raceOpen = iota
	raceWoven
	raceLate
)

// won reports whether the weaving answers (the timer did not).
func (r *race) won() bool {
	return r.state.CompareAndSwap(raceOpen, raceWoven) || r.state.Load() == raceWoven
}

// serveFrom answers the requests of cn until it closes. Each class is
// woven on this goroutine: no goroutine is started per request (each
// would wake another thread). If the weaving outlives s.Timeout, the
// timer answers the JVM with an error and hands cn to a new goroutine, with
// this one's place in s.wg (Close does not wait for a weaving that may
// never end); this one finishes the weaving, drops it, and returns.
func (s *Server) serveFrom(cn *conn) {
	handedOver := false
	defer func() {
		if handedOver {
			return
		}
		defer s.wg.Done()
		s.mu.Lock()
		delete(s.conns, cn)
		s.mu.Unlock()
		cn.close()
	}()
	for first := true; ; first = false {
		s.weaveAhead(cn) // while the JVM does not ask
		req, err := ReadRequest(cn.r)
		if err != nil {
			return // EOF, or a malformed frame: the JVM defines the class unwoven
		}
		switch req.Kind {
		case Split:
			if !first || cn.reply != nil || s.split(cn) != nil {
				return
			}
			continue
		case Reply:
			if first && s.reply(cn, req.Name) {
				handedOver = true // cn is the other connection's now
				s.wg.Done()
			}
			return
		case Index:
			if s.answer(cn, s.indexResponse(), time.Now()) != nil {
				return
			}
			continue
		case Hits:
			s.hits(req.Class)
			continue
		case Source:
			s.source(cn, req.Name)
			continue
		}
		s.count(func(sum *Summary) { sum.Requests++ })
		start := time.Now()
		failed := false
		ask := connAsker(cn, cn.r)
		r := &race{}
		r.expire = func() {
			if !r.state.CompareAndSwap(raceOpen, raceLate) {
				return
			}
			msg := fmt.Sprintf("weaving took longer than %v: left unwoven", s.Timeout)
			s.unwoven(req, "", msg)
			s.answer(cn, &Response{Status: StatusError, Message: msg}, start)
			go s.serveFrom(cn)
		}
		resp, after := s.weave(req, func(name string) ([]byte, error) {
			b, err := ask(name)
			failed = failed || err != nil
			return b, err
		}, r)
		if !r.won() {
			handedOver = true
			return
		}
		if failed {
			return // the channel broke mid-request
		}
		err = s.answer(cn, s.withAhead(cn, req, resp), start)
		if after != nil {
			after()
		}
		if err != nil {
			return
		}
	}
}

// answer writes resp to cn, in one write, and counts the time since start.
func (s *Server) answer(cn *conn, resp *Response, start time.Time) error {
	var err error
	cn.buf, err = AppendResponse(cn.buf[:0], resp)
	if err != nil && len(resp.Ahead) > 0 { // too large with them: the answer alone
		r := *resp
		r.Ahead = nil
		cn.buf, err = AppendResponse(cn.buf[:0], &r)
	}
	if err != nil {
		cn.buf, _ = AppendResponse(cn.buf[:0], &Response{Status: StatusError, Message: err.Error()})
	}
	d := time.Since(start).Seconds()
	s.count(func(sum *Summary) { sum.Seconds += d })
	_, err = cn.Write(cn.buf)
	return err
}

// splitWait bounds the wait for the reply connection after a Split.
const splitWait = 10 * time.Second

// split answers a Split request on cn with a token (StatusToken) and
// waits for the JVM's second connection to name it (a Reply request):
// from then on cn's responses go out on that connection.
func (s *Server) split(cn *conn) error {
	var t [16]byte
	if _, err := rand.Read(t[:]); err != nil {
		return err
	}
	token := hex.EncodeToString(t[:])
	ch := make(chan *conn, 1)
	s.mu.Lock()
	s.pending[token] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, token)
		s.mu.Unlock()
	}()
	if err := s.answer(cn, &Response{Status: StatusToken, Message: token}, time.Now()); err != nil {
		return err
	}
	select {
	case r := <-ch:
		cn.reply = newRawConn(r.in)
		cn.out = cn.reply
		return nil
	case <-s.done:
		select {
		case r := <-ch: // handed over as the server closed
			r.in.Close()
		default:
		}
		return errors.New("server closed")
	case <-time.After(splitWait):
		return fmt.Errorf("no reply connection within %v", splitWait)
	}
}

// reply hands r, a connection whose first request is Reply, to the
// connection that asked for it (token), and reports whether it did.
func (s *Server) reply(r *conn, token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.pending[token]
	if ch == nil || s.closed {
		return false
	}
	delete(s.pending, token)
	delete(s.conns, r) // shut down with the connection it replies for
	ch <- r
	return true
}

// Weave answers one request, with no way to ask the JVM back and no
// Timeout (which applies to requests over a connection); a panic in the
// weaver becomes an error response.
func (s *Server) Weave(req *Request) *Response {
	resp, after := s.weave(req, nil, nil)
	if after != nil {
		after()
	}
	return resp
}

// weave answers one request, asking the JVM for the supertypes it does
// not know through ask (if not nil). If r is not nil, the weaving itself
// is timed by s.Timeout: if r's timer answers first, the answer returned
// is to be dropped (and is not counted). after, if not nil, is to be
// called once the answer is sent: it caches a woven answer and hands out
// its --weave-info lines, work the JVM need not wait for.
func (s *Server) weave(req *Request, ask Asker, r *race) (resp *Response, after func()) {
	name := "" // the class's internal name once known
	defer func() {
		if p := recover(); p != nil {
			if r != nil && !r.won() {
				resp, after = nil, nil // the timer answered, and reported the class
				return
			}
			msg := fmt.Sprintf("weaver panic: %v", p)
			s.unwoven(req, name, msg)
			resp, after = &Response{Status: StatusError, Message: msg}, nil
		}
	}()
	if req.Kind == Answer {
		err := fmt.Errorf("%w: an answer to no query", ErrFrame)
		s.unwoven(req, name, err.Error())
		return &Response{Status: StatusError, Message: err.Error()}, nil
	}
	info, err := s.h.Add(req.Name, req.Class)
	if err != nil {
		s.unwoven(req, name, err.Error())
		return &Response{Status: StatusError, Message: err.Error()}, nil
	}
	name = info.Name
	if why := unweavable(name); why != "" {
		s.unwoven(req, name, why)
		return &Response{Status: StatusUnchanged}, nil
	}
	if !s.w.Scope().Class(name) { // at once: the weaver would parse it first
		s.count(func(sum *Summary) { sum.OutOfScope++ })
		return &Response{Status: StatusUnchanged}, nil
	}
	if !s.w.Reach().Has(name) {
		s.count(func(sum *Summary) { sum.Unreached++ })
		return &Response{Status: StatusUnchanged}, nil
	}
	if s.Skip != nil && s.Skip(name) {
		s.count(func(sum *Summary) { sum.Skipped++ })
		return &Response{Status: StatusUnchanged}, nil
	}
	key := ""
	if s.Cache != nil || req.Kind == Normal && !req.Bridged && s.ahead.on.Load() {
		key = requestKey(req)
	}
	if req.Kind == Normal && !req.Bridged && key != "" {
		if e := s.aheadAnswer(key); e != nil {
			// Counting it and caching it are work the JVM need not wait for.
			return e.response(), func() { s.useAhead(e, false) }
		}
	}
	cacheable := s.Cache != nil && s.firstDefinition(req, key)
	if cacheable {
		if resp, lines, ok := s.Cache.Get(key); ok {
			s.count(func(sum *Summary) {
				if resp.Status == StatusWoven {
					sum.FromCache++
					if req.Bridged {
						sum.Bridged++
					}
				} else {
					sum.Unchanged++
				}
			})
			if s.OnInfo != nil && lines != "" {
				s.OnInfo(lines)
			}
			return resp, nil
		}
	}
	if ask != nil {
		n, err := s.learnSupertypes(info, ask)
		s.count(func(sum *Summary) { sum.Asked += n })
		if err != nil {
			s.unwoven(req, name, err.Error())
			return &Response{Status: StatusError, Message: err.Error()}, nil
		}
	}
	resp, res, err := s.weaveInTime(req, name, r, ask)
	if errors.Is(err, errLate) {
		return nil, nil
	}
	if err != nil {
		s.unwoven(req, name, err.Error())
		return &Response{Status: StatusError, Message: err.Error()}, nil
	}
	s.count(func(sum *Summary) {
		if resp.Status == StatusWoven {
			sum.Woven++
			if req.Bridged {
				sum.Bridged++
			}
		} else {
			sum.Unchanged++
		}
	})
	if !cacheable && s.OnInfo == nil {
		return resp, nil
	}
	return resp, func() {
		lines := infoLines(res)
		if cacheable {
			s.Cache.Put(key, resp, lines)
		}
		if s.OnInfo != nil && lines != "" {
			s.OnInfo(lines)
		}
	}
}

// firstDefinition reports whether the class may be answered from the
// Cache: not a hidden class whose bytes were answered before in this run
// (a hidden class's name is defined many times, and each definition needs
// a sister of its own), nor one the JVM got in the Cache's index (its
// first definition is the JVM's to answer).
func (s *Server) firstDefinition(req *Request, key string) bool {
	if req.Kind != Hidden {
		return true
	}
	if s.indexSent.Load() {
		if _, ok := s.Cache.snapshot().has[key]; ok {
			return false
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.served[key] {
		return false
	}
	s.served[key] = true
	return true
}

// indexResponse answers an Index request: the Cache's index, empty
// without a Cache.
func (s *Server) indexResponse() *Response {
	if s.Cache == nil {
		return &Response{Status: StatusIndex, Index: (&CacheIndex{}).Append(nil)}
	}
	snap := s.Cache.snapshot()
	s.indexSent.Store(true)
	return &Response{Status: StatusIndex, Index: snap.enc}
}

// HitOutOfScope is the Hits number of a class the JVM left unwoven itself,
// out of the scope weft gave it (-Dweft.ltw.scope): past every index
// entry and without aheadBit.
const HitOutOfScope = aheadBit - 1

// HitUnreached is the Hits number of a class the JVM left unwoven itself
// because no aspect's shadows can be in it (the reach weft gave it).
const HitUnreached = aheadBit - 2

// hits counts the classes a Hits request reports, answered by the JVM
// from the index: u32 entry numbers, HitWoven set for a woven class,
// whose --weave-info lines are read from the Cache. Numbers the index
// does not have are ignored.
func (s *Server) hits(b []byte) {
	var snap *indexSnapshot
	if s.Cache != nil && s.indexSent.Load() {
		snap = s.Cache.snapshot()
	}
	woven, unchanged, outOfScope, unreached := 0, 0, 0, 0
	for ; len(b) >= 4; b = b[4:] {
		v := binary.BigEndian.Uint32(b)
		switch v {
		case HitOutOfScope:
			outOfScope++
			continue
		case HitUnreached:
			unreached++
			continue
		}
		if v&aheadBit != 0 {
			s.hitAhead(v)
			continue
		}
		i := int(v &^ HitWoven)
		if snap == nil || i >= len(snap.keys) {
			continue
		}
		if v&HitWoven == 0 {
			unchanged++
			continue
		}
		woven++
		if s.OnInfo != nil {
			if _, lines, ok := s.Cache.Get(snap.keys[i]); ok && lines != "" {
				s.OnInfo(lines)
			}
		}
	}
	s.count(func(sum *Summary) {
		sum.FromCache += woven
		sum.Unchanged += unchanged
		sum.InJVM += woven + unchanged
		sum.OutOfScope += outOfScope
		sum.Unreached += unreached
	})
}

// Drain waits until every connection has ended (its JVM exited) or d has
// passed: the last Hits requests of a JVM that exited are read before
// Close.
func (s *Server) Drain(d time.Duration) {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// maxMissingRounds bounds the weavings of one class again after asking
// the JVM for the types its frames needed.
const maxMissingRounds = 8

// errLate is a weaving the timer answered before it ended.
var errLate = errors.New("answered by the timer")

// weaveInTime is weaveClass on this goroutine, raced by a timer of
// s.Timeout if r is not nil: a weaving that ends after the timer answered
// returns errLate.
func (s *Server) weaveInTime(req *Request, name string, r *race, ask Asker) (*Response, *weaver.Result, error) {
	if s.Timeout <= 0 || r == nil {
		return s.weaveClass(req, name, false, ask)
	}
	t := time.AfterFunc(s.Timeout, r.expire)
	defer t.Stop()
	resp, res, err := s.weaveClass(req, name, false, ask)
	if !r.won() {
		return nil, nil, errLate
	}
	return resp, res, err
}

// weaveClass weaves the class named name (internal) and returns the answer and
// the weaver's result. OnResult sees a woven class's now, or, woven ahead,
// when the JVM uses it; the methods left unwoven are recorded now, or,
// woven ahead, when the JVM defines the class. With ask, the types the
// frames of a method left unwoven needed and the hierarchy lacked are
// asked of the JVM (as the defining loader finds them), and the class is
// woven again if it sent any.
func (s *Server) weaveClass(req *Request, name string, ahead bool, ask Asker) (*Response, *weaver.Result, error) {
	sister := ""
	if req.Kind == Hidden {
		n := s.hidden.Add(1)
		if s.Cache != nil {
			var err error
			if n, err = s.Cache.NextHidden(); err != nil {
				return nil, nil, err
			}
		}
		sister = name + "$" + strconv.FormatInt(n, 10) + weaver.SisterSuffix
	}
	p, err := s.w.PrepareWithSister(name, req.Class, sister)
	if err != nil {
		return nil, nil, err
	}
	// Each weaving may find the next type missing (a merge's other side):
	// a few rounds, while the JVM sends any.
	for round := 0; ask != nil && len(p.Result.Missing) > 0 && round < maxMissingRounds; round++ {
		n, err := s.learnMissing(p.Result.Missing, ask)
		s.count(func(sum *Summary) { sum.Asked += n })
		if err != nil {
			return nil, nil, err
		}
		if n == 0 {
			break
		}
		if p, err = s.w.PrepareWithSister(name, req.Class, sister); err != nil {
			return nil, nil, err
		}
	}
	var base int32
	if s.Cache != nil {
		base, err = s.Cache.ReserveIDs(p.IDs())
	} else {
		base = s.w.ReserveIDs(p.IDs())
	}
	if err == nil {
		err = s.w.FinishAt(p, base)
	}
	if err != nil {
		return nil, nil, err
	}
	res := p.Result
	if len(res.Warnings) > 0 && !ahead {
		s.methodsUnwoven(req, name, res.Warnings)
	}
	if res.Class == nil {
		return &Response{Status: StatusUnchanged}, res, nil
	}
	if req.Bridged {
		if err := s.w.Bridge(res); err != nil {
			return nil, nil, fmt.Errorf("its class loader does not see weft's runtime, and it cannot be bridged: %v", err)
		}
	}
	if s.OnResult != nil && !ahead {
		s.OnResult(res)
	}
	resp := &Response{Status: StatusWoven, Class: res.Class}
	for n, b := range res.Extra {
		resp.Extra = append(resp.Extra, Extra{Name: strings.ReplaceAll(n, "/", "."), Class: b})
	}
	return resp, res, nil
}

// infoLines is res's --weave-info text ("" for none).
func infoLines(res *weaver.Result) string {
	if res == nil {
		return ""
	}
	var info strings.Builder
	for i := range res.Shadows {
		info.WriteString(res.Shadows[i].String())
		info.WriteByte('\n')
	}
	return info.String()
}

func (s *Server) count(f func(*Summary)) {
	s.mu.Lock()
	f(&s.sum)
	s.mu.Unlock()
}

// unwoven records a class left unwoven; name is its internal name if
// known, else the name the JVM gave.
func (s *Server) unwoven(req *Request, name, reason string) {
	if name == "" {
		name = strings.ReplaceAll(req.Name, ".", "/")
	}
	if name == "" {
		name = "(unnamed)"
	}
	s.count(func(sum *Summary) {
		sum.UnwovenCount++
		if len(sum.Unwoven) < MaxUnwovenListed {
			sum.Unwoven = append(sum.Unwoven, Unwoven{Class: name, Kind: req.kindName(), Reason: reason})
		}
	})
}

// methodsUnwoven records the methods of class name the weaver left
// unwoven, each warning naming one and why.
func (s *Server) methodsUnwoven(req *Request, name string, warnings []string) {
	s.count(func(sum *Summary) {
		for _, w := range warnings {
			sum.MethodsCount++
			if len(sum.Methods) < MaxUnwovenListed {
				sum.Methods = append(sum.Methods, Unwoven{Class: name, Kind: req.kindName(), Reason: w})
			}
		}
	})
}

// unweavable says why a class must be defined unwoven, or "".
func unweavable(name string) string {
	if strings.HasPrefix(name, "jdk/internal/reflect/Generated") {
		// MethodAccessorGenerator's accessors: each in a throwaway loader
		// of its own, in a package of java.base where that loader can
		// define no other class (no sister). ajc never sees them either.
		return "a reflection accessor the JDK generates: its loader can define no sister class beside it"
	}
	return ""
}
