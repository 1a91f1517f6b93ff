package ltw

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/scope"
)

// everyExecution advises every method execution outside adv/ with
// adv/Log.hit(joinPointId).
type everyExecution struct{ adv *advice.Advice }

func (m everyExecution) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Kind != advice.MethodExecution || strings.HasPrefix(s.Within, "adv/") {
		return nil
	}
	return []advice.Applied{{Advice: m.adv, Verdict: advice.Always}}
}

func newTestServer(t testing.TB, panicOn string) (*Server, *Hierarchy) {
	t.Helper()
	return newTestServerWith(t, func(m advice.Matcher) advice.Matcher {
		if panicOn != "" {
			return panicky{m, panicOn}
		}
		return m
	})
}

// newTestServerWith is newTestServer with the matcher wrapped.
func newTestServerWith(t testing.TB, wrap func(advice.Matcher) advice.Matcher) (*Server, *Hierarchy) {
	t.Helper()
	return newTestServerScoped(t, wrap, nil)
}

// newTestServerScoped is newTestServerWith with the weaver in scope sc.
func newTestServerScoped(t testing.TB, wrap func(advice.Matcher) advice.Matcher, sc *scope.Scope) (*Server, *Hierarchy) {
	t.Helper()
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	h := NewHierarchy(img)
	adv := &advice.Advice{Kind: advice.Before, Aspect: "T", File: "t.weft", Line: 1,
		Method: advice.Method{Owner: "adv/Log", Name: "hit", Desc: "(I)V"},
		Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
	w := weaver.New(wrap(everyExecution{adv}), []*advice.Advice{adv}, weaver.Options{Hierarchy: h, IDBase: 1000, Scope: sc})
	return NewServer(w, h), h
}

// panicky panics when asked about a shadow in class within.
type panicky struct {
	advice.Matcher
	within string
}

func (p panicky) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Within == p.within {
		panic("test panic in " + p.within)
	}
	return p.Matcher.Match(s, h)
}

const pluginSrc = `package p;
public class Plugin implements Runnable {
    public void run() { System.out.println("run"); }
}
`

