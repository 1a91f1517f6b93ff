package ltw

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// benchClassSrc is a class of bench/ltw.sh's generated plugin.
const benchClassSrc = `package p;
public class C7 extends Base {
    private final int[] data = new int[8];
    public int run(int x) { int s = 0; for (int k = 0; k < data.length; k++) s += helper(x + k); return s + 7; }
    private int helper(int x) { return x > 7 ? base(x) * 3 : base(x) + 7; }
    public String toString() { return "C7"; }
}
`

// BenchmarkWeaveClass: the server's cost of answering one class of
// bench/ltw.sh cold (woven, no Cache), every method's execution advised.
func BenchmarkWeaveClass(b *testing.B) {
	dir := jvmtest.Compile(b, map[string]string{"p/C7.java": benchClassSrc,
		"p/Base.java": "package p;\npublic abstract class Base { protected int base(int x) { return x & 7; } }\n"})
	class, err := os.ReadFile(filepath.Join(dir, "p", "C7.class"))
	if err != nil {
		b.Fatal(err)
	}
	s, _ := newTestServer(b, "")
	req := &Request{Kind: Normal, Name: "p.C7", Class: class}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if resp := s.Weave(req); resp.Status != StatusWoven {
			b.Fatalf("status %d", resp.Status)
		}
	}
}
