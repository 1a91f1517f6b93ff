package flame

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestWritePprof writes a calling-context tree with known counts as pprof
// and reads it back twice: with the format's library (every context's
// values exact) and with go tool pprof (the calls per function).
func TestWritePprof(t *testing.T) {
	p := New("calls", "objects", "wall-ns")
	add := func(stack string, calls, objects, ns float64) {
		s := strings.Split(stack, ";")
		p.Add(s, 0, calls)
		p.Add(s, 1, objects)
		p.Add(s, 2, ns)
	}
	add("main;app.Main.main", 1, 0, 1000)
	add("main;app.Main.main;app.Main.work", 10, 3, 5000)
	add("main;app.Main.main;app.Main.work;java.util.HashMap.put", 30, 30, 2500)
	add("worker;app.Main.work", 5, 0, 700)
	var b bytes.Buffer
	if err := WritePprof(&b, p); err != nil {
		t.Fatal(err)
	}
	prof, err := profile.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(prof.SampleType) != 3 || prof.SampleType[2].Unit != "nanoseconds" || prof.SampleType[0].Unit != "count" {
		t.Errorf("sample types %v", prof.SampleType)
	}
	got := map[string][]int64{}
	for _, s := range prof.Sample {
		var frames []string
		for i := len(s.Location) - 1; i >= 0; i-- {
			frames = append(frames, s.Location[i].Line[0].Function.Name)
		}
		got[strings.Join(frames, ";")] = s.Value
	}
	want := map[string][]int64{
		"main;app.Main.main":                                     {1, 0, 1000},
		"main;app.Main.main;app.Main.work":                       {10, 3, 5000},
		"main;app.Main.main;app.Main.work;java.util.HashMap.put": {30, 30, 2500},
		"worker;app.Main.work":                                   {5, 0, 700},
	}
	if len(got) != len(want) {
		t.Errorf("samples %v, want %v", got, want)
	}
	for k, v := range want {
		if g := got[k]; len(g) != 3 || g[0] != v[0] || g[1] != v[1] || g[2] != v[2] {
			t.Errorf("%s: %v, want %v", k, g, v)
		}
	}

	// go tool pprof: the calls of each function, self and cumulative.
	path := filepath.Join(t.TempDir(), "p.pb.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "tool", "pprof", "-top", "-sample_index=calls", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	for _, line := range []string{" 30 ", "java.util.HashMap.put", "app.Main.work", " 45 "} {
		if !strings.Contains(string(out), line) {
			t.Errorf("go tool pprof -top: no %q in\n%s", line, out)
		}
	}
}
