package weaver

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// After-throwing advice alone on an execution, run under -Xverify:all: the
// woven method's normal path is its original code (the token is taken in
// the handler); the advice sees the arguments as they were on entry, read
// in place when the body never assigns its parameters and from copies when
// it does; a woven method the advice calls, throwing inside it, runs
// bypassed (no advice, no recursion).
func TestAfterThrowingLate(t *testing.T) {
	aspect := `aspect T {
    after() throwing(Throwable e): execution(* app.Main.*(..)) { adv.A.thrown(joinPointId, e); }
    after() throwing(Throwable e): execution(* app.Main.*(..)) { adv.A.arg(eachArg); }
}`
	advice := `package adv;
public class A {
    public static void thrown(int id, Throwable e) {
        System.out.println("thrown " + e.getClass().getSimpleName() + " probe " + app.Main.probe());
    }
    public static void arg(int v) { System.out.println("  int " + v); }
    public static void arg(long v) { System.out.println("  long " + v); }
    public static void arg(double v) { System.out.println("  double " + v); }
    public static void arg(Object v) { System.out.println("  " + v); }
}
`
	main := `package app;
public class Main {
    static int div(int a, int b) { return a / b; }
    static long parse(String s, long k) { k += 5; s = s.trim(); return Long.parseLong(s) + k; }
    static int twice(int x) { return 2 * x; }
    public static String probe() {
        try { div(1, 0); return "no throw"; } catch (ArithmeticException e) { return "caught"; }
    }
    public static void main(String[] args) {
        System.out.println("twice " + twice(21));
        try { div(7, 0); } catch (ArithmeticException e) { System.out.println("main caught"); }
        try { parse(" x ", 3L); } catch (NumberFormatException e) { System.out.println("main caught"); }
    }
}
`
	dir, woven, _ := compileAndWeave(t, map[string]string{"adv/A.java": advice, "app/Main.java": main}, "t.weft", aspect, "app")
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", woven+string(filepath.ListSeparator)+dir, "app.Main")
	want := `twice 42
thrown ArithmeticException probe caught
  int 7
  int 0
main caught
thrown NumberFormatException probe caught
   x 
  long 3
main caught
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}

	// Each woven method starts with its original instructions; parse,
	// which assigns its parameters, after copying them.
	original := readClass(t, filepath.Join(dir, "app", "Main.class"))
	wovenClass := readClass(t, filepath.Join(woven, "app", "Main.class"))
	for name, copies := range map[string]int{"div": 0, "twice": 0, "parse": 4} {
		was, is := methodOps(t, original, name), methodOps(t, wovenClass, name)
		if len(is) < copies+len(was) || !slices.Equal(is[copies:copies+len(was)], was) {
			t.Errorf("%s: woven code %v does not start with %d copies and the original %v", name, is, copies, was)
		}
	}
}

// methodOps decodes the method of c named name and returns its opcodes.
func methodOps(t *testing.T, c *classfile.Class, name string) []uint16 {
	t.Helper()
	for i := range c.Methods {
		m := c.Methods[i]
		if c.MemberName(m) != name {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		var ops []uint16
		for _, in := range code.Insns {
			if in.Op < classfile.OpLabel {
				ops = append(ops, in.Op)
			}
		}
		return ops
	}
	t.Fatalf("no method %s in %s", name, c.Name())
	return nil
}

// A method whose body stores into slot 0 (as the JDK's generated
// SystemModules$all.moduleDescriptors does): advice reading `this` past
// entry reads a copy made at entry, so it gets the receiver and the woven
// method verifies (-Xverify:all).
func TestThisSlotReused(t *testing.T) {
	sources := runtimeSources()
	sources["adv/A.java"] = `package adv;
public class A {
    public static void left(Object self, Throwable t) { System.out.println("left " + self + " by " + t.getClass().getSimpleName()); }
}
`
	sources["app/Main.java"] = `package app;
public class Main {
    int work(String s) { return Integer.parseInt(s); }
    public String toString() { return "main"; }
    public static void main(String[] args) {
        try { new Main().work("x"); } catch (NumberFormatException e) { System.out.println("caught"); }
    }
}
`
	dir := jvmtest.Compile(t, sources, "-g")
	// work starts with: ldc "other"; astore_0.
	path := filepath.Join(dir, "app", "Main.class")
	c := readClass(t, path)
	m := c.FindMethod("work", "(Ljava/lang/String;)I")
	code, err := classfile.DecodeCode(c, m)
	if err != nil {
		t.Fatal(err)
	}
	code.Insns = append([]classfile.Insn{
		{Op: classfile.OpLdcW, Index: c.Pool.AddString("other")},
		{Op: classfile.OpAstore, Index: 0},
	}, code.Insns...)
	if err := code.Encode(c, m, classfile.EncodeOptions{Frames: true, Hierarchy: mustJDKHierarchy(t, dir)}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, c.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	aspect := `aspect T {
    after(Object self) throwing(Throwable t): execution(* app.Main.work(..)) && this(self) { adv.A.left(self, t); }
}`
	out := filepath.Join(t.TempDir(), "woven")
	if _, err := aspectWeaver(t, "t.weft", aspect, dir).WeavePath(filepath.Join(dir, "app"), filepath.Join(out, "app")); err != nil {
		t.Fatal(err)
	}
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+dir, "app.Main")
	if want := "left main by NumberFormatException\ncaught\n"; got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
