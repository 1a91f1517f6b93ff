package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Shadows of the new kinds as the weaver makes them.
var (
	subInit   = advice.Member{Owner: "app/Sub", Name: "<init>", Desc: "(Ljava/lang/String;I)V", Access: pub, AccessKnown: true}
	catchIO   = &advice.Shadow{Kind: advice.ExceptionHandler, Within: "app/Sub", Code: subRun, Member: advice.Member{Owner: "app/Sub", Name: "<catch>", Desc: "(Ljava/io/FileNotFoundException;)V", Access: classfile.AccStatic, AccessKnown: true}, StaticTarget: true}
	catchRT   = &advice.Shadow{Kind: advice.ExceptionHandler, Within: "app/Main", Code: mainM, Member: advice.Member{Owner: "app/Main", Name: "<catch>", Desc: "(Ljava/lang/RuntimeException;)V", Access: classfile.AccStatic, AccessKnown: true}, StaticThis: true, StaticTarget: true}
	clinitSub = &advice.Shadow{Kind: advice.StaticInitialization, Within: "app/Sub", Code: advice.Member{Owner: "app/Sub", Name: "<clinit>", Desc: "()V"}, Member: advice.Member{Owner: "app/Sub", Name: "<clinit>", Desc: "()V", Access: classfile.AccStatic, AccessKnown: true}, StaticThis: true, StaticTarget: true}
	preSub    = &advice.Shadow{Kind: advice.PreInitialization, Within: "app/Sub", Code: subInit, Member: subInit, StaticThis: true, StaticTarget: true}
	initSub   = &advice.Shadow{Kind: advice.Initialization, Within: "app/Sub", Code: subInit, Member: subInit}
	initIface = &advice.Shadow{Kind: advice.Initialization, Within: "app/Sub", Code: subInit, Member: advice.Member{Owner: "java/io/Serializable", Name: "<init>", Desc: "()V", Access: pub, AccessKnown: true}}
)

var kindShadows = map[string]*advice.Shadow{"catchIO": catchIO, "catchRT": catchRT, "clinitSub": clinitSub,
	"preSub": preSub, "initSub": initSub, "initIface": initIface, "callPut": callPut, "execMain": execMain}

// handler, staticinitialization, preinitialization and initialization,
// alone and with this, target, args, within and withincode.
func TestMatchKinds(t *testing.T) {
	checkMatchTable(t, kindShadows, []matchCase{
		{`handler(*)`, map[string]string{"catchIO": "always", "catchRT": "always"}},
		{`handler(java.io.IOException)`, nil},
		{`handler(java.io.IOException+)`, map[string]string{"catchIO": "always"}},
		{`handler(RuntimeException || java.io.*Exception)`, map[string]string{"catchIO": "always", "catchRT": "always"}},
		{`handler(*) && args(java.io.IOException)`, map[string]string{"catchIO": "always"}},
		{`handler(*) && args(Exception, ..)`, map[string]string{"catchIO": "always", "catchRT": "always"}},
		{`handler(*) && this(app.Main)`, map[string]string{"catchIO": "always"}}, // none in static code
		{`handler(*) && target(*)`, nil},                                         // a handler has no target
		{`handler(*) && within(app.Main)`, map[string]string{"catchRT": "always"}},
		{`handler(*) && withincode(* app.Sub.run(..))`, map[string]string{"catchIO": "always"}},
		{`staticinitialization(app.Sub)`, map[string]string{"clinitSub": "always"}},
		{`staticinitialization(app.Main+)`, map[string]string{"clinitSub": "always"}},
		{`staticinitialization(app.Main)`, nil},
		{`staticinitialization(*) && (this(*) || target(*) || args(*, ..))`, nil},
		{`staticinitialization(*) && args()`, map[string]string{"clinitSub": "always"}},
		{`staticinitialization(*) && withincode(* *(..))`, nil},
		{`preinitialization(app.Sub.new(..))`, map[string]string{"preSub": "always"}},
		{`preinitialization(app.Sub.new(String, int))`, map[string]string{"preSub": "always"}},
		{`preinitialization(app.Main+.new(*))`, nil},
		{`preinitialization(new(..)) && (this(*) || target(*))`, nil},
		{`preinitialization(new(..)) && args(String, ..)`, map[string]string{"preSub": "always"}},
		{`initialization(app.Sub.new(..))`, map[string]string{"initSub": "always"}},
		{`initialization(public new(..))`, map[string]string{"initSub": "always", "initIface": "always"}},
		{`initialization(java.io.Serializable.new())`, map[string]string{"initIface": "always"}},
		{`initialization(*.new(..)) && this(app.Main) && target(app.Sub)`, map[string]string{"initSub": "always", "initIface": "always"}},
		{`initialization(*.new(..)) && args(*, int)`, map[string]string{"initSub": "always"}},
		{`initialization(*.new(..)) && withincode(app.Sub.new(..))`, map[string]string{"initSub": "always", "initIface": "always"}},
		// the other designators never match these kinds, nor these designators theirs
		{`execution(* *(..)) || execution(new(..)) || call(* *(..)) || call(*.new(..))`, map[string]string{"callPut": "always", "execMain": "always"}},
		{`handler(*) || staticinitialization(*) || preinitialization(new(..)) || initialization(new(..))`,
			map[string]string{"catchIO": "always", "catchRT": "always", "clinitSub": "always", "preSub": "always", "initSub": "always", "initIface": "always"}},
	})
}

