package ltw

import (
	"archive/zip"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// pickSrc is a class whose method merges two of its package's types (Pz1
// and Pz2 into Pz) where the woven code needs frames computed again: a
// call advised in it (callsOfN).
const pickSrc = `package P;
public class Pick {
    public static int pick(boolean f) { Pz p = f ? new Pz1() : new Pz2(); return p.n(); }
}
abstract class Pz { abstract int n(); }
class Pz1 extends Pz { int n() { return 1; } }
class Pz2 extends Pz { int n() { return 2; } }
`

// callsOfN advises every call of a method n, besides every execution.
type callsOfN struct{ advice.Matcher }

func (m callsOfN) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Kind == advice.MethodCall && s.Member.Name == "n" {
		return m.Matcher.Match(&advice.Shadow{Kind: advice.MethodExecution, Within: s.Within}, h)
	}
	return m.Matcher.Match(s, h)
}

// TestLearnedJar: once the JVM names a class's jar (whose Pick is its
// first entry), the server finds there the types the class names before
// the JVM defines them, as weft run finds them on the class path: the
// types a woven method's frames merge (Pz1 and Pz2, whose superclass Pz
// the merge frame names), and supertypes (Pz1's Pz), which it asks the
// JVM for no more. A directory's are asked.
func TestLearnedJar(t *testing.T) {
	s, _ := newTestServerWith(t, func(m advice.Matcher) advice.Matcher { return callsOfN{m} })
	ln, path, err := Listen(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer func() { ln.Close(); s.Close() }()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, pkg := range []string{"jar", "dir"} {
		classes := jvmtest.Compile(t, map[string]string{pkg + "/Pick.java": strings.ReplaceAll(pickSrc, "package P", "package "+pkg)})
		source := "file:" + classes + "/"
		if pkg == "jar" {
			jar := filepath.Join(t.TempDir(), "pick.jar")
			writeJar(t, jar, classes, "jar/Pick", "jar/Pz1", "jar/Pz2", "jar/Pz")
			source = "file:" + jar
		}
		// Both classes in one write: nothing is woven ahead before Pz1's
		// round trip (which would make Pz known).
		req := AppendRequest(nil, &Request{Kind: Source, Name: source})
		names := []string{pkg + "/Pick", pkg + "/Pz1"}
		if pkg == "dir" { // Pz1 only: the JVM is asked for Pz
			names = names[1:]
		}
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(classes, name+".class"))
			if err != nil {
				t.Fatal(err)
			}
			req = AppendRequest(req, &Request{Kind: Normal, Name: strings.ReplaceAll(name, "/", "."), Class: b})
		}
		if _, err := c.Write(req); err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			resp, err := ReadResponse(c)
			for err == nil && resp.Status == StatusQuery && pkg == "dir" {
				b, err := os.ReadFile(filepath.Join(classes, strings.ReplaceAll(resp.Query, ".", "/")+".class"))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Write(AppendRequest(nil, &Request{Kind: Answer, Name: resp.Query, Class: b})); err != nil {
					t.Fatal(err)
				}
				resp, err = ReadResponse(c)
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != StatusWoven {
				t.Fatalf("%s (from the %s): status %d %s, a query for %q", name, pkg, resp.Status, resp.Message, resp.Query)
			}
			if name == pkg+"/Pick" && !mergesTo(t, resp.Class, "pick", pkg+"/Pz") {
				t.Errorf("%s (from the %s): no frame of pick names %s/Pz", name, pkg, pkg)
			}
		}
	}
	c.Close()
	if sum := s.Summary(); sum.Woven != 3 || sum.Asked != 1 || sum.UnwovenCount != 0 {
		t.Errorf("summary %s, %d asked: want 3 woven, 1 asked (dir.Pz)", sum, sum.Asked)
	}
}

// mergesTo reports whether a frame of method name in class holds type.
func mergesTo(t *testing.T, class []byte, name, typ string) bool {
	t.Helper()
	c, err := classfile.Parse("woven", class)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Methods {
		if c.MemberName(m) != name {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range code.Frames {
			for _, v := range append(append([]classfile.VType(nil), f.Locals...), f.Stack...) {
				if v.Kind == classfile.VObject && v.Class == typ {
					return true
				}
			}
		}
	}
	return false
}

// writeJar writes the classes named (internal names) of dir into a jar,
// in that order.
func writeJar(t *testing.T, jar, dir string, names ...string) {
	t.Helper()
	files := map[string][]byte{}
	var order []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n+".class"))
		if err != nil {
			t.Fatal(err)
		}
		files[n+".class"] = b
		order = append(order, n+".class")
	}
	if err := writeZip(jar, order, files); err != nil {
		t.Fatal(err)
	}
}

// writeZip writes files into a zip at path, in order.
func writeZip(path string, order []string, files map[string][]byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, n := range order {
		w, err := zw.Create(n)
		if err != nil {
			return err
		}
		if _, err := w.Write(files[n]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}
