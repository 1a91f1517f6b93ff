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

// TestFramesJavaBaseVerifies recomputes the frames of every method of
// java.base, writes the classes into a directory patched over java.base,
// and has the JVM link (and so verify, with -Xverify:all) every class. The
// output must match that of the unmodified JDK: same classes linked, no
// VerifyError.
func TestFramesJavaBaseVerifies(t *testing.T) {
	home := jvmtest.JavaHome(t)
	all, err := OpenJDK(home)
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	base, err := OpenJDK(home, "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	h := NewHierarchy(all)
	patch := t.TempDir()
	var names []string
	methods := 0
	err = base.Walk(func(e ClassEntry) error {
		if strings.HasSuffix(e.Path, "module-info.class") {
			return nil
		}
		data, err := e.Read()
		if err != nil {
			return err
		}
		c, err := Parse(e.Path, data)
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
				t.Errorf("%s: %v", e.Path, err)
				continue
			}
			methods++
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
	prog := jvmtest.Compile(t, map[string]string{"LinkAll.java": linkAllJava})
	want, _ := jvmtest.Run(t, "-Xverify:all", "-cp", prog, "LinkAll", list)
	got, _ := jvmtest.Run(t, "--patch-module", "java.base="+patch, "-Xverify:all", "-cp", prog, "LinkAll", list)
	t.Logf("%d classes, %d methods re-framed; unmodified: %s", len(names), methods, lastLine(want))
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
func canary(t *testing.T, base Source, prog string) {
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
// interface; Integer extends Number.
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
	a := &analyzer{nameIdx: map[string]uint32{}, merged: map[uint64]vtype{}}
	a.setClass(c, testHierarchy)
	a.frames = true
	for _, tc := range []struct{ x, y, want string }{
		{"B", "C", "A"},
		{"D", "C", "A"},
		{"D", "B", "B"},
		{"B", "D", "B"},
		{"B", "I", "java/lang/Object"},
		{"B", "Unknown", "java/lang/Object"},
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
