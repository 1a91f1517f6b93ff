package classfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// These tests edit javac-compiled methods through the code model, as the
// weaver does, re-encode them with frames recomputed and run the result on
// the JVM with -Xverify:all.

const editProgramJava = `
public class Main {
    int f;
    Main(int f) { this.f = f; }
    static int far(int x) { if (x > 0) return 1; return 2; }
    static int loop(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
    static String risky(int x) { if (x < 0) throw new IllegalArgumentException("neg"); return "ok" + x; }
    long twice(long v) { return v * 2 + f; }
    public static void main(String[] args) {
        System.out.println(far(1) + " " + far(-1));
        System.out.println(loop(10));
        System.out.println(risky(3));
        try { risky(-1); } catch (IllegalArgumentException e) { System.out.println("caught " + e.getMessage()); }
        System.out.println(new Main(5).twice(4));
    }
}
`

// printInsns prints msg on System.out.
func printInsns(p *Pool, msg string) []Insn {
	return []Insn{
		{Op: OpGetstatic, Index: p.AddFieldref("java/lang/System", "out", "Ljava/io/PrintStream;")},
		{Op: OpLdc, Index: p.AddString(msg)},
		{Op: OpInvokevirtual, Index: p.AddMethodref("java/io/PrintStream", "println", "(Ljava/lang/String;)V", false)},
	}
}

// editClass decodes every method of dir/name.class, applies edit to it,
// re-encodes it with frames and writes the class back.
func editClass(t *testing.T, dir, name string, edit func(c *Class, m *Member, code *Code)) {
	t.Helper()
	path := filepath.Join(dir, name+".class")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	jdk, err := OpenTestJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer jdk.Close()
	h := NewTestHierarchy(OpenTestDir(dir), jdk)
	for _, m := range c.Methods {
		code, err := DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		if code == nil {
			continue
		}
		edit(c, m, code)
		if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: h}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, c.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func isReturn(op uint16) bool { return op >= OpIreturn && op <= OpReturn }

// guardedPrintInsns is printInsns behind a branch that is never taken at
// run time (iconst_0; ifeq skip): the verifier still checks both paths, and
// the join point after it needs a frame with whatever is on the stack.
func guardedPrintInsns(p *Pool, msg string) []Insn {
	skip := NewLabel()
	insns := []Insn{{Op: OpIconst0}, {Op: OpIfeq, Label: skip}}
	insns = append(insns, printInsns(p, msg)...)
	return append(insns, Insn{Op: OpLabel, Label: skip})
}

// addEntryExit prints "> name" at entry and "< name" before every return.
func addEntryExit(c *Class, m *Member, code *Code) { addEntryExitWith(c, m, code, printInsns) }

func addEntryExitWith(c *Class, m *Member, code *Code, print func(*Pool, string) []Insn) {
	name := c.MemberName(m)
	insns := append([]Insn(nil), print(c.Pool, "> "+name)...)
	for _, in := range code.Insns {
		if isReturn(in.Op) {
			insns = append(insns, print(c.Pool, "< "+name)...)
		}
		insns = append(insns, in)
	}
	code.Insns = insns
}

// addCatchAll wraps the body of a method other than a constructor in a
// catch-all handler that prints "! name" and rethrows.
func addCatchAll(c *Class, m *Member, code *Code) { addCatchAllWith(c, m, code, printInsns) }

func addCatchAllWith(c *Class, m *Member, code *Code, print func(*Pool, string) []Insn) {
	name := c.MemberName(m)
	if name == "<init>" || name == "<clinit>" {
		return
	}
	start, end, handler := NewLabel(), NewLabel(), NewLabel()
	insns := append([]Insn{{Op: OpLabel, Label: start}}, code.Insns...)
	insns = append(insns, Insn{Op: OpLabel, Label: end}, Insn{Op: OpLabel, Label: handler})
	insns = append(insns, print(c.Pool, "! "+name)...)
	code.Insns = append(insns, Insn{Op: OpAthrow})
	code.Handlers = append(code.Handlers, Handler{Start: start, End: end, Handler: handler})
}

// addFiller puts 36,000 bytes of iconst_0/pop after the first conditional
// branch of far and loop, so that their branches need goto_w.
func addFiller(c *Class, m *Member, code *Code) {
	if name := c.MemberName(m); name != "far" && name != "loop" {
		return
	}
	for i, in := range code.Insns {
		if isJump(in.Op) && in.Op != OpGoto {
			filler := make([]Insn, 0, 36000)
			for len(filler) < 36000 {
				filler = append(filler, Insn{Op: OpIconst0}, Insn{Op: OpPop})
			}
			code.Insns = append(code.Insns[:i+1], append(filler, code.Insns[i+1:]...)...)
			return
		}
	}
}

const editWant = `> main
> far
< far
> far
< far
1 2
> loop
< loop
45
> risky
< risky
ok3
> risky
! risky
caught neg
> <init>
< <init>
> twice
< twice
13
< main
`

func TestEditEntryExitCatchAllGotoW(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{"Main.java": editProgramJava})
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "Main")
	farGoto := 0
	editClass(t, dir, "Main", func(c *Class, m *Member, code *Code) {
		addEntryExit(c, m, code)
		addCatchAll(c, m, code)
		addFiller(c, m, code)
	})
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "Main")
	if got != editWant {
		t.Errorf("edited program printed:\n%s\nwant:\n%s\n(unedited: %s)", got, editWant, want)
	}

	// The branches of far and loop were rewritten to goto_w: decoding the
	// class again shows gotos spanning more than 32 KB.
	data, err := os.ReadFile(filepath.Join(dir, "Main.class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("Main", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"far", "loop"} {
		m := c.FindMethod(name, "(I)I")
		code, err := DecodeCode(c, m)
		if err != nil {
			t.Fatal(err)
		}
		// Walk the instructions with their true offsets (checked at every
		// label): a goto out of 16-bit reach was encoded as goto_w.
		long := false
		off := 0
		for _, in := range code.Insns {
			if in.Op == OpLabel {
				if in.Label.Offset != off {
					t.Fatalf("%s: offset walk out of step: label at %d, walk at %d", name, in.Label.Offset, off)
				}
				continue
			}
			d := 0
			if in.Label != nil {
				d = in.Label.Offset - off
			}
			far := d > 32767 || d < -32768
			if far && in.Op != OpGoto {
				t.Errorf("%s: %s spans %d bytes", name, OpNames[in.Op], d)
			}
			long = long || far
			off += insnSize(&in, off, far)
		}
		if !long {
			t.Errorf("%s: no goto_w after inserting 36 KB", name)
		} else {
			farGoto++
		}
	}
	if farGoto != 2 {
		t.Errorf("%d of far and loop use goto_w", farGoto)
	}
}

