package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Field shadows as the weaver makes them: the member is the field's
// declaration (app/Main.x even when reached through an app/Sub reference).
var (
	subRun    = advice.Member{Owner: "app/Sub", Name: "run", Desc: "(I)V"}
	mainInit  = advice.Member{Owner: "app/Main", Name: "<init>", Desc: "()V"}
	getX      = &advice.Shadow{Kind: advice.FieldGet, Within: "app/Sub", Code: subRun, Member: advice.Member{Owner: "app/Main", Name: "x", Desc: "I", Access: pub, AccessKnown: true}}
	setSx     = &advice.Shadow{Kind: advice.FieldSet, Within: "app/Main", Code: mainM, StaticThis: true, StaticTarget: true, Member: advice.Member{Owner: "app/Main", Name: "sx", Desc: "I", Access: pub | classfile.AccStatic, AccessKnown: true}}
	getMap    = &advice.Shadow{Kind: advice.FieldGet, Within: "app/Main$Inner", Code: advice.Member{Owner: "app/Main$Inner", Name: "go", Desc: "()V"}, Member: advice.Member{Owner: "app/Main", Name: "m", Desc: "Ljava/util/HashMap;", Access: classfile.AccPrivate | classfile.AccFinal, AccessKnown: true}}
	setL      = &advice.Shadow{Kind: advice.FieldSet, Within: "app/Sub", Code: subRun, Member: advice.Member{Owner: "app/Sub", Name: "l", Desc: "J", Access: classfile.AccProtected | classfile.AccVolatile, AccessKnown: true}}
	setY      = &advice.Shadow{Kind: advice.FieldSet, Within: "app/Main", Code: mainInit, Member: advice.Member{Owner: "app/Main", Name: "y", Desc: "I", AccessKnown: true}}
	getUnkown = &advice.Shadow{Kind: advice.FieldGet, Within: "app/Main", Code: mainM, StaticThis: true, StaticTarget: true, Member: advice.Member{Owner: "lib/Gone", Name: "G", Desc: "Ljava/lang/String;"}}
)

var fieldShadows = map[string]*advice.Shadow{"getX": getX, "setSx": setSx, "getMap": getMap, "setL": setL, "setY": setY,
	"getUnknown": getUnkown, "callPut": callPut, "execMain": execMain}

// get and set, alone and with the other designators, at field shadows
// (and at two others, which they never match).
func TestMatchFields(t *testing.T) {
	checkMatchTable(t, fieldShadows, []matchCase{
		{`get(* *)`, map[string]string{"getX": "always", "getMap": "always", "getUnknown": "always"}},
		{`set(* *)`, map[string]string{"setSx": "always", "setL": "always", "setY": "always"}},
		// one signature: the declaring type's (ajc: get(int app.Sub.x) never matches Main.x)
		{`get(int app.Main.x)`, map[string]string{"getX": "always"}},
		{`get(int app.Sub.x)`, nil},
		{`get(int app.Main+.x)`, map[string]string{"getX": "always"}},
		{`set(* app.Main+.*)`, map[string]string{"setSx": "always", "setL": "always", "setY": "always"}},
		{`set(* app.Sub+.*)`, map[string]string{"setL": "always"}},
		{`get(* (app.Sub || lib.*).*)`, map[string]string{"getUnknown": "always"}},
		{`get(* app..*.x)`, map[string]string{"getX": "always"}},
		{`get(* x)`, map[string]string{"getX": "always"}},
		{`set(* s*)`, map[string]string{"setSx": "always"}},
		// the field's type
		{`get(int *)`, map[string]string{"getX": "always"}},
		{`set(long *)`, map[string]string{"setL": "always"}},
		{`get(java.util.Map+ *)`, map[string]string{"getMap": "always"}},
		{`get(java.util.Map *)`, nil},
		{`get(String *)`, map[string]string{"getUnknown": "always"}},
		{`get(!int *)`, map[string]string{"getMap": "always", "getUnknown": "always"}},
		// modifiers; unknown ones match no modifier pattern
		{`get(private * *)`, map[string]string{"getMap": "always"}},
		{`get(!final * *)`, map[string]string{"getX": "always"}},
		{`set(static * *)`, map[string]string{"setSx": "always"}},
		{`set(!static * *)`, map[string]string{"setL": "always", "setY": "always"}},
		{`set(protected volatile * *)`, map[string]string{"setL": "always"}},
		{`set(transient * *)`, nil},
		{`get(!public * *)`, map[string]string{"getMap": "always"}},
		// within, withincode
		{`get(* *) && within(app.Main)`, map[string]string{"getMap": "always", "getUnknown": "always"}},
		{`set(* *) && withincode(app.Main.new())`, map[string]string{"setY": "always"}},
		{`(get(* *) || set(* *)) && withincode(* app.Sub.run(..))`, map[string]string{"getX": "always", "setL": "always"}},
		// target: the object whose field it is, typed by the declaring class; none for a static field
		{`get(* *) && target(app.Main)`, map[string]string{"getX": "always", "getMap": "always"}},
		{`get(* *) && target(app.Sub)`, map[string]string{"getX": "maybe target instanceof app/Sub", "getMap": "maybe target instanceof app/Sub"}},
		{`set(* *) && target(*)`, map[string]string{"setL": "always", "setY": "always"}},
		{`set(* *) && target(String)`, nil},
		// this: the executing object
		{`set(* *) && this(app.Main)`, map[string]string{"setL": "always", "setY": "always"}},
		{`get(* *) && this(*)`, map[string]string{"getX": "always", "getMap": "always"}},
		// args: none at a get, the new value at a set
		{`get(* *) && args()`, map[string]string{"getX": "always", "getMap": "always", "getUnknown": "always"}},
		{`get(* *) && args(..)`, map[string]string{"getX": "always", "getMap": "always", "getUnknown": "always"}},
		{`args(*) && (get(* *) || set(* *))`, map[string]string{"setSx": "always", "setL": "always", "setY": "always"}},
		{`set(* *) && args(int)`, map[string]string{"setSx": "always", "setY": "always"}},
		{`set(* *) && args(long)`, map[string]string{"setSx": "always", "setL": "always", "setY": "always"}},
		{`set(* *) && args(Object)`, map[string]string{"setSx": "always", "setL": "always", "setY": "always"}},
		{`set(* *) && args(Integer)`, map[string]string{"setSx": "always", "setY": "always"}},
		{`set(* *) && args(String)`, nil},
		// call and execution never match a field access; get never a set
		{`call(* *(..)) && get(* *)`, nil},
		{`get(* x) || set(* x)`, map[string]string{"getX": "always"}},
	})
}

