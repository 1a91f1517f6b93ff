package weaver

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// bytecodesMain's methods, each run as main calls them, with what each
// execution counts: by default blocks, then by precise ones. The counts
// are read off javac's code (javap -c): four is iload_0 iconst_1 iadd
// ireturn; loop(n) runs 4 + 3(n+1) + 6n + 2; an exception thrown by
// iaload at index 2 counts the whole block by default (caught: 4 + the
// handler's 3; uncaught: all 14 of the method) and the instructions up to
// the throwing one when precise (3 + 3; 6); a switch counts the load, the
// switch and its case's two; a synchronized block its 11 up to ireturn
// (precise: three blocks, split at monitorenter, the call and
// monitorexit); pick(true), a `new` starting its block and a conditional
// argument whose frames hold the uninitialized value, counts its 8 (new dup
// iload ifeq ldc goto invokespecial areturn); main counts 28 + 1 + 25, less
// the pop and goto after the call that throws when precise.
const bytecodesMain = `package app;
public class Main {
    int f;
    Main(int f) { this.f = f; }
    static int four(int x) { return x + 1; }
    static int loop(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
    static int caught(int[] a) { try { return a[3]; } catch (RuntimeException e) { return -1; } }
    static int uncaught(int[] a) { int x = 1; x += a[3]; x *= 2; return x; }
    static synchronized int locked(int x) { return x * 2; }
    static int table(int k) { switch (k) { case 0: return 10; case 1: return 11; case 2: return 12; default: return 0; } }
    static int lookup(int k) { switch (k) { case 1: return 1; case 1000: return 2; default: return 0; } }
    static int block(Object o) { synchronized (o) { return o.hashCode() & 0; } }
    static Object pick(boolean b) { return new StringBuilder(b ? "a" : "b"); }
    public static void main(String[] args) {
        new Main(1); four(1); loop(10); caught(new int[4]); caught(new int[1]);
        uncaught(new int[4]);
        try { uncaught(new int[1]); } catch (RuntimeException e) { }
        locked(1); table(1); table(7); lookup(1000); lookup(5); block("s");
        pick(true); big(3);
    }
    %s
}
`

var bytecodesWant = map[string][2]string{
	"<init>":   {"6", "6"},
	"four":     {"4", "4"},
	"loop":     {"99", "99"},
	"caught":   {"4 7", "4 6"},
	"uncaught": {"14 14", "14 6"},
	"locked":   {"4", "4"},
	"table":    {"4 4", "4 4"},
	"lookup":   {"4 4", "4 4"},
	"block":    {"11", "11"},
	"pick":     {"8", "8"},
	"main":     {"54", "52"},
	"big":      {"0", "0"}, // over 64 KB if counted: woven uncounted
}

// bigMethod is a method of about 40 KB that counting would take over the
// JVM's 64 KB limit: each if is two blocks.
func bigMethod() string {
	var b strings.Builder
	b.WriteString("static int big(int x) { int y = 0;\n")
	for k := 0; k < 4000; k++ {
		fmt.Fprintf(&b, "if (x == %d) y++;\n", k)
	}
	b.WriteString("return y; }")
	return b.String()
}

