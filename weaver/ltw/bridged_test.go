package ltw

import (
	"net"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/weaver/scope"
)

// TestBridgedRequest: a class whose loader does not see weft's runtime
// comes as a bridged request (its kind, plus bridgedKinds on the wire) and
// is answered woven, bridged: no instruction of the class or its sister
// names a class of weft's; the summary counts it bridged.
func TestBridgedRequest(t *testing.T) {
	req := &Request{Kind: Hidden, Bridged: true, Name: "p.Plugin", Class: []byte{1}}
	if got, err := ParseRequest(AppendRequest(nil, req)[4:]); err != nil || got.Kind != Hidden || !got.Bridged {
		t.Errorf("a bridged hidden request read back as %+v, %v", got, err)
	}
	s, _ := newTestServer(t, "")
	a, b := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	defer b.Close()
	go b.Write(AppendRequest(nil, &Request{Kind: Normal, Bridged: true, Name: "p.Plugin", Class: compiled(t, "p/Plugin")}))
	resp, err := ReadResponse(b)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != StatusWoven || len(resp.Extra) != 1 {
		t.Fatalf("status %d (%s), %d extra classes: want woven with its sister", resp.Status, resp.Message, len(resp.Extra))
	}
	for name, class := range map[string][]byte{"p/Plugin": resp.Class, resp.Extra[0].Name: resp.Extra[0].Class} {
		c, err := classfile.Parse(name, class)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.Methods {
			if c.Attr(m.Attributes, "Code") == nil {
				continue
			}
			code, err := classfile.DecodeCode(c, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range code.Insns {
				if in.Op >= classfile.OpGetstatic && in.Op <= classfile.OpInvokeinterface {
					if owner, member, _ := c.Pool.MemberRef(in.Index); strings.HasPrefix(owner, "weft/") {
						t.Errorf("%s.%s uses %s.%s", name, c.MemberName(m), owner, member)
					}
				}
			}
		}
	}
	if sum := s.Summary(); sum.Woven != 1 || sum.Bridged != 1 || !strings.Contains(sum.String(), ", 1 bridged (") {
		t.Errorf("summary %s", sum)
	}
}

// TestScopeAtLoadTime: a class outside the weaver's scope is answered
// unchanged at once and counted apart; one inside is woven.
func TestScopeAtLoadTime(t *testing.T) {
	sc, err := scope.New(scope.Pattern{Glob: "q/**", Where: "--include"})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newTestServerScoped(t, func(m advice.Matcher) advice.Matcher { return m }, sc)
	a, b := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	defer b.Close()
	go b.Write(AppendRequest(nil, &Request{Kind: Normal, Name: "p.Plugin", Class: compiled(t, "p/Plugin")}))
	resp, err := ReadResponse(b)
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Summary()
	if resp.Status != StatusUnchanged || sum.OutOfScope != 1 || sum.Woven != 0 || !strings.Contains(sum.String(), ", 1 outside the scope") {
		t.Errorf("p.Plugin outside q/**: status %d, summary %s", resp.Status, sum)
	}
}