// args binds a set's new value, target the object, after returning a
// get's value.
func TestBindFields(t *testing.T) {
	checkBindTable(t, []adviceCase{
		{`before(int v, app.Main o): set(* *) && args(v) && target(o) { a.B.c(o, v); }`, setY, " | target:Lapp/Main; arg0:I"},
		{`before(long v): set(* *) && args(v) { a.B.c(v); }`, setSx, " | arg0:J"},
		{`before(Object v): set(* *) && args(v) { a.B.c(v, thisJoinPointStaticPart); }`, setL, " | arg0:Ljava/lang/Object; thisJoinPointStaticPart:Lweft/rt/JoinPointStaticPart;"},
		{`before(app.Sub s): get(* *) && target(s) { a.B.c(s); }`, getX, "target instanceof app/Sub | target:Lapp/Sub;"},
		{`before(app.Main m): get(* *) && this(m) { a.B.c(m); }`, getX, " | this:Lapp/Main;"},
		{`after() returning(int v): get(* *) { a.B.c(v); }`, getX, " | returned:I"},
		{`after() returning(Object v): get(* *) { a.B.c(v); }`, getMap, " | returned:Ljava/lang/Object;"},
		{`after() throwing(Throwable e): get(* *) { a.B.c(e); }`, getX, " | thrown:Ljava/lang/Throwable;"},
	})
}

// A get returns the field's value; a set returns nothing, and ajc never
// matches after returning(T x) there (not even with Object, unlike a void
// method).
func TestFieldExitChecks(t *testing.T) {
	checkExitTable(t, []adviceCase{
		{`after() returning(int v): get(* *)`, getX, "always"},
		{`after() returning(long v): get(* *)`, getX, "always"},
		{`after() returning(Integer v): get(* *)`, getX, "always"},
		{`after() returning(String v): get(* *)`, getX, ""},
		{`after() returning(int v): get(* *)`, getMap, ""},
		{`after() returning(java.util.Map m): get(* *)`, getMap, "always"},
		{`after() returning(java.util.LinkedHashMap m): get(* *)`, getMap, "java/util/LinkedHashMap"},
		{`after() returning(Object o): set(* *)`, setY, ""},
		{`after() returning(int o): set(* *)`, setY, ""},
		{`after() returning: set(* *)`, setY, "always"},
		{`after(): set(* *)`, setY, "always"},
		{`after() throwing(NullPointerException e): set(* *)`, setY, "java/lang/NullPointerException"},
	})
}

// Malformed field patterns: each error at its file:line:col, with a hint.
func TestFieldPatternErrors(t *testing.T) {
	checkErrorTable(t, "before(): ", []errorCase{
		{`get(int)`, []string{"t.weft:2:18: in get(...): unexpected token \")\" (expected the field's [DeclaringType.]name)",
			"hint: a field pattern is [modifiers] Type [DeclaringType.]name, e.g. get(int com.example.Point.x) or set(* *)"}},
		{`set(app.Point.x)`, []string{"t.weft:2:26: in set(...): unexpected token \")\"", "hint: a field pattern is [modifiers] Type"}},
		{`get(* *(..))`, []string{"t.weft:2:18: in get(...): unexpected token \"(\"",
			"hint: a field pattern has no parameter list: get and set select fields, call and execution methods"}},
		{`get(int x, int y)`, []string{"t.weft:2:20: in get(...): unexpected token \",\"", "hint: field patterns are"}},
		{`set(synchronized * *)`, []string{"t.weft:2:15: synchronized is not a field modifier",
			"hint: field modifiers are public, protected, private, static, final, transient, volatile"}},
		{`call(volatile * *(..))`, []string{"t.weft:2:16: volatile is a field modifier: a method or constructor pattern cannot use it"}},
		{`get(* java..x)`, []string{"t.weft:2:17: `..` cannot stand right before the member name",
			"hint: write pkg..*.x for any type in pkg and its subpackages"}},
		{`get(* app.A.new)`, []string{"t.weft:2:17: `new` names a constructor, not a field"}},
		{`set(* app.A+)`, []string{"t.weft:2:17: expected `.name` after the declaring type pattern", "hint: write DeclaringType+.name\n"}},
		{`get(* app.A+.x...)`, []string{"t.weft:2:17: unexpected `...` in a declaring type"}},
		{`get(int... *)`, []string{"t.weft:2:15: `...` is allowed only on the last parameter"}},
		{`get(Point *)`, nil}, // a warning only (unqualified type)
	})
}
