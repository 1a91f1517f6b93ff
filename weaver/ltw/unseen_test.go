package ltw

import (
	"net"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/weaver/scope"
)

// TestUnseenLoader: a class whose loader does not see weft's runtime
// (kind Unseen) is answered unchanged, never woven, and recorded as left
// unwoven with the reason.
func TestUnseenLoader(t *testing.T) {
	s, _ := newTestServer(t, "")
	a, b := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	defer b.Close()
	go b.Write(AppendRequest(nil, &Request{Kind: Unseen, Name: "p.Plugin", Class: compiled(t, "p/Plugin")}))
	resp, err := ReadResponse(b)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != StatusUnchanged {
		t.Errorf("status %d, want unchanged", resp.Status)
	}
	sum := s.Summary()
	if sum.Woven != 0 || sum.UnwovenCount != 1 || sum.Unwoven[0].Class != "p/Plugin" || sum.Unwoven[0].Kind != "unseen" ||
		!strings.HasPrefix(sum.Unwoven[0].Reason, "its class loader does not see weft's runtime") {
		t.Errorf("summary %s: %+v", sum, sum.Unwoven)
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
