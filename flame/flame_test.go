package flame

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"
)

const sample = `main;a;b 5
main;a;c 3

main;java.util.HashMap.put 2
main 1
main;a;b 2
`

func read(t *testing.T, text string) *Profile {
	t.Helper()
	p := New("calls")
	if err := ReadFolded(strings.NewReader(text), "x.folded", p, 0); err != nil {
		t.Fatal(err)
	}
	p.Sort()
	return p
}

// TestFoldedRoundTrip: reading sums the lines of a context; writing gives
// one line per context, and reading that gives the same tree.
func TestFoldedRoundTrip(t *testing.T) {
	p := read(t, sample)
	if got := p.Root.Total[0]; got != 13 {
		t.Errorf("total %v, want 13", got)
	}
	var out bytes.Buffer
	if err := WriteFolded(&out, p, 0); err != nil {
		t.Fatal(err)
	}
	want := "main 1\nmain;a;b 7\nmain;a;c 3\nmain;java.util.HashMap.put 2\n"
	if out.String() != want {
		t.Errorf("folded:\n%s\nwant:\n%s", out.String(), want)
	}
	var again bytes.Buffer
	WriteFolded(&again, read(t, out.String()), 0)
	if again.String() != want {
		t.Errorf("second round:\n%s", again.String())
	}
}

func TestReadFoldedErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"main;a 1\nmain;b\n", "x.folded:2: want `frame;frame;... value`, found no value"},
		{"main;a x\n", `x.folded:1: the value "x" is not a non-negative number`},
		{"main;a -3\n", `x.folded:1: the value "-3" is not a non-negative number`},
		{"main;a NaN\n", `x.folded:1: the value "NaN" is not a non-negative number`},
		{" 4\n", "x.folded:1: a value with no stack"},
	} {
		err := ReadFolded(strings.NewReader(tt.text), "x.folded", New("calls"), 0)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: error %v, want %s", tt.text, err, tt.want)
		}
	}
}

