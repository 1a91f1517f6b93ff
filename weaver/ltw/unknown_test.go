package ltw

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver"
)

// beforeAfter advises every method execution outside adv/ with before and
// after advice (after advice needs the whole body decoded and its frames).
type beforeAfter struct{ before, after *advice.Advice }

func (m beforeAfter) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Kind != advice.MethodExecution || strings.HasPrefix(s.Within, "adv/") {
		return nil
	}
	return []advice.Applied{{Advice: m.after, Verdict: advice.Always}, {Advice: m.before, Verdict: advice.Always}}
}

// TestUnknownTypeMethodUnwoven: a class defined at run time whose method's
// frames need a type no source has (app/Main.pick joins a lib/Left and a
// lib/Right, which the server cannot find, in a class file of version 50
// with no frames of its own to keep): the server asks the JVM for them.
// Where the defining loader does not find them either, the class comes
// back woven but for that method, which the summary names with the
// reason; no frame guesses the type. Where it sends them, pick is woven
// too.
func TestUnknownTypeMethodUnwoven(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{
		"lib/Base.java":  "package lib; public class Base { public String name() { return \"base\"; } }",
		"lib/Left.java":  "package lib; public class Left extends Base {}",
		"lib/Right.java": "package lib; public class Right extends Base {}",
		"app/Main.java": `package app;
public class Main {
    public static void main(String[] a) { System.out.println(pick(true)); }
    static String pick(boolean left) {
        lib.Base x;
        if (left) x = new lib.Left(); else x = new lib.Right();
        return x.name();
    }
}`})
	b, err := os.ReadFile(filepath.Join(dir, "app", "Main.class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse("app/Main.class", b)
	if err != nil {
		t.Fatal(err)
	}
	c.Major = 50 // verified by inference: its methods need no frames
	for _, m := range c.Methods {
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		code.Frames = nil
		if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	img, err := classpath.OpenJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	h := NewHierarchy(img)
	hit := func(kind advice.Kind, line int) *advice.Advice {
		return &advice.Advice{Kind: kind, Aspect: "T", File: "t.weft", Line: line,
			Method: advice.Method{Owner: "adv/Log", Name: "hit", Desc: "(I)V"},
			Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
	}
	before, after := hit(advice.Before, 1), hit(advice.After, 2)
	w := weaver.New(beforeAfter{before, after}, []*advice.Advice{before, after}, weaver.Options{Hierarchy: h, IDBase: 1000})
	s := NewServer(w, h)

	// The JVM finds none of the types asked for: it answers with no bytes.
	asked, resp := define(t, s, c.Bytes(), func(string) []byte { return nil })
	if !slices.Contains(asked, "lib.Left") {
		t.Errorf("asked the JVM for %v, want lib.Left among them", asked)
	}
	if resp.Status != StatusWoven {
		t.Fatalf("status %d (%s), want woven (main and the constructor)", resp.Status, resp.Message)
	}
	sum := s.Summary()
	t.Logf("%s: %+v", sum, sum.Methods)
	if sum.MethodsCount != 1 || len(sum.Methods) != 1 || sum.Methods[0].Class != "app/Main" ||
		!strings.Contains(sum.Methods[0].Reason, "app/Main.pick(Z)Ljava/lang/String;: left unwoven: ") ||
		!strings.Contains(sum.Methods[0].Reason, "is not found") || !strings.Contains(sum.String(), "1 methods left unwoven") {
		t.Errorf("summary %s: methods %+v, want pick left unwoven, a type unknown", sum, sum.Methods)
	}
	woven, err := classfile.Parse("app/Main.class", resp.Class)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range woven.Methods {
		if woven.MemberName(m) != "pick" {
			continue
		}
		if got, orig := woven.Attr(m.Attributes, "Code").Info, c.Attr(methodNamed(c, "pick").Attributes, "Code").Info; string(got) != string(orig) {
			t.Error("pick's code changed: want it as it was")
		}
	}

	// The JVM sends them: pick is woven too.
	h2 := NewHierarchy(img)
	s2 := NewServer(weaver.New(beforeAfter{before, after}, []*advice.Advice{before, after}, weaver.Options{Hierarchy: h2, IDBase: 1000}), h2)
	_, resp = define(t, s2, c.Bytes(), func(name string) []byte {
		b, _ := os.ReadFile(filepath.Join(dir, strings.ReplaceAll(name, ".", "/")+".class"))
		return b
	})
	if sum := s2.Summary(); resp.Status != StatusWoven || sum.MethodsCount != 0 || sum.Asked == 0 {
		t.Errorf("types sent: status %d, summary %s, methods left unwoven %+v", resp.Status, sum, sum.Methods)
	}
	woven2, err := classfile.Parse("app/Main.class", resp.Class)
	if err != nil {
		t.Fatal(err)
	}
	if got, orig := woven2.Attr(methodNamed(woven2, "pick").Attributes, "Code").Info, c.Attr(methodNamed(c, "pick").Attributes, "Code").Info; string(got) == string(orig) {
		t.Error("types sent: pick left as it was, want it woven")
	}
}

// define sends app.Main's bytes to s as a JVM defining it would, answering
// each query with find's bytes, and returns the names asked for and the
// answer.
func define(t *testing.T, s *Server, class []byte, find func(name string) []byte) ([]string, *Response) {
	t.Helper()
	a, conn := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	defer conn.Close()
	go conn.Write(AppendRequest(nil, &Request{Name: "app.Main", Class: class}))
	var asked []string
	for {
		resp, err := ReadResponse(conn)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != StatusQuery {
			return asked, resp
		}
		asked = append(asked, resp.Query)
		go conn.Write(AppendRequest(nil, &Request{Kind: Answer, Name: resp.Query, Class: find(resp.Query)}))
	}
}

func methodNamed(c *classfile.Class, name string) *classfile.Member {
	for _, m := range c.Methods {
		if c.MemberName(m) == name {
			return m
		}
	}
	return nil
}
