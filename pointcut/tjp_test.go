package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// Stand-ins for the runtime's join point types and advice taking them.
var tjpSrc = map[string]string{
	"weft/rt/JoinPoint.java":           `package weft.rt; public final class JoinPoint { }`,
	"weft/rt/JoinPointStaticPart.java": `package weft.rt; public final class JoinPointStaticPart { }`,
	"tjp/Log.java": `package tjp;
import weft.rt.JoinPoint;
import weft.rt.JoinPointStaticPart;
public class Log {
    public static void jp(JoinPoint jp) {}
    public static void obj(Object jp) {}
    public static void both(JoinPoint jp, JoinPointStaticPart sp, int id, Object o) {}
    public static void str(String s) {}
    public static void sp(JoinPointStaticPart sp) {}
}
`,
}

// thisJoinPoint is a context value of type weft.rt.JoinPoint: it binds to
// a parameter of that type or Object, anything else is an error at the
// advice call.
func TestJoinPointBinding(t *testing.T) {
	dir := jvmtest.Compile(t, tjpSrc)
	ok := []struct {
		advice, desc, values string
	}{
		{`before(): call(* *(..)) { tjp.Log.jp(thisJoinPoint); }`, "(Lweft/rt/JoinPoint;)V", "thisJoinPoint:Lweft/rt/JoinPoint;"},
		{`after(): execution(* *(..)) { tjp.Log.obj(thisJoinPoint); }`, "(Ljava/lang/Object;)V", "thisJoinPoint:Ljava/lang/Object;"},
		{`before(Object o): call(* *(..)) && args(o, ..) { tjp.Log.both(thisJoinPoint, thisJoinPointStaticPart, joinPointId, o); }`,
			"(Lweft/rt/JoinPoint;Lweft/rt/JoinPointStaticPart;ILjava/lang/Object;)V",
			"thisJoinPoint:Lweft/rt/JoinPoint; thisJoinPointStaticPart:Lweft/rt/JoinPointStaticPart; joinPointId:I arg0:Ljava/lang/Object;"},
	}
	for _, tt := range ok {
		p, err := resolveCP(t, dir, tt.advice)
		if err != nil {
			t.Errorf("%s: %v", tt.advice, err)
			continue
		}
		a := p.Advice()[0]
		if a.Method.Desc != tt.desc {
			t.Errorf("%s: bound %s, want %s", tt.advice, a.Method.Desc, tt.desc)
		}
		if got := valuesString(a.Args); got != tt.values {
			t.Errorf("%s: values %s, want %s", tt.advice, got, tt.values)
		}
		if len(p.Warnings) > 0 {
			t.Errorf("%s: warnings %v", tt.advice, p.Warnings)
		}
	}

	bad := []struct {
		advice string
		want   []string
	}{
		{`before(): call(* *(..)) { tjp.Log.str(thisJoinPoint); }`,
			[]string{"t.weft:2:27: advice at line 2: no advice method fits: want public static void str(weft.rt.JoinPoint) in tjp.Log",
				"    before(): call(* *(..)) { tjp.Log.str(thisJoinPoint); }\n                              ^",
				"hint: found str(Ljava/lang/String;)V (parameter 1 is java.lang.String, cannot take weft.rt.JoinPoint)"}},
		{`before(): call(* *(..)) { tjp.Log.sp(thisJoinPoint); }`,
			[]string{"t.weft:2:27:", "(parameter 1 is weft.rt.JoinPointStaticPart, cannot take weft.rt.JoinPoint)"}},
		{`before(): call(* *(..)) { tjp.Log.jp(thisJoinPointStaticPart); }`,
			[]string{"t.weft:2:27:", "(parameter 1 is weft.rt.JoinPoint, cannot take weft.rt.JoinPointStaticPart)"}},
		{`before(): call(* *(..)) { tjp.Log.jp(); }`,
			[]string{"t.weft:2:27:", "jp(Lweft/rt/JoinPoint;)V (takes 1 parameters, the call passes 0)"}},
	}
	for _, tt := range bad {
		_, err := resolveCP(t, dir, tt.advice)
		if err == nil || !contains(err.Error(), tt.want...) {
			t.Errorf("%s: got %v\nwant %q", tt.advice, err, tt.want)
		}
	}
}

// Without an advice class path, thisJoinPoint resolves to its own type;
// a misspelling is an unknown name whose hint names it.
func TestJoinPointContextValue(t *testing.T) {
	f, err := ParseFile("t.weft", []byte("aspect A {\nbefore(): call(* *(..)) { a.B.c(thisJoinPoint, thisJoinPoint); }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Resolve([]*File{f}, "")
	if err != nil {
		t.Fatal(err)
	}
	a := p.Advice()[0]
	if a.Method.Desc != "(Lweft/rt/JoinPoint;Lweft/rt/JoinPoint;)V" || len(a.Args) != 2 || a.Args[0].Kind != advice.JoinPoint {
		t.Errorf("bound %s %v", a.Method.Desc, a.Args)
	}
	got := resolveErr("aspect A {\nbefore(): call(* *(..)) { a.B.c(thisJoinpoint); }\n}\n")
	if !contains(got, "t.weft:2:33: unknown name thisJoinpoint in the advice call", "hint: the advice call passes formals or context values: thisJoinPoint, thisJoinPointStaticPart") {
		t.Errorf("got %s", got)
	}
}
