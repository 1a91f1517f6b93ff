package ltw

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/weaver"
)

// Weaving ahead (docs/ltw.md). A cold class costs a round trip, and the
// hand-over between the two processes costs more than weaving the class.
// So when the JVM defines a class from a jar (its code source, which a
// Source request names), the connection's goroutine weaves the jar's
// other classes while it would otherwise wait for the next request, and
// sends their answers with its next response (StatusAhead). The JVM keeps
// them and answers those classes itself, after checking the class's
// request key (the class bytes it defines are the bytes weft wove), and
// reports each one it used by number (Hits): the summary, --weave-info
// and the Cache see only the classes the JVM defined.
//
// A jar is read only as far as the JVM uses it: each class the JVM defines
// from it (a request, or a hit) allows aheadPerClass more classes to be
// woven ahead, beyond the first aheadStart.

// aheadBit marks a Hits number of an answer woven ahead (the index's
// entries are numbered below maxIndexEntries).
const aheadBit = 1 << 30

const (
	aheadStart    = 64
	aheadPerClass = 16
	// maxAheadClasses bounds the classes listed per jar, maxAheadJars the
	// jars, maxAheadAnswers the answers kept in all.
	maxAheadClasses = 1 << 16
	maxAheadJars    = 1 << 10
	maxAheadAnswers = aheadBit - 1
	// maxAheadSent bounds the bytes of answers woven ahead sent with one
	// response (the JVM's buffer keeps up to 4 MB; the rest goes next time).
	maxAheadSent = 2 << 20
)

// aheadState is a Server's answers woven ahead (guarded by Server.mu).
type aheadState struct {
	on      atomic.Bool            // a jar was named: round trips look for answers woven ahead
	jars    map[string]*jarAhead   // by path
	entries []*aheadEntry          // by number (without aheadBit)
	byKey   map[string]*aheadEntry // by request key
}

// jarAhead is a jar whose classes are woven ahead, shared by the
// connections that named it; the Hierarchy has learned it. Guarded by
// Server.mu, but for src's reads.
type jarAhead struct {
	path    string
	src     *classpath.JarSource   // nil if the jar could not be read
	classes []classpath.ClassEntry // the classes to weave ahead, in the jar's order
	next    int                    // classes[next] is the next to weave
	budget  int                    // the classes it may still weave ahead
	results []*aheadEntry
}

// connJar is a jar a connection named, and how many of its answers the
// connection has sent.
type connJar struct {
	j    *jarAhead
	sent int
}

// aheadEntry is one class's answer woven ahead.
type aheadEntry struct {
	number    uint32 // with aheadBit
	key       string // the request's key, hex
	rawKey    [sha256.Size]byte
	name      string // binary name
	jar       *jarAhead
	status    Status         // StatusWoven or StatusUnchanged
	payload   []byte         // the answer: a response's payload, as sent
	fromCache bool           // the answer came from the Cache, not from this weaver
	res       *weaver.Result // for OnResult (kept only if set), until first used
	warnings  []string       // the methods left unwoven, recorded when first used
	lines     string         // --weave-info
	used      int            // definitions that used it
}

// source handles a Source request: name is the code source (a URL) of the
// classes cn sends next. A jar's classes are woven ahead, and the
// Hierarchy learns the jar, once per server, as a source of the types the
// classes from there name.
func (s *Server) source(cn *conn, name string) {
	cn.current = nil
	path := jarPath(name)
	if path == "" {
		return
	}
	for _, cj := range cn.jars {
		if cj.j.path == path {
			cn.current = cj
			return
		}
	}
	j := s.jar(path)
	if j == nil {
		return
	}
	cn.current = &connJar{j: j}
	cn.jars = append(cn.jars, cn.current)
}

// jar returns the jar at path, opened and learned on its first request,
// or nil past maxAheadJars or once the server closed.
func (s *Server) jar(path string) *jarAhead {
	s.mu.Lock()
	j, full := s.ahead.jars[path], len(s.ahead.jars) >= maxAheadJars
	s.mu.Unlock()
	if j != nil || full {
		return j
	}
	j = openJarAhead(path) // its directory read outside the lock
	s.mu.Lock()
	if old := s.ahead.jars[path]; old != nil || s.closed { // opened meanwhile
		s.mu.Unlock()
		j.close()
		return old
	}
	if s.ahead.jars == nil {
		s.ahead.jars = map[string]*jarAhead{}
		s.ahead.byKey = map[string]*aheadEntry{}
	}
	s.ahead.jars[path] = j
	s.ahead.on.Store(true)
	s.mu.Unlock()
	if j.src != nil {
		s.h.Learn(j.src)
	}
	return j
}

