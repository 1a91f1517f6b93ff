package classfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// linkAllJava loads and links (which verifies) every class named in a file,
// without initializing it: getDeclaredMethods links the class. It prints
// one line per class that fails and a summary.
const linkAllJava = `
import java.nio.file.*;

public class LinkAll {
    public static void main(String[] args) throws Exception {
        int linked = 0, verifyErrors = 0;
        for (String n : Files.readAllLines(Path.of(args[0]))) {
            try {
                Class.forName(n, false, null).getDeclaredMethods();
                linked++;
            } catch (VerifyError e) {
                verifyErrors++;
                System.out.println("VERIFY " + n + ": " + e.getMessage());
            } catch (Throwable e) {
                System.out.println("OTHER " + n + ": " + e);
            }
        }
        System.out.println("linked " + linked + ", verify errors " + verifyErrors);
    }
}
`

// TestFramesJavaBaseVerifies edits every method of java.base as a weaver
// would — guarded prints at every entry and before every return (join
// points with the return value on the stack, code before super() in
// constructors) and a catch-all handler around every body but
// constructors' — recomputes the frames, then puts a guard-like prologue
// before each re-framed body with PrependCode (which keeps the body's
// frames), writes the classes into a directory patched over java.base,
// and has the JVM link (and so verify, with -Xverify:all) every class. The output must match that of the
// unmodified JDK: same classes linked, no VerifyError. (Frames recomputed
// without edits are verified for every module by e2e's
// TestRewriteJDKVerifies.)
func TestFramesJavaBaseVerifies(t *testing.T) {
	prog := jvmtest.Compile(t, map[string]string{"LinkAll.java": linkAllJava})
	javaBaseVerifies(t, prog)
}

