package weaver

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// TestUnwovenMethodsKeepTheirBytes weaves Debian's gpars (Groovy's
// compiler writes forms javac does not, aload 0 with an operand byte among
// them) with advice at the calls inside methods named get* only, and
// checks every other method of the output: its Code attribute is the
// input's, byte for byte, in woven classes too. The weaver re-encodes
// only the methods it weaves.
func TestUnwovenMethodsKeepTheirBytes(t *testing.T) {
	t.Parallel() // see jdkOnce
	const gpars = "/usr/share/java/gpars.jar"
	var srcs []classpath.Source
	for _, jar := range []string{gpars, "/usr/share/java/groovy.jar", "/usr/share/java/jsr166y.jar", "/usr/share/java/extra166y.jar"} {
		src, err := classpath.OpenJar(jar)
		if err != nil {
			t.Fatalf("%v: apt-get install -y libgpars-groovy-java (bash .ci/run does)", err)
		}
		defer src.Close()
		srcs = append(srcs, src)
	}
	srcs = append(srcs, mustJDK(t))
	h := HierarchyOf(srcs...)
	hit := adv(advice.Before, 0, "hit", "()V")
	woven := regexp.MustCompile(`^get`)
	m := testMatcher{{kind: advice.MethodCall, code: "get.*", adv: hit}}
	out := filepath.Join(t.TempDir(), "gpars.jar")
	st, err := New(m, []*advice.Advice{hit}, Options{Hierarchy: h, OmitShadows: true}).WeavePath(gpars, out)
	if err != nil {
		t.Fatal(err)
	}

	in, err := classpath.OpenJar(gpars)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	wj, err := classpath.OpenJar(out)
	if err != nil {
		t.Fatal(err)
	}
	defer wj.Close()
	changedClasses, kept, changed := 0, 0, 0
	err = in.Walk(func(e classpath.ClassEntry) error {
		name := strings.TrimSuffix(e.Path, ".class")
		ib, err := e.Read()
		if err != nil {
			return err
		}
		wb, err := wj.Class(name)
		if err != nil {
			return err
		}
		if bytes.Equal(ib, wb) {
			return nil
		}
		changedClasses++
		ic, err := classfile.Parse(name, ib)
		if err != nil {
			return err
		}
		wc, err := classfile.Parse(name, wb)
		if err != nil {
			return err
		}
		wm := map[string]*classfile.Member{}
		for _, m := range wc.Methods {
			wm[wc.MemberName(m)+wc.MemberDesc(m)] = m
		}
		for _, m := range ic.Methods {
			key := ic.MemberName(m) + ic.MemberDesc(m)
			a := ic.Attr(m.Attributes, "Code")
			w := wm[key]
			if a == nil || w == nil {
				continue
			}
			same := bytes.Equal(a.Info, wc.Attr(w.Attributes, "Code").Info)
			switch {
			case woven.MatchString(key):
				if !same {
					changed++
				}
			case !same:
				t.Errorf("%s.%s: not woven, but its Code attribute changed", name, key)
			default:
				kept++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d classes woven (%d methods): %d methods woven, %d others byte for byte the input's; %d warnings",
		changedClasses, st.Classes, st.MethodsWoven, changed, kept, len(st.Warnings))
	if changed != st.MethodsWoven {
		t.Errorf("%d methods named get* changed, the weaver wove %d", changed, st.MethodsWoven)
	}
	if changed < 100 || kept < 1000 {
		t.Errorf("only %d methods woven and %d others compared: the test proves little", changed, kept)
	}
}