// openJarAhead opens the jar at path and lists the classes to weave ahead
// (at most maxAheadClasses; not META-INF/, module-info or sister classes).
// A jar that cannot be read has no src: nothing is woven ahead from it.
func openJarAhead(path string) *jarAhead {
	j := &jarAhead{path: path, budget: aheadStart}
	src, err := classpath.OpenJar(path)
	if err != nil {
		return j
	}
	j.src = src
	listed := map[string]bool{}
	errFull := errors.New("full")
	src.Walk(func(e classpath.ClassEntry) error {
		if len(j.classes) >= maxAheadClasses {
			return errFull
		}
		n := strings.TrimSuffix(e.Path, ".class")
		if n == "" || strings.HasPrefix(n, "META-INF/") || strings.HasSuffix(n, "module-info") ||
			strings.HasSuffix(n, weaver.SisterSuffix) || listed[n] {
			return nil
		}
		listed[n] = true
		j.classes = append(j.classes, e)
		return nil
	})
	return j
}

// close closes j's jar (Server.mu held, or j never shared).
func (j *jarAhead) close() {
	if j.src != nil {
		j.src.Close()
		j.src = nil
	}
	j.next = len(j.classes)
}

// jarPath is the local jar a code source names, or "": only file: URLs of
// regular files named *.jar or *.zip are read. (A directory's classes are
// asked of the JVM: its loader may define classes with no file behind
// them under the directory's name, and a query is what finds those.)
func jarPath(source string) string {
	u, err := url.Parse(source)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" {
		return ""
	}
	p := filepath.Clean(u.Path)
	if !filepath.IsAbs(p) {
		return ""
	}
	if ext := strings.ToLower(filepath.Ext(p)); ext != ".jar" && ext != ".zip" {
		return ""
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return p
}

// credit lets j weave more classes ahead: the JVM defined one of them.
// Server.mu held.
func (j *jarAhead) credit() {
	if j.budget < maxAheadClasses {
		j.budget += aheadPerClass
	}
}

// weaveAhead weaves classes of cn's jars ahead while no request is
// waiting on cn, the jars have classes left and their budget allows.
func (s *Server) weaveAhead(cn *conn) {
	for len(cn.jars) > 0 && !cn.pending() {
		j, f := s.nextAhead(cn)
		if f == nil {
			return
		}
		e := s.weaveAheadClass(j, f)
		s.mu.Lock()
		if e != nil && len(s.ahead.entries) < maxAheadAnswers && s.ahead.byKey[e.key] == nil {
			e.number = aheadBit | uint32(len(s.ahead.entries))
			s.ahead.entries = append(s.ahead.entries, e)
			s.ahead.byKey[e.key] = e
			j.results = append(j.results, e)
		}
		s.mu.Unlock()
	}
}

// nextAhead takes the next class to weave ahead from cn's jars: the
// current one's first.
func (s *Server) nextAhead(cn *conn) (*jarAhead, *classpath.ClassEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil
	}
	try := func(cj *connJar) *classpath.ClassEntry {
		j := cj.j
		for j.src != nil && j.budget > 0 && j.next < len(j.classes) {
			e := &j.classes[j.next]
			j.next++
			if !s.w.Reach().Has(strings.TrimSuffix(e.Path, ".class")) {
				continue // the JVM answers it itself, or the round trip is quick
			}
			j.budget--
			return e
		}
		return nil
	}
	if cn.current != nil {
		if f := try(cn.current); f != nil {
			return cn.current.j, f
		}
	}
	for _, cj := range cn.jars {
		if f := try(cj); f != nil {
			return cj.j, f
		}
	}
	return nil, nil
}

// errNotInJar: a supertype is in neither the hierarchy nor the jar (which
// the hierarchy has learned). The JVM's loader might have it: the class is
// left to its round trip.
var errNotInJar = errors.New("a supertype not in the jar")

// weaveAheadClass weaves f, a class of j, as a round trip would weave it
// (the same steps as Server.weave, its supertypes found in the jar, which
// the hierarchy learned, with no JVM to ask), or returns nil: a class it
// cannot weave ahead is left to its round trip, which weaves or reports
// it. Nothing is counted: the class is counted when the JVM uses its
// answer.
func (s *Server) weaveAheadClass(j *jarAhead, f *classpath.ClassEntry) (e *aheadEntry) {
	defer func() {
		if recover() != nil {
			e = nil // the round trip reports it
		}
	}()
	b, err := f.Read() // at most MaxFrame bytes (classpath.ReadZipEntry)
	if err != nil {
		return nil
	}
	internal := strings.TrimSuffix(f.Path, ".class")
	req := &Request{Kind: Normal, Name: strings.ReplaceAll(internal, "/", "."), Class: b}
	sum := requestSum(req)
	key := hex.EncodeToString(sum[:])
	s.mu.Lock()
	dup := s.ahead.byKey[key] != nil
	s.mu.Unlock()
	if dup {
		return nil
	}
	info, err := s.h.Add(req.Name, b)
	if err != nil || info.Name != internal || unweavable(internal) != "" || s.Skip != nil && s.Skip(internal) {
		return nil
	}
	e = &aheadEntry{key: key, rawKey: sum, name: req.Name, jar: j}
	if s.Cache != nil {
		if resp, lines, ok := s.Cache.Get(key); ok {
			e.lines, e.fromCache = lines, true
			return e.encode(resp)
		}
	}
	if _, err = s.learnSupertypes(info, func(string) ([]byte, error) { return nil, errNotInJar }); err != nil {
		return nil
	}
	resp, res, err := s.weaveClass(req, internal, true, nil)
	if err != nil {
		return nil
	}
	e.lines, e.warnings = infoLines(res), res.Warnings
	if s.OnResult != nil && resp.Status == StatusWoven {
		e.res = res
	}
	return e.encode(resp)
}