func compiled(t *testing.T, name string) []byte {
	t.Helper()
	dir := jvmtest.Compile(t, map[string]string{"p/Plugin.java": pluginSrc})
	b, err := os.ReadFile(filepath.Join(dir, name+".class"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServeOverSocket: requests over the socket from several connections
// at once come back woven with their sister, a hidden class's sister has a
// name of its own per definition, an already woven class and garbage come
// back unchanged / as an error, and the summary counts them.
func TestServeOverSocket(t *testing.T) {
	s, _ := newTestServer(t, "")
	ln, path, err := Listen(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v", st.Mode(), err)
	}
	go s.Serve(ln)
	defer func() { ln.Close(); s.Close() }()

	plugin := compiled(t, "p/Plugin")
	ask := func(c net.Conn, req *Request) *Response {
		t.Helper()
		if _, err := c.Write(AppendRequest(nil, req)); err != nil {
			t.Fatal(err)
		}
		resp, err := ReadResponse(c)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	var wg sync.WaitGroup
	sisters := make([]string, 4)
	for i := range sisters {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := net.Dial("unix", path)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			resp := ask(c, &Request{Kind: Hidden, Name: "p.Plugin", Class: plugin})
			if resp.Status != StatusWoven || len(resp.Extra) != 1 {
				t.Errorf("hidden request %d: %+v", i, resp.Status)
				return
			}
			sisters[i] = resp.Extra[0].Name
		}(i)
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, n := range sisters {
		if seen[n] || !strings.HasPrefix(n, "p.Plugin$") || !strings.HasSuffix(n, weaver.SisterSuffix) {
			t.Errorf("hidden classes' sisters %v: want distinct p.Plugin$N%s", sisters, weaver.SisterSuffix)
		}
		seen[n] = true
	}

	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp := ask(c, &Request{Kind: Normal, Name: "p.Plugin", Class: plugin})
	if resp.Status != StatusWoven || len(resp.Extra) != 1 || resp.Extra[0].Name != "p.Plugin"+weaver.SisterSuffix {
		t.Fatalf("normal request: status %d, extra %v", resp.Status, resp.Extra)
	}
	if again := ask(c, &Request{Kind: Normal, Name: "p.Plugin", Class: resp.Class}); again.Status != StatusUnchanged {
		t.Errorf("an already woven class: status %d, want unchanged", again.Status)
	}
	bad := ask(c, &Request{Kind: Normal, Name: "p.Bad", Class: []byte{0xca, 0xfe, 0xba, 0xbe, 1}})
	if bad.Status != StatusError || bad.Message == "" {
		t.Errorf("a corrupt class: %+v", bad)
	}
	sum := s.Summary()
	// The already woven class is unchanged, not a method left unwoven.
	if sum.Woven != 5 || sum.Unchanged != 1 || sum.UnwovenCount != 1 || sum.Unwoven[0].Class != "p/Bad" || sum.MethodsCount != 0 {
		t.Errorf("summary %s: %+v", sum, sum.Unwoven)
	}
}

// TestWeaverPanicIsAnError: a panic while weaving a class answers an error
// naming it, and the connection serves the next request.
func TestWeaverPanicIsAnError(t *testing.T) {
	s, _ := newTestServer(t, "p/Plugin")
	a, b := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	defer b.Close()
	plugin := compiled(t, "p/Plugin")
	for i := 0; i < 2; i++ {
		go b.Write(AppendRequest(nil, &Request{Name: "p.Plugin", Class: plugin}))
		resp, err := ReadResponse(b)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != StatusError || !strings.Contains(resp.Message, "test panic") {
			t.Errorf("request %d: %+v", i, resp)
		}
	}
	if sum := s.Summary(); sum.UnwovenCount != 2 || sum.Unwoven[0].Class != "p/Plugin" {
		t.Errorf("summary %s: %+v", sum, sum.Unwoven)
	}
}

// slow takes d to match each shadow of class within while on is set.
type slow struct {
	advice.Matcher
	within string
	d      time.Duration
	on     *atomic.Bool
}

func (s slow) Match(sh *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if sh.Within == s.within && s.on.Load() {
		time.Sleep(s.d)
	}
	return s.Matcher.Match(sh, h)
}

// TestWeaveTimeout: a class whose weaving takes longer than
// Server.Timeout is answered with an error (the JVM defines it unwoven)
// and reported as timed out, while the weaving goes on; the connection
// serves the next class at once, woven; Close does not wait for the
// weaving still going on.
func TestWeaveTimeout(t *testing.T) {
	var on atomic.Bool
	on.Store(true)
	s, _ := newTestServerWith(t, func(m advice.Matcher) advice.Matcher { return slow{m, "p/Plugin", 3 * time.Second, &on} })
	s.Timeout = 300 * time.Millisecond
	woven := make(chan bool, 2)
	s.OnResult = func(*weaver.Result) { woven <- true }
	defer func() { <-woven; <-woven }() // both weavings over before the JDK image is closed
	a, b := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	plugin := compiled(t, "p/Plugin")
	ask := func() (*Response, time.Duration) {
		t.Helper()
		start := time.Now()
		go b.Write(AppendRequest(nil, &Request{Kind: Normal, Name: "p.Plugin", Class: plugin}))
		resp, err := ReadResponse(b)
		if err != nil {
			t.Fatal(err)
		}
		return resp, time.Since(start)
	}
	if resp, d := ask(); resp.Status != StatusError || !strings.Contains(resp.Message, "longer than 300ms") || d > 2*time.Second {
		t.Errorf("a slow class: %+v after %v", resp, d)
	}
	on.Store(false) // the first weaving sleeps on, then ends quickly
	if resp, _ := ask(); resp.Status != StatusWoven {
		t.Errorf("the next class: status %d %s", resp.Status, resp.Message)
	}
	start := time.Now()
	b.Close()
	s.Close()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close waited %v for the weaving that timed out", d)
	}
	if sum := s.Summary(); sum.UnwovenCount != 1 || sum.Woven != 1 || !strings.Contains(sum.Unwoven[0].Reason, "longer than") {
		t.Errorf("summary %s: %+v", sum, sum.Unwoven)
	}
}

// TestProtocolRoundTrip: what AppendRequest/AppendResponse write, the
// parsers read back.
func TestProtocolRoundTrip(t *testing.T) {
	req := &Request{Kind: Lookup, Name: "a.B", Class: []byte{1, 2, 3}}
	got, err := ReadRequest(bytes.NewReader(AppendRequest(nil, req)))
	if err != nil || got.Kind != req.Kind || got.Name != req.Name || !bytes.Equal(got.Class, req.Class) {
		t.Errorf("request: %+v, %v", got, err)
	}
	resp := &Response{Status: StatusWoven, Class: []byte{4}, Extra: []Extra{{Name: "a.B$weft$jp", Class: []byte{5, 6}}}}
	b, err := AppendResponse(nil, resp)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadResponse(bytes.NewReader(b))
	if err != nil || r.Status != resp.Status || !bytes.Equal(r.Class, resp.Class) || len(r.Extra) != 1 ||
		r.Extra[0].Name != resp.Extra[0].Name || !bytes.Equal(r.Extra[0].Class, resp.Extra[0].Class) {
		t.Errorf("response: %+v, %v", r, err)
	}
	q, err := AppendResponse(nil, &Response{Status: StatusQuery, Query: "a.Base"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := ReadResponse(bytes.NewReader(q)); err != nil || r.Status != StatusQuery || r.Query != "a.Base" {
		t.Errorf("query: %+v, %v", r, err)
	}
	if _, err := ReadRequest(bytes.NewReader([]byte{0xff, 0xff, 0xff, 0xff})); err == nil {
		t.Error("a frame over MaxFrame was accepted")
	}
}

// FuzzParseRequest: the request reader (frames included) and parser never
// panic, and what the parser accepts it writes back byte for byte.
func FuzzParseRequest(f *testing.F) {
	f.Add([]byte{0, 0, 3, 'a', '.', 'B', 0xca, 0xfe})
	f.Add([]byte{2, 0xff, 0xff})
	f.Add([]byte{11, 0, 1, 'x', 0xca}) // a bridged hidden class
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 5, 1, 0, 1, 'x', 0xca})
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadRequest(bytes.NewReader(b))
		req, err := ParseRequest(b)
		if err != nil {
			return
		}
		if out := AppendRequest(nil, req); !bytes.Equal(out[4:], b) {
			t.Errorf("round trip: %x -> %x", b, out[4:])
		}
	})
}

// FuzzReadResponse: the response reader (frames included) never panics.
func FuzzReadResponse(f *testing.F) {
	ok, _ := AppendResponse(nil, &Response{Status: StatusWoven, Class: []byte{1}, Extra: []Extra{{Name: "x", Class: []byte{2}}}})
	f.Add(ok)
	ahead, _ := AppendResponse(nil, &Response{Status: StatusUnchanged, Ahead: []AheadAnswer{{Name: "p.A", Answer: []byte{0}}}})
	f.Add(ahead)
	f.Add([]byte{0, 0, 0, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadResponse(bytes.NewReader(b))
	})
}

// TestSplitConnection: after a Split request, the responses of a
// connection come on the second connection that names its token (as the
// JVM's client does); a Reply naming no token is closed.
func TestSplitConnection(t *testing.T) {
	s, _ := newTestServer(t, "")
	ln, path, err := Listen(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer func() { ln.Close(); s.Close() }()
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}

	stray := dial()
	stray.Write(AppendRequest(nil, &Request{Kind: Reply, Name: "no such token"}))
	if _, err := ReadResponse(stray); err == nil {
		t.Error("a reply connection naming no token got a response")
	}

	a := dial()
	a.Write(AppendRequest(nil, &Request{Kind: Split}))
	tok, err := ReadResponse(a)
	if err != nil || tok.Status != StatusToken || tok.Message == "" {
		t.Fatalf("split: %+v, %v", tok, err)
	}
	b := dial()
	b.Write(AppendRequest(nil, &Request{Kind: Reply, Name: tok.Message}))
	a.Write(AppendRequest(nil, &Request{Kind: Normal, Name: "p.Plugin", Class: compiled(t, "p/Plugin")}))
	resp, err := ReadResponse(b)
	if err != nil || resp.Status != StatusWoven {
		t.Fatalf("response on the reply connection: %+v, %v", resp, err)
	}
	a.Close()
	if _, err := ReadResponse(b); err == nil {
		t.Error("the reply connection stayed open after its request connection closed")
	}
}
