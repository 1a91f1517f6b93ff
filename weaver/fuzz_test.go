package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// FuzzWeaveClass feeds mutated class files to a weaver advising every
// shadow kind: it must return an error or classes that parse again, and
// never panic (WeaveClass recovers a panic into a "weaving failed" error,
// which fails the target).
func FuzzWeaveClass(f *testing.F) {
	// Seeds: the classes of the torture program, compiled here (class
	// files are never committed).
	src, err := os.ReadFile("testdata/All.java")
	if err != nil {
		f.Fatal(err)
	}
	dir := jvmtest.Compile(f, map[string]string{"app/All.java": strings.Replace(string(src), "BIG", "v();", 1)})
	classes, _ := filepath.Glob(filepath.Join(dir, "app", "*.class"))
	for _, p := range classes {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52})
	var rules testMatcher
	for k := advice.MethodCall; k <= advice.ArrayConstruction; k++ {
		for _, ak := range []advice.Kind{advice.Before, advice.AfterReturning, advice.AfterThrowing, advice.After} {
			rules = append(rules, rule{kind: k, adv: adv(ak, int(ak), "after", "(Lweft/rt/JoinPointStaticPart;)V", jpv)})
		}
	}
	w := New(rules, nil, Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := w.WeaveClass("fuzz.class", data)
		if err != nil {
			if isPanic(err) {
				t.Fatalf("panic: %v", err)
			}
			return
		}
		if res.Class != nil {
			if _, err := classfile.Parse("woven", res.Class); err != nil {
				t.Fatalf("woven class does not parse: %v", err)
			}
			for n, b := range res.Extra {
				if _, err := classfile.Parse(n, b); err != nil {
					t.Fatalf("sister class does not parse: %v", err)
				}
			}
		}
	})
}

// isPanic recognizes the error WeaveClass makes of a recovered panic.
func isPanic(err error) bool { return strings.Contains(err.Error(), "weaving failed:") }