// encode sets e's answer to resp, encoded (kept so, the smallest).
func (e *aheadEntry) encode(resp *Response) *aheadEntry {
	b, err := AppendResponse(nil, resp)
	if err != nil {
		return nil
	}
	e.status, e.payload = resp.Status, b[4:]
	return e
}

// response is e's answer.
func (e *aheadEntry) response() *Response {
	resp, err := ParseResponse(e.payload)
	if err != nil { // encoded by AppendResponse: cannot fail
		return &Response{Status: StatusError, Message: err.Error()}
	}
	return resp
}

// withAhead returns resp with the answers woven ahead that cn has not sent
// yet (up to maxAheadSent bytes), and credits cn's current jar for the
// class just answered (kind Normal: a class of that jar).
func (s *Server) withAhead(cn *conn, req *Request, resp *Response) *Response {
	if len(cn.jars) == 0 {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.Kind == Normal && !req.Bridged && cn.current != nil {
		cn.current.j.credit()
	}
	var ahead []AheadAnswer
	size := 0
	for _, cj := range cn.jars {
		for ; cj.sent < len(cj.j.results) && size < maxAheadSent; cj.sent++ {
			e := cj.j.results[cj.sent]
			ahead = append(ahead, AheadAnswer{Name: e.name, Key: e.rawKey, Number: e.number, Answer: e.payload})
			size += len(e.payload) + len(e.name) + 42
		}
	}
	if len(ahead) == 0 {
		return resp
	}
	r := *resp
	r.Ahead = ahead
	return &r
}

// aheadAnswer is the answer woven ahead for a request's key, or nil.
func (s *Server) aheadAnswer(key string) *aheadEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ahead.byKey[key]
}

// useAhead counts a definition that used e's answer: in the JVM (a Hits
// number) or by round trip. Its first use counts as the round trip that
// wove it would have (woven here, or from the Cache) and caches it; later
// ones as a round trip of the same class would (from the Cache, or woven
// again without one).
func (s *Server) useAhead(e *aheadEntry, inJVM bool) {
	s.mu.Lock()
	first := e.used == 0
	e.used++
	res := e.res
	e.res = nil
	woven := e.status == StatusWoven
	switch {
	case !woven:
		s.sum.Unchanged++
	case e.fromCache || !first && s.Cache != nil:
		s.sum.FromCache++
	default:
		s.sum.Woven++
	}
	if inJVM {
		s.sum.Ahead++
		e.jar.credit()
	}
	s.mu.Unlock()
	if first && len(e.warnings) > 0 {
		s.methodsUnwoven(&Request{Kind: Normal}, strings.ReplaceAll(e.name, ".", "/"), e.warnings)
	}
	if first && !e.fromCache {
		if s.OnResult != nil && res != nil {
			s.OnResult(res)
		}
		if s.Cache != nil {
			s.Cache.Put(e.key, e.response(), e.lines)
		}
	}
	if woven && s.OnInfo != nil && e.lines != "" {
		s.OnInfo(e.lines)
	}
}

// hitAhead counts a Hits number with aheadBit; numbers it never gave are
// ignored.
func (s *Server) hitAhead(v uint32) {
	i := int(v &^ (HitWoven | aheadBit))
	s.mu.Lock()
	var e *aheadEntry
	if i < len(s.ahead.entries) {
		e = s.ahead.entries[i]
	}
	s.mu.Unlock()
	if e != nil {
		s.useAhead(e, true)
	}
}

// closeJars closes the jars read (Server.Close, once no connection is
// served).
func (s *Server) closeJars() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.ahead.jars {
		j.close()
	}
}

// pending reports whether bytes from the JVM wait on cn (a request: stop
// weaving ahead), or it cannot tell (then it says yes).
func (cn *conn) pending() bool {
	if cn.r.Buffered() > 0 {
		return true
	}
	sc, ok := cn.in.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	waiting := true
	var one [1]byte
	if rc.Control(func(fd uintptr) {
		// A byte, or the end (0 bytes, no error), or an error that the
		// read will meet: all but EAGAIN say the read would not block.
		_, _, err := syscall.Recvfrom(int(fd), one[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		waiting = err != syscall.EAGAIN && err != syscall.EWOULDBLOCK
	}) != nil {
		return true
	}
	return waiting
}