// TestTop: self sums every context of a frame; total counts a recursive
// frame's outermost contexts only.
func TestTop(t *testing.T) {
	p := read(t, "main;f;f;f 4\nmain;f 1\nmain;g;f 2\n")
	var out bytes.Buffer
	if err := WriteTop(&out, p, 0, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"    7  100.0%  f\n", "    7  100.0%  main\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("top lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSpeedscope(t *testing.T) {
	p := New("calls", "objects")
	ReadFolded(strings.NewReader("main;a 2\nmain;b 1\n"), "c", p, 0)
	ReadFolded(strings.NewReader("main;b 10\n"), "o", p, 1)
	p.Sort()
	var out bytes.Buffer
	if err := WriteSpeedscope(&out, p, "t"); err != nil {
		t.Fatal(err)
	}
	var f struct {
		Shared   struct{ Frames []struct{ Name string } }
		Profiles []struct {
			Name     string
			EndValue float64
			Samples  [][]int
			Weights  []float64
		}
	}
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fr := range f.Shared.Frames {
		names = append(names, fr.Name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "a,b,main" || len(f.Profiles) != 2 || f.Profiles[1].EndValue != 10 ||
		len(f.Profiles[0].Samples) != 2 || f.Profiles[0].Weights[0] != 2 {
		t.Errorf("speedscope: %s", out.String())
	}
}

// TestHTMLEscapes: frame names cannot end the data's script element.
func TestHTMLEscapes(t *testing.T) {
	p := read(t, "main;</script><script>alert(1)</script> 1\n")
	var out bytes.Buffer
	if err := WriteHTML(&out, p, "<b>t</b>"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "</script><script>alert") || strings.Contains(out.String(), "<b>t</b>") {
		t.Errorf("unescaped input in the page")
	}
}

// FuzzReadFolded: no input makes the reader panic, and what it accepts
// writes back to text it accepts again with the same total.
func FuzzReadFolded(f *testing.F) {
	f.Add(sample)
	f.Add("a;b;c 1.5e3\n;; 2\n")
	f.Fuzz(func(t *testing.T, text string) {
		p := New("m")
		if ReadFolded(strings.NewReader(text), "f", p, 0) != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteFolded(&out, p, 0); err != nil {
			t.Fatal(err)
		}
		q := New("m")
		if err := ReadFolded(&out, "again", q, 0); err != nil {
			t.Fatalf("written form rejected: %v\n%s", err, out.String())
		}
		if a, b := p.Root.Total[0], q.Root.Total[0]; a != b && (a-b)/a > 1e-9 {
			t.Fatalf("total %v became %v", a, b)
		}
	})
}

func TestReadCCT(t *testing.T) {
	text := "# weft cct 1\nmetrics calls wall\nf main\nn 0 0 1 10\nf a\nn 1 1 2 5\nf b\nn 2 2 3 1\nn 1 2 1 1\n"
	p, err := ReadCCT(strings.NewReader(text), "p.cct")
	if err != nil {
		t.Fatal(err)
	}
	p.Sort()
	var out bytes.Buffer
	WriteFolded(&out, p, 0)
	if want := "main 1\nmain;a 2\nmain;a;b 3\nmain;b 1\n"; out.String() != want {
		t.Errorf("folded:\n%s\nwant:\n%s", out.String(), want)
	}
	if p.Root.Total[1] != 17 || p.Root.Children[0].Total[0] != 7 {
		t.Errorf("totals: all %v, main %v", p.Root.Total, p.Root.Children[0].Total)
	}
	// Values left out at the end are zero.
	short, err := ReadCCT(strings.NewReader("# weft cct 1\nmetrics calls wall\nf main\nn 0 0 4\nf a\nn 1 1\n"), "p.cct")
	if err != nil {
		t.Fatal(err)
	}
	if m := short.Root.Children[0]; m.Self[0] != 4 || m.Self[1] != 0 || m.Children[0].Total[0] != 0 || len(m.Children[0].Self) != 2 {
		t.Errorf("short lines: main %v, a %v", m.Self, m.Children[0].Self)
	}
	for _, tt := range []struct{ text, want string }{
		{"x\n", "p.cct:1: not a weft calling-context file"},
		{"# weft cct 1\nmetrics\n", "p.cct:2: want `metrics NAME...`"},
		{"# weft cct 1\nmetrics c\nn 0 0 1\n", "p.cct:3: frame \"0\" is not a frame defined before"},
		{"# weft cct 1\nmetrics c\nf a\nn 1 0 1\n", "p.cct:4: parent \"1\" is not a context defined before"},
		{"# weft cct 1\nmetrics c\nf a\nn 0 0 1 2\n", "p.cct:4: want `n PARENT FRAME` and at most 1 values, found 4 fields"},
		{"# weft cct 1\nmetrics c\nf a\nn 0\n", "p.cct:4: want `n PARENT FRAME` and at most 1 values, found 1 fields"},
		{"# weft cct 1\nmetrics c\nf a\nn 0 0 -1\n", "p.cct:4: the value \"-1\" is not a non-negative number"},
		{"# weft cct 1\nmetrics c\nz\n", "p.cct:3: want `f NAME` or `n PARENT FRAME VALUES...`"},
	} {
		_, err := ReadCCT(strings.NewReader(tt.text), "p.cct")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %s", tt.text, err, tt.want)
		}
	}
}

// FuzzReadCCT: no input makes the reader panic; what it accepts has
// consistent totals; the page is streamed from it (WriteCCTHTML) only if
// the reader accepts it too, and is then the page of the tree read.
func FuzzReadCCT(f *testing.F) {
	f.Add("# weft cct 1\nmetrics calls wall\nf main\nn 0 0 1 10\nf a\nn 1 1 2 5\n")
	f.Add("# weft cct 1\nmetrics c\nf a\nn 0 0 1\nn 1 0 2\nn 0 0 3\n")
	f.Add("# weft cct 1\nmetrics c w\nf z\nf a\nn 0 1 007 1.50\n\nn 1 0 1 2\nf a\nn 0 0 3 4\nn 3 2 0 0\n")
	f.Add("# weft cct 1\nmetrics c w x\nf z\nf a\nn 0 1 2\nn 1 0\nn 0 0 0 0.0 00\n")
	f.Fuzz(func(t *testing.T, text string) {
		var streamed bytes.Buffer
		serr := WriteCCTHTML(&streamed, strings.NewReader(text), "t")
		if serr != nil && (!errors.Is(serr, ErrNotCanonical) || streamed.Len() != 0) {
			t.Fatalf("WriteCCTHTML: %v, %d bytes written", serr, streamed.Len())
		}
		p, err := ReadCCT(strings.NewReader(text), "f")
		if err != nil {
			if serr == nil {
				t.Fatalf("streamed a page of a file ReadCCT refuses: %v", err)
			}
			return
		}
		if serr == nil {
			p.Sort()
			var want bytes.Buffer
			if err := WriteHTML(&want, p, "t"); err != nil {
				t.Fatal(err)
			}
			if streamed.String() != want.String() {
				t.Fatal("streamed page differs from WriteHTML's")
			}
		}
		var self float64
		p.Walk(func(_ []string, n *Node) { self += n.Self[0] })
		if d := p.Root.Total[0] - self - p.Root.Self[0]; d > 1e-6*self+1e-9 || d < -1e-6*self-1e-9 {
			t.Fatalf("root total %v, selves %v", p.Root.Total[0], self)
		}
	})
}
