package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestJDK25Leak runs weft leak on JDK 25 as TestLeakTracker does on the
// default JDK: Leaky, compiled by javac 25, leaking Sessions from one
// site, under -Xverify:all on java.base woven: the program prints what it
// prints on the stock JDK 25, and the leaking site is ranked first with
// its calling context. (weft profile's exact counts on JDK 25 are
// TestJDK25VirtualThreads', weft recrash's reproducing test TestJDK25's.)
func TestJDK25Leak(t *testing.T) {
	j25 := jvmtest.JDK25(t)
	weft := buildWeft(t)
	app := javac25(t, j25, map[string]string{"Leaky.java": leakySrc}, "", "-g")
	java := filepath.Join(j25, "bin", "java")
	want, err := exec.Command(java, "-Xmx16m", "-Dpause=0", "-cp", app, "Leaky", "leak").Output()
	if err != nil || !strings.HasSuffix(string(want), " probes kept 0\n") {
		t.Fatalf("stock JDK 25 run of Leaky: %q %v", want, err)
	}
	out := filepath.Join(t.TempDir(), "leak")
	cmd := exec.Command(weft, "leak", "--modules", "java.base", "--patches", "-o", out, "--",
		java, "-Xverify:all", "-Xmx16m", "-Didle=8", "-cp", app, "Leaky", "leak")
	cmd.Env = append(os.Environ(), "WEFT_CACHE="+newCache(t))
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil || o.String() != string(want) {
		t.Fatalf("weft leak on JDK 25: %v, stdout %q, want %q\nstderr:\n%s", err, o.String(), want, e.String())
	}
	var r leakReport
	b, err := os.ReadFile(filepath.Join(out, "leak.json"))
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatalf("leak.json: %v", err)
	}
	if len(r.Growing) == 0 {
		t.Fatalf("no growing context:\n%s", e.String())
	}
	if g := r.Growing[0]; g.Site != "Leaky$Session" || !strings.HasPrefix(g.Location, "Leaky.java:") ||
		strings.Join(g.Context, " ") != "Leaky.remember Leaky.serve Leaky.main" {
		t.Errorf("first growing context %+v, want new Leaky$Session in Leaky.remember, serve, main", g)
	}
	if !strings.Contains(e.String(), " 1. new Leaky$Session  Leaky.java:") {
		t.Errorf("the printed report does not rank the Session site first:\n%s", e.String())
	}
}
