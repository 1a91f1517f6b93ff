package ltw

import (
	"net"
	"strings"
	"testing"
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
