package weaver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
)

// eachArg woven into an application and run under -Xverify:all: one advice
// call per argument, in order, each to the overload taking its type or the
// nearest primitive it widens to (byte, short and char to int, float to
// double), else to the Object one (boolean, references); none where the
// join point has no argument; an execution's arguments as they were on
// entry in after advice; a call's arguments, a constructor's, a field
// set's new value. The helpers box nothing an overload takes.
func TestEachArgRun(t *testing.T) {
	aspect := `aspect E {
    before(): execution(* app.Main.*(..)) || execution(app.Main.new(..)) { adv.A.arg(joinPointId, eachArg); }
    after() returning: execution(* app.Main.reset(..)) { adv.A.after(eachArg); }
    before(): call(* app.Main.wide(..)) { adv.A.call(eachArg); }
    before(): set(int app.Main.n) { adv.A.call(eachArg); }
}`
	advice := `package adv;
public class A {
    public static void arg(int id, int v) { System.out.println("int " + v); }
    public static void arg(int id, long v) { System.out.println("long " + v); }
    public static void arg(int id, double v) { System.out.println("double " + v); }
    public static void arg(int id, Object v) { System.out.println("Object " + (v == null ? "null" : v.getClass().getSimpleName() + " " + (v instanceof Object[] ? ((Object[]) v).length : v))); }
    public static void arg(long id, int v) { throw new AssertionError("not an overload of arg(int, Object)"); }
    public static void after(Object v) { System.out.println("after " + v); }
    public static void after(long v) { System.out.println("after long " + v); }
    public static void call(int v) { System.out.println("call int " + v); }
    public static void call(Object v) { System.out.println("call " + v); }
}
`
	main := `package app;
public class Main {
    int n;
    Main(int n) { this.n = n; }
    static void wide(byte b, short s, char c, int i, long l, float f, double d, boolean z, String str, int[] a) {}
    static int none() { return 1; }
    void reset(long v, String why) { v = 0; why = "changed"; }
    public static void main(String[] args) {
        wide((byte) 1, (short) 2, 'c', 4, 5L, 6.5f, 7.25, true, "s", null);
        none();
        new Main(9).reset(10, "why");
    }
}
`
	out, dir := weaveAspect(t, map[string]string{"adv/A.java": advice, "app/Main.java": main}, aspect, "app.Main")
	want := `Object String[] 0
call int 1
call int 2
call int 99
call int 4
call 5
call 6.5
call 7.25
call true
call s
call null
int 1
int 2
int 99
int 4
long 5
double 6.5
double 7.25
Object Boolean true
Object String s
Object null
int 9
call int 9
long 10
Object String why
after long 10
after why
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}

	// No boxing but of the booleans and, at the call, whose advice has int
	// and Object overloads only, the long, float and double.
	c := readClass(t, filepath.Join(dir, "app", "Main"+SisterSuffix+".class"))
	var boxed []string
	for _, m := range c.Methods {
		code, err := classfile.DecodeCode(c, m)
		if err != nil || code == nil {
			t.Fatal(err)
		}
		for _, in := range code.Insns {
			if in.Op == classfile.OpInvokestatic {
				if owner, name, _ := c.Pool.MemberRef(in.Index); name == "valueOf" {
					boxed = append(boxed, owner)
				}
			}
		}
	}
	if got := strings.Join(boxed, " "); got != "java/lang/Boolean java/lang/Long java/lang/Float java/lang/Double java/lang/Boolean" {
		t.Errorf("the helpers box %s; want a Boolean each, and the call's Long, Float and Double", got)
	}
}
