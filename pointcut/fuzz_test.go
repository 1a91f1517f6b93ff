package pointcut

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
)

var fuzzSeeds = []string{
	`aspect A { pointcut p(): call(*.new(..)) && !within(x..*); after() returning(Object o): p() { a.B.c(o, thisJoinPointStaticPart); } }`,
	`aspect A { before(java.util.Map m, Object k): call(public !static * java.util.Map+.put(..) throws !java.io.IOException) && target(m) && args(k, ..) { a.B.c(m, k, joinPointId); } }`,
	`aspect A { after() throwing(Throwable t): execution(* (a.* || b..*).m*(int[], String...)) || withincode(a.B.new(..)) { a.B.c(t); } }`,
	`aspect A { before(): call(int[][].new(int, int)) && args(int, int) { a.B.c(arrayDims); } }`,
	`aspect A { before(): if(x > 3) { a.B.c(); } Object around(): get(* *) { return proceed(); } }`,
	`aspect A { pointcut p(Object o): this(o); before(Object x): A.p(x) { a.B.c(x); } }`,
	"aspect A {\n /* unterminated",
	"aspect A { before(): call(* *(.., (int || long), ..)) { a.B.c(); } }",
	`aspect A { before(int v, a.P p): set(!static int (a.P || b..*).x*) && args(v) && target(p) { a.B.c(v, p); } after() returning(long v): get(* a.P+.*) { a.B.c(v); } }`,
	`aspect A { declare precedence: A, *, (B* || !C+); declare warning: call(* *(..)) && within(a..*) : "w\u0041\n"; declare error: x() : "e"; declare parents: A; }`,
}

// FuzzParse: no input makes ParseFile or Resolve panic, and every error
// they report has a position in the file.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseFile("f.weft", src)
		checkPositioned(t, err, src)
		p, err := Resolve([]*File{file}, "")
		checkPositioned(t, err, src)
		if p != nil {
			for _, s := range allShadows {
				p.Match(s, testHier())
				p.Declared(s, testHier())
			}
			for _, s := range fieldShadows {
				p.Match(s, testHier())
			}
		}
	})
}

func checkPositioned(t *testing.T, err error, src []byte) {
	t.Helper()
	if err == nil {
		return
	}
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error is not an ErrorList: %v", err)
	}
	for _, e := range list {
		if e.Pos.Filename != "f.weft" || e.Pos.Line < 1 || e.Pos.Column < 1 || e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
			t.Fatalf("error without a position in the file: %#v", e.Pos)
		}
		if e.Msg == "" {
			t.Fatalf("error without a message at %s", e.Pos)
		}
	}
}

// TestFuzzSeeds runs the fuzz seeds (and their prefixes) as a plain test.
func TestFuzzSeeds(t *testing.T) {
	for _, s := range fuzzSeeds {
		for i := 0; i <= len(s); i += 7 {
			src := []byte(s[:i])
			file, err := ParseFile("f.weft", src)
			checkPositioned(t, err, src)
			_, err = Resolve([]*File{file}, "")
			checkPositioned(t, err, src)
		}
	}
}

// bigAspect returns a .weft file of about n lines.
func bigAspect(n int) []byte {
	var b strings.Builder
	b.WriteString("aspect Big {\n")
	lines := 1
	for i := 0; lines < n-1; i++ {
		fmt.Fprintf(&b, "    // pointcut %d\n", i)
		fmt.Fprintf(&b, "    pointcut p%d(java.util.Map m, Object k): call(public !static * java.util.Map+.put*(..) throws !java.io.IOException)\n", i)
		fmt.Fprintf(&b, "        && target(m) && args(k, ..) && !within(com.example.tracker%d..*);\n", i)
		fmt.Fprintf(&b, "    after(java.util.Map m, Object k) returning(Object r): p%d(m, k) && (execution(* *..*Service+.handle(String, int[], ..)) || call(* *(..))) {\n", i)
		fmt.Fprintf(&b, "        com.example.tracker.Tracker.onPut(m, k, r, thisJoinPointStaticPart, joinPointId);\n")
		fmt.Fprintf(&b, "    }\n")
		fmt.Fprintf(&b, "    before(): call(int[][].new(..)) && withincode(* com.example..*.run*(..)) { com.example.tracker.Tracker.onArray(arrayDims); }\n")
		lines += 7
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func BenchmarkParse5000Lines(b *testing.B) {
	src := bigAspect(5000)
	if n := strings.Count(string(src), "\n"); n < 4990 {
		b.Fatalf("only %d lines", n)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseFile("big.weft", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve5000Lines(b *testing.B) {
	src := bigAspect(5000)
	f, err := ParseFile("big.weft", src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Resolve([]*File{f}, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatch is the per-shadow cost the weaver pays, for a typical
// aspect of a few advice.
func BenchmarkMatch(b *testing.B) {
	f, err := ParseFile("t.weft", []byte(`aspect A {
    pointcut allocs(): call(*.new(..)) && !within(example.tracker..*);
    before(): execution(* java.util.HashMap.put(..)) { a.B.c(thisJoinPointStaticPart); }
    after() returning(Object o): allocs() { a.B.c(o, thisJoinPointStaticPart); }
    before(java.util.Map m, Object k): call(* java.util.Map+.put(..)) && target(m) && args(k, ..) { a.B.c(m, k); }
}`))
	if err != nil {
		b.Fatal(err)
	}
	p, err := Resolve([]*File{f}, "")
	if err != nil {
		b.Fatal(err)
	}
	h := testHier()
	shadows := []*advice.Shadow{callPut, callPutHM, execPut, newMap, execMain, callFmt}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p.Match(shadows[i%len(shadows)], h)
	}
}