func javaBaseVerifies(t *testing.T, prog string) {
	home := jvmtest.JavaHome(t)
	base, h := openJavaBase(t, home)
	patch := t.TempDir()
	var names []string
	methods, prepended := 0, 0
	err := base.Walk(func(e TestEntry) error {
		if strings.HasSuffix(e.Path, "module-info.class") {
			return nil
		}
		c, err := parseEntry(e)
		if err != nil {
			return err
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil {
				return err
			}
			if code == nil {
				continue
			}
			// An empty finalize() must stay empty (HotSpot then skips
			// finalizer registration; see docs/jdk.md).
			if c.MemberName(m) != "finalize" {
				addEntryExitWith(c, m, code, guardedPrintInsns)
				addCatchAllWith(c, m, code, guardedPrintInsns)
			}
			if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: h}); err != nil {
				t.Errorf("%s: %v", e.Path, err)
				continue
			}
			methods++
			// And a prologue before the re-framed body, kept as it is.
			if c.MemberName(m) != "finalize" {
				ok, _, _, err := prependToken(c, m, h)
				if err != nil {
					t.Errorf("%s: %v", e.Path, err)
				}
				if ok {
					prepended++
				}
			}
		}
		p := filepath.Join(patch, filepath.FromSlash(e.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		names = append(names, strings.ReplaceAll(strings.TrimSuffix(e.Path, ".class"), "/", "."))
		return os.WriteFile(p, c.Bytes(), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	list := filepath.Join(t.TempDir(), "classes.txt")
	if err := os.WriteFile(list, []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", prog, "LinkAll", list)
	got, _ := jvmtest.Run(t, "--patch-module", "java.base="+patch, "-Xverify:all", "-cp", prog, "LinkAll", list)
	t.Logf("%d classes, %d methods re-framed, %d with a prologue before (PrependCode); unmodified: %s",
		len(names), methods, prepended, lastLine(want))
	canary(t, base, prog)
	if got != want {
		wantLines := map[string]bool{}
		for _, l := range strings.Split(want, "\n") {
			wantLines[l] = true
		}
		n := 0
		for _, l := range strings.Split(got, "\n") {
			if !wantLines[l] {
				if n++; n <= 30 {
					t.Errorf("%s", l)
				}
			}
		}
		t.Errorf("%d lines differ from the unmodified JDK's; recomputed: %s", n, lastLine(got))
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// canary checks that the check above can fail: a java.base class whose
// frames are dropped, patched in the same way, must fail verification.
func canary(t *testing.T, base TestSource, prog string) {
	const name = "java/util/concurrent/Exchanger"
	data, err := base.Class(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Methods {
		code, err := DecodeCode(c, m)
		if err != nil || code == nil {
			continue
		}
		code.Frames = nil
		if err := code.Encode(c, m, EncodeOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	patch := t.TempDir()
	p := filepath.Join(patch, name+".class")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, c.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(patch, "list.txt")
	os.WriteFile(list, []byte("java.util.concurrent.Exchanger\n"), 0o644)
	out, _ := jvmtest.Run(t, "--patch-module", "java.base="+patch, "-Xverify:all", "-cp", prog, "LinkAll", list)
	if !strings.Contains(out, "VERIFY java.util.concurrent.Exchanger") {
		t.Errorf("canary: Exchanger without frames was not rejected:\n%s", out)
	}
}

// Unit tests on hand-built code.

// mapHierarchy is a Hierarchy over a fixed set of classes.
type mapHierarchy map[string]*ClassInfo

func (h mapHierarchy) Lookup(name string) (*ClassInfo, error) {
	if ci, ok := h[name]; ok {
		return ci, nil
	}
	return nil, fmt.Errorf("%s: %w", name, ErrClassNotFound)
}

// testHierarchy: A and its subclasses B, C; D extends B; I is an
// interface; Integer extends Number; Orphan's superclass is unknown.
var testHierarchy = mapHierarchy{
	"java/lang/Object":    {Name: "java/lang/Object"},
	"java/lang/String":    {Name: "java/lang/String", Super: "java/lang/Object"},
	"java/lang/Number":    {Name: "java/lang/Number", Super: "java/lang/Object"},
	"java/lang/Integer":   {Name: "java/lang/Integer", Super: "java/lang/Number"},
	"java/lang/Throwable": {Name: "java/lang/Throwable", Super: "java/lang/Object"},
	"A":                   {Name: "A", Super: "java/lang/Object"},
	"B":                   {Name: "B", Super: "A"},
	"C":                   {Name: "C", Super: "A"},
	"D":                   {Name: "D", Super: "B"},
	"I":                   {Name: "I", Super: "java/lang/Object", Access: AccInterface | AccAbstract},
	"Orphan":              {Name: "Orphan", Super: "Missing"}, // Missing is unknown
}

func newTestClass(name, super string, major uint16) *Class {
	p := NewPool()
	return &Class{Major: major, Pool: p, Access: AccPublic | AccSuper, This: p.AddClass(name), Super: p.AddClass(super)}
}

// encodeTest encodes insns as method name+desc of c with frames computed
// and returns the code.
func encodeTest(t *testing.T, c *Class, access uint16, name, desc string, insns []Insn, handlers ...Handler) *Code {
	t.Helper()
	m := &Member{Access: access, Name: c.Pool.AddUtf8(name), Desc: c.Pool.AddUtf8(desc)}
	c.Methods = append(c.Methods, m)
	code := &Code{Insns: insns, Handlers: handlers}
	if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy}); err != nil {
		t.Fatal(err)
	}
	return code
}

func lbl(l *Label) Insn            { return Insn{Op: OpLabel, Label: l} }
func jmp(op uint16, l *Label) Insn { return Insn{Op: op, Label: l} }
func op(o uint16) Insn             { return Insn{Op: o} }
func idx(o uint16, i uint16) Insn  { return Insn{Op: o, Index: i} }
func vtString(t VType) string {
	switch t.Kind {
	case VObject:
		return t.Class
	case VUninitialized:
		return fmt.Sprintf("uninit@%d", t.New.Offset)
	}
	return [...]string{"T", "I", "F", "D", "J", "null", "uninitThis"}[t.Kind]
}

// frameAt formats the frame at label l: "[locals] [stack]".
func frameAt(t *testing.T, code *Code, l *Label) string {
	t.Helper()
	for _, f := range code.Frames {
		if f.At.Offset == l.Offset {
			var ls, ss []string
			for _, v := range f.Locals {
				ls = append(ls, vtString(v))
			}
			for _, v := range f.Stack {
				ss = append(ss, vtString(v))
			}
			return "[" + strings.Join(ls, " ") + "] [" + strings.Join(ss, " ") + "]"
		}
	}
	t.Fatalf("no frame at offset %d; frames: %+v", l.Offset, code.Frames)
	return ""
}

func TestFramesMergeRules(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	a := &analyzer{nameIdx: map[string]uint32{}, merged: map[uint64]vtype{}, unknowns: map[uint64]*UnknownTypeError{}}
	a.setClass(c, testHierarchy)
	a.frames = true
	for _, tc := range []struct{ x, y, want string }{
		{"B", "C", "A"},
		{"D", "C", "A"},
		{"D", "B", "B"},
		{"B", "D", "B"},
		{"B", "I", "java/lang/Object"},
		{"I", "Unknown", "java/lang/Object"}, // an interface merges to Object whatever the other
		{"java/lang/String", "java/lang/Integer", "java/lang/Object"},
		{"[LB;", "[LC;", "[LA;"},
		{"[[LB;", "[[LD;", "[[LB;"},
		{"[Ljava/lang/String;", "[Ljava/lang/Integer;", "[Ljava/lang/Object;"},
		{"[I", "[J", "java/lang/Object"},
		{"[[I", "[[J", "[Ljava/lang/Object;"},
		{"[[I", "[LB;", "[Ljava/lang/Object;"},
		{"[[LB;", "[LB;", "[Ljava/lang/Object;"},
		{"[I", "B", "java/lang/Object"},
		{"[LB;", "B", "java/lang/Object"},
	} {
		got := a.mergeRefs(a.intern(tc.x), a.intern(tc.y))
		if got.kind() != VObject || a.names[got.arg()] != tc.want {
			t.Errorf("merge(%s, %s) = %s, want %s", tc.x, tc.y, a.names[got.arg()], tc.want)
		}
	}
	// A merge the hierarchy cannot answer is no guess: Top, and the reason.
	for _, tc := range []struct{ x, y, missing string }{
		{"B", "Unknown", "Unknown"},
		{"Unknown", "C", "Unknown"},
		{"[LB;", "[LUnknown;", "Unknown"},
		{"Orphan", "B", "Missing"}, // its superclass is unknown
	} {
		a.unknown = nil
		if got := a.mergeRefs(a.intern(tc.x), a.intern(tc.y)); got != tTop {
			t.Errorf("merge(%s, %s) = %#x, want Top", tc.x, tc.y, got)
		}
		if a.unknown == nil || a.unknown.Missing != tc.missing {
			t.Errorf("merge(%s, %s): unknown = %v, want one naming %s", tc.x, tc.y, a.unknown, tc.missing)
		}
	}
	// Non-reference merges.
	b := a.intern("B")
	for _, tc := range []struct{ x, y, want vtype }{
		{tInt, tInt, tInt},
		{tInt, tFloat, tTop},
		{tNull, b, b},
		{b, tNull, b},
		{tLong, tDouble, tTop},
		{uninitType(0), uninitType(1), tTop},
		{tUninitThis, b, tTop},
		{tInt, b, tTop},
	} {
		d := tc.x
		a.merge(&d, tc.y)
		if d != tc.want {
			t.Errorf("merge(%#x, %#x) = %#x, want %#x", tc.x, tc.y, d, tc.want)
		}
	}
}

// TestFramesBranchMerge: a local holding B or C is A at the join; storing
// into the second half of a long kills the long.
func TestFramesBranchMerge(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	p := c.Pool
	l1, l2, l3, l4 := NewLabel(), NewLabel(), NewLabel(), NewLabel()
	code := encodeTest(t, c, AccStatic, "m", "(Z)V", []Insn{
		idx(OpIload, 0), jmp(OpIfeq, l1),
		idx(OpNew, p.AddClass("B")), op(OpDup), idx(OpInvokespecial, p.AddMethodref("B", "<init>", "()V", false)),
		idx(OpAstore, 1), jmp(OpGoto, l2),
		lbl(l1), idx(OpNew, p.AddClass("C")), op(OpDup), idx(OpInvokespecial, p.AddMethodref("C", "<init>", "()V", false)),
		idx(OpAstore, 1),
		lbl(l2), op(OpLconst0), idx(OpLstore, 2), op(OpDconst1), idx(OpDstore, 4),
		idx(OpIload, 0), jmp(OpIfeq, l3),
		op(OpIconst0), idx(OpIstore, 3), // the second half of the long
		lbl(l3), idx(OpIload, 0), jmp(OpIfeq, l4),
		op(OpAconstNull), idx(OpAstore, 1),
		lbl(l4), op(OpReturn),
	})
	if got, want := frameAt(t, code, l1), "[I] []"; got != want {
		t.Errorf("frame at l1: %s, want %s", got, want)
	}
	if got, want := frameAt(t, code, l2), "[I A] []"; got != want {
		t.Errorf("frame at l2: %s, want %s", got, want)
	}
	if got, want := frameAt(t, code, l3), "[I A T T D] []"; got != want {
		t.Errorf("frame at l3: %s, want %s", got, want)
	}
	if got, want := frameAt(t, code, l4), "[I A T T D] []"; got != want {
		t.Errorf("frame at l4: %s, want %s", got, want)
	}
	if code.MaxLocals != 6 || code.MaxStack != 2 {
		t.Errorf("max locals %d, stack %d; want 6, 2", code.MaxLocals, code.MaxStack)
	}
}

// TestFramesUninitialized: a `new` value on the stack across a branch is
// uninitialized(label of the new), and the label is inserted right before
// the new.
func TestFramesUninitialized(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	p := c.Pool
	l1, l2 := NewLabel(), NewLabel()
	code := encodeTest(t, c, AccStatic, "m", "(Z)V", []Insn{
		op(OpNop),
		idx(OpNew, p.AddClass("B")), op(OpDup),
		idx(OpIload, 0), jmp(OpIfeq, l1), op(OpIconst1), jmp(OpGoto, l2),
		lbl(l1), op(OpIconst2),
		lbl(l2), idx(OpInvokespecial, p.AddMethodref("B", "<init>", "(I)V", false)),
		idx(OpAstore, 0), op(OpReturn),
	})
	// The new is at offset 1.
	if got, want := frameAt(t, code, l2), "[I] [uninit@1 uninit@1 I]"; got != want {
		t.Errorf("frame at l2: %s, want %s", got, want)
	}
	for i, in := range code.Insns {
		if in.Op == OpNew {
			if i == 0 || code.Insns[i-1].Op != OpLabel || code.Insns[i-1].Label != code.Frames[0].Stack[0].New {
				t.Errorf("the uninitialized type's label is not placed right before the new: %+v", code.Insns[:i+1])
			}
		}
	}
}

// TestFramesConstructor: uninitializedThis until the super constructor
// call, then the class.
func TestFramesConstructor(t *testing.T) {
	c := newTestClass("B", "A", 61)
	p := c.Pool
	l1, l2, l3 := NewLabel(), NewLabel(), NewLabel()
	code := encodeTest(t, c, 0, "<init>", "(Z)V", []Insn{
		idx(OpAload, 0), idx(OpIload, 1), jmp(OpIfeq, l1), op(OpIconst0), jmp(OpGoto, l2),
		lbl(l1), op(OpIconst1),
		lbl(l2), idx(OpInvokespecial, p.AddMethodref("A", "<init>", "(I)V", false)),
		idx(OpIload, 1), jmp(OpIfeq, l3), op(OpNop),
		lbl(l3), op(OpReturn),
	})
	if got, want := frameAt(t, code, l2), "[uninitThis I] [uninitThis I]"; got != want {
		t.Errorf("frame at l2: %s, want %s", got, want)
	}
	if got, want := frameAt(t, code, l3), "[B I] []"; got != want {
		t.Errorf("frame at l3: %s, want %s", got, want)
	}
}

// TestFramesHandlerLocals: a handler sees the locals before every
// instruction of its range, not only at the range's start and end.
func TestFramesHandlerLocals(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	p := c.Pool
	start, end, handler := NewLabel(), NewLabel(), NewLabel()
	code := encodeTest(t, c, AccStatic, "m", "()V", []Insn{
		op(OpIconst0), idx(OpIstore, 0), idx(OpLdc, p.AddString("s")), idx(OpAstore, 1),
		lbl(start), idx(OpAload, 1), idx(OpAstore, 0), op(OpIconst1), idx(OpIstore, 0),
		lbl(end), op(OpReturn),
		lbl(handler), op(OpPop), op(OpReturn),
	}, Handler{Start: start, End: end, Handler: handler, CatchType: p.AddClass("java/lang/Integer")})
	if got, want := frameAt(t, code, handler), "[T java/lang/String] [java/lang/Integer]"; got != want {
		t.Errorf("handler frame: %s, want %s", got, want)
	}
}

// TestFramesDeadCode: unreachable code becomes athrow with a frame of its
// own, and handlers lose the ranges that covered only dead code.
func TestFramesDeadCode(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	l1, l2, dead, handler := NewLabel(), NewLabel(), NewLabel(), NewLabel()
	code := encodeTest(t, c, AccStatic, "m", "()V", []Insn{
		lbl(l1), op(OpNop), jmp(OpGoto, l2),
		lbl(dead), op(OpIconst0), op(OpIconst0), op(OpPop2),
		lbl(l2), op(OpReturn),
		lbl(handler), op(OpPop), op(OpReturn),
	}, Handler{Start: l1, End: l2, Handler: handler}, Handler{Start: dead, End: l2, Handler: handler})
	var ops []string
	for _, in := range code.Insns {
		if in.Op != OpLabel {
			ops = append(ops, OpNames[in.Op])
		}
	}
	if got, want := strings.Join(ops, " "), "nop goto athrow return pop return"; got != want {
		t.Errorf("code %s, want %s", got, want)
	}
	if got, want := frameAt(t, code, dead), "[] [java/lang/Throwable]"; got != want {
		t.Errorf("dead frame %s, want %s", got, want)
	}
	if len(code.Handlers) != 1 || code.Handlers[0].Start != l1 || code.Handlers[0].End != dead {
		t.Errorf("handlers %+v, want one over [l1, dead)", code.Handlers)
	}
	if code.MaxStack != 1 {
		t.Errorf("max stack %d, want 1", code.MaxStack)
	}
}

// TestFramesOldClass: before version 50 and with jsr, only the maxima are
// computed.
func TestFramesOldClass(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 49)
	sub, l := NewLabel(), NewLabel()
	code := encodeTest(t, c, AccStatic, "m", "(J)V", []Insn{
		op(OpLconst1), op(OpDup2), op(OpLadd), idx(OpLload, 0), op(OpLadd), op(OpPop2),
		jmp(OpJsr, sub), idx(OpLload, 0), op(OpLconst0), op(OpLcmp), jmp(OpIfeq, l),
		lbl(l), op(OpReturn),
		lbl(sub), idx(OpAstore, 3), idx(OpRet, 3),
	})
	if code.Frames != nil || code.MaxStack != 4 || code.MaxLocals != 4 {
		t.Errorf("frames %v, max stack %d, max locals %d; want none, 4, 4", code.Frames, code.MaxStack, code.MaxLocals)
	}
}

// TestFramesStackHeightMismatch: inconsistent code is an error, not a
// wrong frame.
func TestFramesStackHeightMismatch(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	m := &Member{Access: AccStatic, Name: c.Pool.AddUtf8("m"), Desc: c.Pool.AddUtf8("(I)V")}
	l := NewLabel()
	code := &Code{Insns: []Insn{idx(OpIload, 0), jmp(OpIfeq, l), op(OpIconst0), lbl(l), op(OpReturn)}}
	err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy})
	if err == nil || !strings.Contains(err.Error(), "stack height") {
		t.Errorf("error %v, want a stack height mismatch", err)
	}
}

// framesProgramJava exercises what javac generates: loops, nested
// try/catch/finally, switches on strings and enums, `new` in super(...)
// arguments, ternaries over mixed reference and array types, long and
// double locals, synchronized, lambdas, patterns, try-with-resources.
const framesProgramJava = `import java.util.*;
import java.util.function.*;
import java.io.*;

public class Main {
    enum Color { RED, GREEN, BLUE }

    interface Shape { double area(); default String name() { return getClass().getSimpleName(); } }
    record Circle(double r) implements Shape { public double area() { return Math.PI * r * r; } }
    record Square(double s) implements Shape { public double area() { return s * s; } }

    static abstract class Animal { abstract String sound(); }
    static class Dog extends Animal { String sound() { return "woof"; } }
    static class Cat extends Animal { String sound() { return "meow"; } }

    static class Base {
        final String tag;
        Base(Object o) { tag = String.valueOf(o); }
    }
    static class Derived extends Base {
        Derived(int x) {
            super(x > 0 ? new StringBuilder("pos").append(x) : new ArrayList<>(List.of(x)));
        }
        Derived(String s, boolean b) {
            this(b ? s.length() : -s.length());
        }
    }

    static int loops(int n) {
        int sum = 0;
        outer:
        for (int i = 0; i < n; i++) {
            int j = 0;
            while (true) {
                if (j > i) continue outer;
                if (i * j > 50) break outer;
                sum += i ^ j;
                j++;
            }
        }
        int k = 0;
        do { sum += k; k += 3; } while (k < n);
        return sum;
    }

    static String tryCatch(int x) {
        StringBuilder sb = new StringBuilder();
        try {
            try {
                if (x == 0) throw new IllegalStateException("zero");
                if (x == 1) throw new IOException("one");
                sb.append(10 / (x - 2));
            } catch (IllegalStateException | ArithmeticException e) {
                sb.append("inner:").append(e.getClass().getSimpleName());
                if (x == 2) return sb.append("/ret").toString();
            } finally {
                sb.append("/finally1");
            }
        } catch (IOException e) {
            sb.append("/io:").append(e.getMessage());
        } finally {
            sb.append("/finally2");
        }
        return sb.toString();
    }

    static String switches(String s, Color c) {
        String r;
        switch (s) {
            case "a": r = "A"; break;
            case "bb": r = "B"; break;
            case "Aa": case "BB": r = "collide-" + s; break;
            default: r = "?";
        }
        switch (c) {
            case RED: r += 1; break;
            case GREEN: r += 2;
            default: r += 3;
        }
        int v = switch (c) { case RED -> 10; case GREEN -> { int t = s.length(); yield t * 2; } default -> -1; };
        int w = switch (v) { case 1, 2, 3 -> 7; case 1000 -> 8; case 20 -> 9; default -> v; };
        return r + v + w;
    }

    static Object ternaries(int i) {
        Object a = i % 3 == 0 ? "str" : i % 3 == 1 ? Integer.valueOf(i) : new ArrayList<String>();
        CharSequence cs = i > 2 ? new StringBuilder("sb") : "s";
        Animal an = i % 2 == 0 ? new Dog() : new Cat();
        Object[] arr = i > 1 ? new String[] { "x" } : new Integer[] { 1, 2 };
        Number n = i > 3 ? (Number) Long.valueOf(i) : (Number) Double.valueOf(i / 2.0);
        Object prim = i > 4 ? new int[i] : new long[1];
        return a + "|" + cs + "|" + an.sound() + "|" + arr.length + "|" + n + "|" + prim.getClass().getSimpleName();
    }

    static double longsDoubles(long a, double b, int n) {
        long x = a;
        double y = b;
        for (int i = 0; i < n; i++) {
            x = x * 31 + i;
            y = y / 2 + x % 7;
            if (x > 1000000L) { long t = x; x = t >>> 3; }
            float f = (float) y;
            y += f;
        }
        long cmp = x > y ? 1L : -1L;
        return x + y + cmp;
    }

    private final Object lock = new Object();
    private int counter;
    synchronized void incSync() { counter++; }
    int incBlock(int by) {
        synchronized (lock) {
            if (by < 0) throw new IllegalArgumentException("neg");
            counter += by;
            return counter;
        }
    }

    static String lambdas(List<String> in) {
        int base = in.size();
        Function<String, Integer> f = s -> s.length() + base;
        Supplier<List<Integer>> sup = ArrayList::new;
        List<Integer> out = sup.get();
        in.forEach(s -> out.add(f.apply(s)));
        BiFunction<Integer, Integer, Integer> add = Integer::sum;
        Runnable r = () -> out.add(add.apply(1, 2));
        r.run();
        return out.stream().map(String::valueOf).reduce("", (p, q) -> p + q + ",");
    }

    static int arrays() {
        int[][] grid = new int[3][4];
        long[][][] cube = new long[2][2][2];
        String[][] names = new String[2][];
        names[0] = new String[] { "a", "b" };
        names[1] = new String[0];
        char[] cs = { 'x', 'y' };
        byte[] bs = { 1, 2, 3 };
        short[] ss = { 7 };
        boolean[] zs = { true, false };
        float[] fs = { 1.5f };
        double[] ds = { 2.5 };
        int s = 0;
        for (int i = 0; i < grid.length; i++) for (int j = 0; j < grid[i].length; j++) { grid[i][j] = i * j; s += grid[i][j]; }
        cube[1][1][1] = 5;
        return s + (int) cube[1][1][1] + names[0].length + cs[1] + bs[2] + ss[0] + (zs[0] ? 1 : 0) + (int) fs[0] + (int) ds[0];
    }

    static String patterns(Object o) {
        if (o instanceof String s && s.length() > 2) return "long string " + s;
        if (o instanceof Shape sh) return sh.name() + String.format("%.2f", sh.area());
        if (o instanceof int[] ia) return "ints" + ia.length;
        return "other";
    }

    static String resources() {
        StringWriter w = new StringWriter();
        try (PrintWriter pw = new PrintWriter(w); StringReader r = new StringReader("abc")) {
            int ch;
            while ((ch = r.read()) != -1) pw.print((char) (ch + 1));
        } catch (IOException e) {
            return "io";
        }
        return w.toString();
    }

    static int varargs(int... xs) { int s = 0; for (int x : xs) s += x; return s; }

    static String anon(int k) {
        Comparator<Integer> cmp = new Comparator<>() {
            public int compare(Integer a, Integer b) { return k > 0 ? a - b : b - a; }
        };
        List<Integer> l = new ArrayList<>(List.of(3, 1, 2));
        l.sort(cmp);
        return l.toString();
    }

    static long bits(int i, long l, char c, byte b, short s) {
        int x = (i << 3) | (i >> 1) ^ (i >>> 2) & ~i;
        long y = (l << 5) | (l >> 2) ^ (l >>> 7) & ~l;
        c += 2; b -= 1; s *= 3;
        return x + y + c + b + s + (i % 5) + (l % 3) + (-i) + (-l);
    }

    static Object nullMerge(boolean b) {
        String s = null;
        if (b) s = "set";
        Object o = b ? null : new int[0];
        return s + (o == null ? "null" : o.getClass().getSimpleName());
    }

    static int exceptionsInLoop(int n) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 0) throw new RuntimeException();
                Object o = i % 3 == 1 ? null : "x";
                ok += o.hashCode() & 1;
            } catch (NullPointerException e) {
                ok += 10;
            } catch (RuntimeException e) {
                ok += 100;
                continue;
            }
            ok++;
        }
        return ok;
    }

    public static void main(String[] args) {
        System.out.println(loops(20));
        for (int i = 0; i < 5; i++) System.out.println(tryCatch(i));
        for (String s : new String[] { "a", "bb", "Aa", "BB", "zzz" })
            for (Color c : Color.values()) System.out.println(switches(s, c));
        for (int i = 0; i < 7; i++) System.out.println(ternaries(i));
        System.out.println(longsDoubles(3L, 1.5, 40));
        Main m = new Main();
        m.incSync();
        System.out.println(m.incBlock(5));
        try { m.incBlock(-1); } catch (IllegalArgumentException e) { System.out.println("caught " + e.getMessage()); }
        System.out.println(lambdas(List.of("a", "bcd", "ef")));
        System.out.println(arrays());
        for (Object o : new Object[] { "hi", "hello", new Circle(1), new Square(2), new int[3], 5 }) System.out.println(patterns(o));
        System.out.println(resources());
        System.out.println(varargs(1, 2, 3) + varargs());
        System.out.println(anon(1) + anon(-1));
        System.out.println(bits(12345, 987654321L, 'a', (byte) 3, (short) 9));
        System.out.println(nullMerge(true) + " " + nullMerge(false));
        System.out.println(exceptionsInLoop(10));
        System.out.println(new Derived(3).tag + " " + new Derived(-2).tag + " " + new Derived("abc", false).tag);
        assert args.length == 0 : "no args";
    }
}
`

// reframeDir re-encodes every method of every class under dir with frames
// recomputed and writes the classes under a new directory, which it
// returns. h resolves classes for merges.
func reframeDir(t *testing.T, dir string, h Hierarchy) (string, int) {
	t.Helper()
	out := t.TempDir()
	methods := 0
	err := OpenTestDir(dir).Walk(func(e TestEntry) error {
		c, err := parseEntry(e)
		if err != nil {
			return err
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil {
				return err
			}
			if code == nil {
				continue
			}
			if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: h}); err != nil {
				return err
			}
			methods++
		}
		p := filepath.Join(out, filepath.FromSlash(e.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, c.Bytes(), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, methods
}

// TestFramesJavacProgram recomputes the frames of a javac-compiled program
// and runs it with -Xverify:all: the output must be the original's.
func TestFramesJavacProgram(t *testing.T) {
	for _, release := range []string{"17", "8"} {
		t.Run("release"+release, func(t *testing.T) {
			src, minMethods := framesProgramJava, 40
			if release == "8" {
				src, minMethods = framesProgramJava8, 15
			}
			dir := jvmtest.Compile(t, map[string]string{"Main.java": src}, "--release", release, "-g")
			jdk, err := OpenTestJDK(jvmtest.JavaHome(t))
			if err != nil {
				t.Fatal(err)
			}
			defer jdk.Close()
			out, methods := reframeDir(t, dir, NewTestHierarchy(OpenTestDir(dir), jdk))
			want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", dir, "Main")
			got, _ := jvmtest.Run(t, "-Xverify:all", "-cp", out, "Main")
			if got != want {
				t.Errorf("output after recomputing frames:\n%s\nwant:\n%s", got, want)
			}
			if methods < minMethods || len(want) < 150 {
				t.Errorf("only %d methods, %d bytes of output: the program did not compile as expected", methods, len(want))
			}
		})
	}
}

// framesProgramJava8 is the Java 8 program (class-file version 52).
const framesProgramJava8 = `import java.util.*;
import java.util.function.*;

public class Main {
    enum Op { ADD, SUB, MUL }

    static class Node {
        final Node next; final Object val;
        Node(Object v, Node n) { val = v; next = n; }
    }
    static class Named extends Node {
        Named(String s, int depth) {
            super(depth > 0 ? (Object) new Named(s, depth - 1) : (Object) s.toUpperCase(),
                  depth % 2 == 0 ? null : new Node(depth, null));
        }
    }

    static int apply(Op op, int a, int b) {
        switch (op) {
            case ADD: return a + b;
            case SUB: return a - b;
            default: return a * b;
        }
    }

    static String kind(String s) {
        switch (s) {
            case "one": return "1";
            case "two": return "2";
            case "FB": case "Ea": return "hash-collision:" + s;
            default: return "many";
        }
    }

    static long fib(int n) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) { long t = a + b; a = b; b = t; }
        return a;
    }

    static double mean(double[] xs) {
        double s = 0;
        for (double x : xs) s += x;
        return xs.length == 0 ? Double.NaN : s / xs.length;
    }

    static String nested(int x) {
        String r = "";
        try {
            try {
                r += "a";
                if (x == 1) throw new IllegalArgumentException();
                if (x == 2) return r + "early";
                r += "b";
            } finally {
                r += "f";
                if (x == 3) throw new IllegalStateException();
            }
        } catch (IllegalArgumentException e) {
            r += "IAE";
        } catch (RuntimeException e) {
            r += "RE";
        }
        return r;
    }

    static synchronized int syncStatic(int x) { return x * 2; }

    static String lambdas() {
        List<String> l = new ArrayList<String>(Arrays.asList("c", "a", "b"));
        Collections.sort(l, (p, q) -> q.compareTo(p));
        final StringBuilder sb = new StringBuilder();
        l.forEach(sb::append);
        Function<Integer, Function<Integer, Integer>> curried = a -> b -> a * 10 + b;
        return sb.toString() + curried.apply(4).apply(2);
    }

    static Object pick(int i) {
        Object o;
        if (i == 0) o = new ArrayList<Object>();
        else if (i == 1) o = new LinkedList<Object>();
        else o = new HashSet<Object>();
        Collection<?> c = (Collection<?>) o;
        return c.getClass().getSimpleName() + c.size();
    }

    public static void main(String[] args) {
        for (Op op : Op.values()) System.out.println(op + "=" + apply(op, 7, 3));
        for (String s : new String[] { "one", "two", "FB", "Ea", "x" }) System.out.println(kind(s));
        System.out.println(fib(50));
        System.out.println(mean(new double[] { 1, 2, 4 }));
        for (int i = 0; i < 4; i++) System.out.println(nested(i));
        System.out.println(syncStatic(21));
        System.out.println(lambdas());
        for (int i = 0; i < 3; i++) System.out.println(pick(i));
        Named n = new Named("abc", 3);
        int depth = 0;
        Object v = n;
        while (v instanceof Node) { v = ((Node) v).val; depth++; }
        System.out.println(depth + " " + v);
    }
}
`

// FuzzFrames feeds arbitrary class files to frame computation, seeded with
// real classes of java.base: Encode with frames must not panic, and what it
// encodes must decode again.
func FuzzFrames(f *testing.F) {
	addJavaBaseSeeds(f, "java/util/ArrayList$Itr", "java/util/concurrent/Exchanger", "java/lang/Integer",
		"java/lang/invoke/LambdaForm$Name", "java/util/Optional")
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("fuzz", b)
		if err != nil {
			return
		}
		for _, m := range c.Methods {
			code, err := DecodeCode(c, m)
			if err != nil || code == nil {
				continue
			}
			if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy}); err != nil {
				continue
			}
			if _, err := DecodeCode(c, m); err != nil {
				t.Fatalf("%s%s: frames computed, but the code does not decode again: %v", c.MemberName(m), c.MemberDesc(m), err)
			}
		}
	})
}

// TestFramesLdcKinds: the type ldc pushes depends on the constant's tag,
// and a dynamic constant's on its descriptor.
func TestFramesLdcKinds(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	p := c.Pool
	mh := p.Add(Constant{Tag: TagMethodHandle, A: 6, B: p.AddMethodref("A", "m", "()V", false)})
	mt := p.Add(Constant{Tag: TagMethodType, A: p.AddUtf8("()V")})
	condyJ := p.Add(Constant{Tag: TagDynamic, A: 0, B: p.AddNameAndType("j", "J")})
	condyS := p.Add(Constant{Tag: TagDynamic, A: 0, B: p.AddNameAndType("s", "[Ljava/lang/String;")})
	l := NewLabel()
	code := encodeTest(t, c, AccStatic, "m", "(Z)V", []Insn{
		idx(OpLdc, p.AddInt(1)), idx(OpLdc, p.AddFloat(1)), idx(OpLdc2W, p.AddLong(1)), idx(OpLdc2W, p.AddDouble(1)),
		idx(OpLdc, p.AddString("s")), idx(OpLdc, p.AddClass("A")), idx(OpLdc, mh), idx(OpLdc, mt),
		idx(OpLdc2W, condyJ), idx(OpLdc, condyS),
		idx(OpIload, 0), jmp(OpIfeq, l), lbl(l), op(OpReturn),
	})
	want := "[I] [I F J D java/lang/String java/lang/Class java/lang/invoke/MethodHandle java/lang/invoke/MethodType J [Ljava/lang/String;]"
	if got := frameAt(t, code, l); got != want {
		t.Errorf("frame %s, want %s", got, want)
	}
	if code.MaxStack != 14 { // 13 slots of constants, then the iload
		t.Errorf("max stack %d, want 14", code.MaxStack)
	}
}

// parseEntry reads and parses one class of a walk.
func parseEntry(e TestEntry) (*Class, error) {
	data, err := e.Read()
	if err != nil {
		return nil, err
	}
	return Parse(e.Path, data)
}

// openJavaBase opens home's java.base and a hierarchy over all its
// modules, both closed when t ends.
func openJavaBase(t *testing.T, home string) (TestJDK, Hierarchy) {
	t.Helper()
	all, err := OpenTestJDK(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { all.Close() })
	base, err := OpenTestJDK(home, "java.base")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	return base, NewTestHierarchy(all)
}