// TestEditConstructorsAndSynchronized inserts the entry print into
// constructors, before the super(...) call whose arguments themselves
// create objects (the inserted code runs while `this` is uninitialized),
// and wraps a synchronized block, whose own handlers come first.
func TestEditConstructorsAndSynchronized(t *testing.T) {
	const src = `
import java.util.*;
public class Main {
    static class Base { final String s; Base(Object o, String t) { s = o + t; } }
    static class Sub extends Base {
        Sub(int x) { super(x > 1 ? new ArrayList<>(List.of(x)) : new StringBuilder("sb" + x), x > 0 ? "pos" : "neg"); }
    }
    private final Object lock = new Object();
    int n;
    int bump(int by) {
        synchronized (lock) {
            if (by < 0) throw new IllegalArgumentException("neg");
            n += by;
            return n;
        }
    }
    public static void main(String[] args) {
        System.out.println(new Sub(2).s + " " + new Sub(0).s);
        Main m = new Main();
        System.out.println(m.bump(3));
        try { m.bump(-1); } catch (IllegalArgumentException e) { System.out.println("caught " + e.getMessage()); }
        System.out.println(m.bump(4));
    }
}
`
	dir := jvmtest.Compile(t, map[string]string{"Main.java": src})
	for _, name := range []string{"Main", "Main$Base", "Main$Sub"} {
		editClass(t, dir, name, func(c *Class, m *Member, code *Code) {
			addEntryExit(c, m, code)
			addCatchAll(c, m, code)
		})
	}
	got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "Main")
	want := strings.Join([]string{
		"> main",
		"> <init>", "> <init>", "< <init>", "< <init>",
		"> <init>", "> <init>", "< <init>", "< <init>",
		"[2]pos sb0neg",
		"> <init>", "< <init>",
		"> bump", "< bump", "3",
		"> bump", "! bump", "caught neg",
		"> bump", "< bump", "7",
		"< main", "",
	}, "\n")
	if got != want {
		t.Errorf("edited program printed:\n%s\nwant:\n%s", got, want)
	}
}
