package ltw

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// aheadJar writes a jar of p.Base and p.C0..p.C(n-1) (extending it) and
// returns its path and the classes' bytes by binary name.
func aheadJar(t *testing.T, n int) (string, map[string][]byte) {
	t.Helper()
	src := map[string]string{"p/Base.java": "package p;\npublic abstract class Base { protected int base(int x) { return x & 7; } }\n"}
	for i := 0; i < n; i++ {
		src[fmt.Sprintf("p/C%d.java", i)] = fmt.Sprintf("package p;\npublic class C%d extends Base { public int run(int x) { return base(x) + %d; } }\n", i, i)
	}
	dir := jvmtest.Compile(t, src)
	classes := map[string][]byte{}
	jar := filepath.Join(t.TempDir(), "plugin.jar")
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name := range src {
		internal := name[:len(name)-len(".java")]
		b, err := os.ReadFile(filepath.Join(dir, internal+".class"))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(internal + ".class")
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
		classes[strings.ReplaceAll(internal, "/", ".")] = b
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return jar, classes
}

// TestWeaveAhead: once the JVM names a class's jar (a Source request), the
// server weaves the jar's other classes while no request waits and sends
// their answers with its next response; each answer is the one a round
// trip gives (its key is the class's request key, its payload a woven
// class and sister). The jar's own superclass is read from the jar, by
// the round trips too: the JVM is asked nothing. Counts
// are exact: a class counts once the JVM uses its answer (Hits) or asks
// for it, never for being woven ahead; numbers never given are ignored.
func TestWeaveAhead(t *testing.T) {
	s, _ := newTestServer(t, "")
	var infos atomic.Int32
	s.OnInfo = func(string) { infos.Add(1) }
	ln, path, err := Listen(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer func() { ln.Close(); s.Close() }()
	jar, classes := aheadJar(t, 6)
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ask := func(prefix []byte, name string) *Response {
		t.Helper()
		if _, err := c.Write(AppendRequest(prefix, &Request{Kind: Normal, Name: name, Class: classes[name]})); err != nil {
			t.Fatal(err)
		}
		resp, err := ReadResponse(c)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status == StatusQuery {
			t.Fatalf("%s: the server asked for %s, which the jar named has", name, resp.Query)
		}
		if resp.Status != StatusWoven {
			t.Fatalf("%s: status %d %s", name, resp.Status, resp.Message)
		}
		return resp
	}
	first := ask(AppendRequest(nil, &Request{Kind: Source, Name: "file:" + jar}), "p.C0")
	ahead := map[string]AheadAnswer{}
	for _, a := range first.Ahead {
		ahead[a.Name] = a
	}
	rounds := 1
	for i := 1; len(ahead) < len(classes) && i < 6; i++ {
		time.Sleep(200 * time.Millisecond) // the server weaves ahead meanwhile
		for _, a := range ask(nil, fmt.Sprintf("p.C%d", i)).Ahead {
			ahead[a.Name] = a
		}
		rounds++
	}
	if len(ahead) != len(classes) {
		t.Fatalf("answers woven ahead for %d of the jar's %d classes", len(ahead), len(classes))
	}
	for name, a := range ahead {
		key := sha256.Sum256([]byte("0\x00" + name + "\x00" + string(classes[name])))
		resp, err := ParseResponse(a.Answer)
		if a.Key != key || a.Number&aheadBit == 0 || err != nil || resp.Status != StatusWoven || len(resp.Extra) != 1 ||
			!bytes.HasPrefix(resp.Class, []byte{0xca, 0xfe, 0xba, 0xbe}) {
			t.Errorf("%s: key %x (want %x), number %#x, answer %v %+v", name, a.Key, key, a.Number, err, resp)
		}
	}
	// The JVM uses two answers, reports one number it was never given,
	// then asks for a class woven ahead: answered from it.
	var hits []byte
	for _, n := range []uint32{ahead["p.C4"].Number, ahead["p.Base"].Number, aheadBit | 99999} {
		hits = binary.BigEndian.AppendUint32(hits, n|HitWoven)
	}
	last := ask(AppendRequest(nil, &Request{Kind: Hits, Class: hits}), "p.C5")
	if !reflect.DeepEqual(last.Class, mustParse(t, ahead["p.C5"].Answer).Class) {
		t.Errorf("p.C5 asked for: not the answer woven ahead")
	}
	c.Close()
	s.Drain(5 * time.Second)
	sum := s.Summary()
	want := rounds + 1 + 2 // round trips, then the two hits
	if sum.Woven != want || sum.Ahead != 2 || sum.Requests != rounds+1 || sum.FromCache != 0 || int(infos.Load()) != want || sum.Asked != 0 {
		t.Errorf("summary %s (ahead %d, requests %d, asked %d), %d --weave-info calls: want %d woven, 2 ahead, %d requests, none asked",
			sum, sum.Ahead, sum.Requests, sum.Asked, infos.Load(), want, rounds+1)
	}
}

func mustParse(t *testing.T, b []byte) *Response {
	t.Helper()
	r, err := ParseResponse(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAheadFrames: a response with answers woven ahead reads back as
// written; a count its frame cannot hold, or one nested in another, is
// refused.
func TestAheadFrames(t *testing.T) {
	want := &Response{Status: StatusUnchanged, Ahead: []AheadAnswer{{Name: "p.A", Number: aheadBit | 3, Answer: []byte{0}}}}
	want.Ahead[0].Key[0] = 7
	b, err := AppendResponse(nil, want)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ReadResponse(bytes.NewReader(b)); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("round trip: %+v %v", got, err)
	}
	if _, err := ParseResponse([]byte{byte(StatusAhead), 0xff, 0xff, 0xff, 0xff, 0}); err == nil {
		t.Error("a count beyond the frame accepted")
	}
	if _, err := ParseResponse([]byte{byte(StatusAhead), 0, 0, 0, 0, byte(StatusAhead), 0, 0, 0, 0, 0}); err == nil {
		t.Error("nested answers woven ahead accepted")
	}
	dir := t.TempDir()
	for src, ok := range map[string]bool{"http://x/a.jar": false, "file:relative.jar": false, "file:" + filepath.Join(dir, "none.jar"): false,
		"file:" + dir + "/": false} {
		if got := jarPath(src); (got != "") != ok {
			t.Errorf("jarPath(%q) = %q", src, got)
		}
	}
}
