package ltw

import (
	"net"
	"os"
	"path/filepath"
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
// with no frames of its own to keep) comes back woven but for that method,
// which the summary names with the reason; no frame guesses the type.
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

	a, conn := net.Pipe()
	s.wg.Add(1)
	go s.serveConn(a)
	defer conn.Close()
	go conn.Write(AppendRequest(nil, &Request{Name: "app.Main", Class: c.Bytes()}))
	resp, err := ReadResponse(conn)
	if err != nil {
		t.Fatal(err)
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
}

func methodNamed(c *classfile.Class, name string) *classfile.Member {
	for _, m := range c.Methods {
		if c.MemberName(m) == name {
			return m
		}
	}
	return nil
}