// Binding at the new kinds: the caught exception, the constructor's
// arguments, the new object; after advice never at a handler (as ajc).
func TestBindKinds(t *testing.T) {
	checkBindTable(t, []adviceCase{
		{`before(java.io.IOException e): handler(*) && args(e) { a.B.c(e); }`, catchIO, " | arg0:Ljava/io/IOException;"},
		{`before(java.io.FileNotFoundException e, app.Sub s): handler(*) && args(e) && this(s) { a.B.c(s, e); }`, catchIO,
			" | this:Lapp/Sub; arg0:Ljava/io/FileNotFoundException;"},
		{`before(app.Sub s): handler(*) && this(s) { a.B.c(s); }`, catchRT, ""},
		{`before(RuntimeException e): handler(*) && args(e) { a.B.c(e); }`, catchIO, ""},
		{`after(): handler(*) || execution(* *(..)) { a.B.c(); }`, catchIO, ""},
		{`after(): handler(*) || execution(* *(..)) { a.B.c(); }`, execMain, " | "},
		{`before(String s, int n): preinitialization(*.new(..)) && args(s, n) { a.B.c(n, s); }`, preSub, " | arg1:I arg0:Ljava/lang/String;"},
		{`before(app.Sub s, int n): initialization(*.new(..)) && target(s) && args(.., n) { a.B.c(s, n); }`, initSub, " | target:Lapp/Sub; arg1:I"},
		{`after(Object o) returning: initialization(*.new(..)) && this(o) { a.B.c(o); }`, initIface, " | this:Ljava/lang/Object;"},
		{`after() throwing(Throwable t): staticinitialization(*) { a.B.c(t, thisJoinPointStaticPart); }`, clinitSub,
			" | thrown:Ljava/lang/Throwable; thisJoinPointStaticPart:Lweft/rt/JoinPointStaticPart;"},
	})
}

// Each new designator's kinds, for a weaver skipping shadows.
func TestKindsOfNewDesignators(t *testing.T) {
	for _, tc := range []struct {
		pc   string
		want advice.KindSet
	}{
		{"handler(*)", 1 << advice.ExceptionHandler},
		{"staticinitialization(*)", 1 << advice.StaticInitialization},
		{"preinitialization(new(..)) && within(a..*)", 1 << advice.PreInitialization},
		{"initialization(new(..)) || execution(new(..))", 1<<advice.Initialization | 1<<advice.ConstructorExecution | 1<<advice.MethodExecution},
		{"handler(*) && staticinitialization(*)", 0},
	} {
		p := mustResolve(t, "aspect A {\nbefore(): "+tc.pc+" { a.B.c(); }\n}\n")
		if got := p.ShadowKinds(); got != tc.want {
			t.Errorf("%s: ShadowKinds = %012b, want %012b", tc.pc, got, tc.want)
		}
	}
	// after advice drops handlers (ajc runs only before advice there)
	p := mustResolve(t, "aspect A {\nafter(): handler(*) || staticinitialization(*) { a.B.c(); }\n}\n")
	if got := p.ShadowKinds(); got != 1<<advice.StaticInitialization {
		t.Errorf("after advice on handler || staticinitialization: ShadowKinds = %012b", got)
	}
}

// Errors of the new designators: each at its file:line:col, with a hint.
func TestKindErrors(t *testing.T) {
	checkErrorTable(t, "", []errorCase{
		{"before(): initialization(* app.Sub.run(..))", []string{"t.weft:2:26: initialization takes a constructor pattern, not a method pattern",
			"hint: write initialization(T.new(..)) with the constructor's declaring type T"}},
		{"before(): preinitialization(* *(..))", []string{"t.weft:2:29: preinitialization takes a constructor pattern"}},
		{"before(): initialization(int[].new(..))", []string{"t.weft:2:11: arrays have no constructor to initialize objects"}},
		{"before(): initialization(app.Sub)", []string{"t.weft:2:33: in initialization(...): unexpected token \")\"",
			"hint: a method pattern needs a parameter list"}},
		{"before(): handler(java.io.IOException e)", []string{"t.weft:2:39: in handler(...): unexpected token \"e\"",
			"hint: handler takes a type pattern, e.g. handler(java.io.IOException+)"}},
		{"before(): staticinitialization(app.Sub.new(..))", []string{"t.weft:2:43: in staticinitialization(...): unexpected token \"(\"",
			"hint: staticinitialization takes a type pattern"}},
		{"before(): staticinitialization(app.Sub+.x)", []string{"t.weft:2:32: unexpected `.x` after a type pattern"}},
		{"after(): handler(*) && within(app..*)", []string{"t.weft:2:1: after advice cannot apply at exception handler join points",
			"hint: at a handler only before advice runs (as in AspectJ): write before(...)"}},
		{"after() throwing: handler(Exception+)", []string{"t.weft:2:1: after advice cannot apply at exception handler join points"}},
		{"before(String s): handler(*) && args(s) && args(s)", []string{"formal s is bound twice"}},
		{"after(): handler(*) || call(* *(..))", nil}, // applies at calls
	})
}