// After advice taking bytecodes or preciseBytecodes gets, at each exit of
// an execution, the instructions its body ran, as JP counts them, on the
// JVM with -Xverify:all, JDK 17's and 25's; a method that counting would take over 64 KB is
// woven uncounted (0), with a warning naming it.
func TestBytecodes(t *testing.T) {
	advice := `package adv;
public class A {
    public static void exit(weft.rt.JoinPointStaticPart jp, long n) { System.out.println(jp.getName() + " " + n); }
}
`
	sources := map[string]string{"adv/A.java": advice, "app/Main.java": fmt.Sprintf(bytecodesMain, bigMethod())}
	all := runtimeSources()
	for k, v := range sources {
		all[k] = v
	}
	dir := jvmtest.Compile(t, all, "-g")
	for mode, value := range []string{"bytecodes", "preciseBytecodes"} {
		t.Run(value, func(t *testing.T) {
			aspect := `aspect T {
    after(): execution(* app.Main.*(..)) || execution(app.Main.new(..)) { adv.A.exit(thisJoinPointStaticPart, ` + value + `); }
}`
			out := filepath.Join(t.TempDir(), "woven")
			st, err := aspectWeaver(t, "t.weft", aspect, dir).WeavePath(filepath.Join(dir, "app"), filepath.Join(out, "app"))
			if err != nil {
				t.Fatal(err)
			}
			wantWarning := "Main.class: app/Main.big(I)I: bytecodes not counted: counting its bytecodes would take it over the 64 KB limit"
			if !slices.Equal(st.Warnings, []string{wantWarning}) {
				t.Errorf("warnings %q, want %q", st.Warnings, wantWarning)
			}
			cp := out + string(filepath.ListSeparator) + dir
			stdout, _ := jvmtest.Run(t, "-Xverify:all", "-cp", cp, "app.Main")
			checkBytecodes(t, stdout, mode)
			t.Run("JDK 25", func(t *testing.T) {
				b, err := exec.Command(filepath.Join(jvmtest.JDK25(t), "bin", "java"), "-Xverify:all", "-cp", cp, "app.Main").Output()
				if err != nil {
					t.Fatalf("JDK 25: %v", err)
				}
				checkBytecodes(t, string(b), mode)
			})
		})
	}
}

// checkBytecodes checks the lines "method count" the advice printed
// against bytecodesWant's counts of mode (0 default, 1 precise).
func checkBytecodes(t *testing.T, stdout string, mode int) {
	t.Helper()
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		name, n, _ := strings.Cut(line, " ")
		got[name] = strings.TrimSpace(got[name] + " " + n)
	}
	for name, want := range bytecodesWant {
		if got[name] != want[mode] {
			t.Errorf("%s: counted %q, want %q", name, got[name], want[mode])
		}
	}
	if len(got) != len(bytecodesWant) {
		t.Errorf("executions %v, want those of %v", got, bytecodesWant)
	}
}

// Around advice at an execution moves its body into the join point
// method: after advice inside the around (of lower precedence: declared
// before it in one aspect) counts there; after advice outside it gets 0,
// with a warning naming the method.
func TestBytecodesAround(t *testing.T) {
	advice := `package adv;
public class A {
    public static void exit(weft.rt.JoinPointStaticPart jp, long n) { System.out.println(jp.getName() + " " + n); }
    public static Object once(weft.rt.Proceed p) throws Throwable { return p.proceed(); }
}
`
	main := `package app;
public class Main {
    static int four(int x) { return x + 1; }
    public static void main(String[] args) { four(1); }
}
`
	after := `    after(): execution(* app.Main.four(..)) { adv.A.exit(thisJoinPointStaticPart, bytecodes); }
`
	around := `    Object around(): execution(* app.Main.four(..)) { adv.A.once(proceed); }
`
	all := runtimeSources()
	all["adv/A.java"], all["app/Main.java"] = advice, main
	dir := jvmtest.Compile(t, all, "-g")
	for _, c := range []struct {
		name, aspect, out string
		warnings          []string
	}{
		{"inside", after + around, "four 4\n", nil},
		{"outside", around + after, "four 0\n",
			[]string{"Main.class: app/Main.four(I)I: bytecodes not counted: around advice at its execution holds its body"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "woven")
			st, err := aspectWeaver(t, "t.weft", "aspect T {\n"+c.aspect+"}\n", dir).WeavePath(filepath.Join(dir, "app"), filepath.Join(out, "app"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(st.Warnings, c.warnings) {
				t.Errorf("warnings %q, want %q", st.Warnings, c.warnings)
			}
			if stdout, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+dir, "app.Main"); stdout != c.out {
				t.Errorf("output %q, want %q", stdout, c.out)
			}
		})
	}
}
