package flame

import (
	"bytes"
	"strings"
	"testing"
)

// TestRunningRank: without cpu-ns, frames rank by wall-ns less wait-ns (a
// waiting frame drops to the bottom), with it by cpu-ns; a JDK frame's
// line names the program frame it runs under most, and its share when
// not all; frames of the JDK only, hidden frames and sites are not such.
func TestRunningRank(t *testing.T) {
	p := New("wall-ns", "wait-ns", "cpu-ns")
	for m, text := range []string{
		"Main.main;Main.work 50\nMain.main;Main.work;java.util.HashMap.put 30\nMain.main;Other.run;java.util.HashMap.put 10\n" +
			"java.lang.ref.Reference.processPendingReferences 900\nMain.main;java.lang.invoke.LambdaForm$MH.invoke;Main.lambda 5\n",
		"java.lang.ref.Reference.processPendingReferences 899\n",
		"Main.main;Main.work 40\nMain.main;Main.work;java.util.HashMap.put 35\nMain.main;Other.run;java.util.HashMap.put 5\n",
	} {
		if err := ReadFolded(strings.NewReader(text), "x.folded", p, m); err != nil {
			t.Fatal(err)
		}
	}
	p.Sort()
	for _, c := range []struct {
		metrics []string
		name    string
		want    []string
	}{
		{[]string{"wall-ns", "wait-ns"}, "run-ns", []string{"50   52.1%  Main.work\n", "40   41.7%  java.util.HashMap.put  (under Main.work, 75%)\n"}},
		{[]string{"wall-ns", "wait-ns", "cpu-ns"}, "cpu-ns", []string{"40   50.0%  java.util.HashMap.put  (under Main.work, 88%)\n", "40   50.0%  Main.work\n"}},
		{[]string{"wall-ns"}, "wall-ns", []string{"900   90.5%  java.lang.ref.Reference.processPendingReferences\n"}},
	} {
		q := *p
		q.Metrics = c.metrics
		r, why, ok := RunningRank(&q)
		if !ok || r.Name != c.name || why == "" {
			t.Fatalf("%v: rank %q (%s), want %s", c.metrics, r.Name, why, c.name)
		}
		var out bytes.Buffer
		if err := WriteTopBy(&out, &q, r, 2); err != nil {
			t.Fatal(err)
		}
		self, _, _ := strings.Cut(out.String(), "\n\n")
		self += "\n"
		for _, w := range c.want {
			if !strings.Contains(self, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, self)
			}
		}
	}
	if _, _, ok := RunningRank(New("calls")); ok {
		t.Error("a rank for a profile of calls only")
	}
}
