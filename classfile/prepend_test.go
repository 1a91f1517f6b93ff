package classfile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// tokenPrologue is a prologue shaped like the weaver's guard: a value
// from one of two branches stored in a new local (slot), then a guarded
// print skipped when it is null. Its frames need the merged value on the
// stack and then in the new local.
func tokenPrologue(p *Pool, slot uint16, msg string) []Insn {
	slow, got, skip := NewLabel(), NewLabel(), NewLabel()
	insns := []Insn{
		{Op: OpIconst0}, {Op: OpIfeq, Label: slow},
		{Op: OpAconstNull}, {Op: OpGoto, Label: got},
		{Op: OpLabel, Label: slow}, {Op: OpLdc, Index: p.AddString("weft")},
		{Op: OpLabel, Label: got}, {Op: OpAstore, Index: slot},
		{Op: OpAload, Index: slot}, {Op: OpIfnull, Label: skip},
	}
	insns = append(insns, guardedPrintInsns(p, msg)...)
	return append(insns, Insn{Op: OpLabel, Label: skip})
}

// prependToken puts tokenPrologue before m's body, its local past the
// body's; in a constructor, as the weaver does, the token's part before
// the body and the guarded print after its super(...) or this(...) call
// (InsertCode). It returns where the body was split (0 for a method) and
// how many instructions went before the body.
func prependToken(c *Class, m *Member, h Hierarchy) (ok bool, split, entry int, err error) {
	at := 0
	if c.MemberName(m) == "<init>" {
		if at, ok = SuperCallEnd(c, m); !ok {
			return false, 0, 0, nil
		}
	}
	ok, err = InsertCode(c, m, h, at, func(maxLocals uint16) ([]Insn, []Insn) {
		slot := max(int(maxLocals), ArgSlots(c.MemberDesc(m))+1)
		pro := tokenPrologue(c.Pool, uint16(slot), "> "+c.MemberName(m))
		if at == 0 {
			return pro, nil
		}
		entry = 6 // tokenPrologue's token part up to its astore, without its 2 labels
		return pro[:8], pro[8:]
	})
	return ok, at, entry, err
}

// TestPrependCodeKeepsBody puts a prologue before every method of a
// quarter of java.base's classes and checks, against decoding and the
// full frame computation, that the body is kept: the same instructions,
// handlers, line and local variable entries, moved past the prologue; the
// body's StackMapTable frames as they were; the prologue's frames those
// the full computation finds for the whole method; and the full
// computation's state at each of the body's frames the one it finds in
// the original method, plus the prologue's local. None is declined but
// java/lang/Object's constructor (no super(...) call to split at).
func TestPrependCodeKeepsBody(t *testing.T) {
	home := jvmtest.JavaHome(t)
	base, h := openJavaBase(t, home)
	var classes, methods, kept, ctors, declined int
	fails := 0
	fail := func(format string, args ...any) {
		if fails++; fails <= 10 {
			t.Errorf(format, args...)
		}
	}
	err := base.Walk(func(e TestEntry) error {
		if classes++; classes%4 != 0 || strings.HasSuffix(e.Path, "module-info.class") {
			return nil
		}
		data, err := e.Read()
		if err != nil {
			return err
		}
		orig, err := Parse(e.Path, data)
		if err != nil {
			return err
		}
		c, err := Parse(e.Path, data)
		if err != nil {
			return err
		}
		for i, m := range c.Methods {
			om := orig.Methods[i]
			code0, err := DecodeCode(orig, om)
			if err != nil || code0 == nil {
				continue
			}
			where := e.Path + " " + c.MemberName(m) + c.MemberDesc(m)
			methods++
			ok, split, entry, err := prependToken(c, m, h)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			if !ok {
				declined++
				if c.MemberName(m) != "<init>" || c.Name() != "java/lang/Object" {
					fail("%s: declined", where)
				}
				continue
			}
			kept++
			if split > 0 {
				ctors++
			}
			if msg := compareKept(orig, om, code0, c, m, h, split, entry); msg != "" {
				fail("%s: %s", where, msg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d methods of %d classes: %d prologues put before the kept body (%d split after super(...)), %d declined", methods, classes/4, kept, ctors, declined)
	if kept < 10000 || ctors < 1000 {
		t.Errorf("kept %d (%d constructors), declined %d: want every body kept", kept, ctors, declined)
	}
}

// compareKept compares m of c, code inserted into its body, with om of
// orig, its original (code0 decoded): entry instructions before the body,
// the others at offset split (0: all before it). It says how they
// differ, or "".
func compareKept(orig *Class, om *Member, code0 *Code, c *Class, m *Member, h Hierarchy, split, entry int) string {
	code1, err := DecodeCode(c, m)
	if err != nil {
		return "decoding the result: " + err.Error()
	}
	// The body's instructions before split follow the entry's, moved by
	// lead; the others follow the inserted ones, moved by shift.
	body0 := insnsOnly(orig, om, code0.Insns)
	all1 := insnsOnly(c, m, code1.Insns)
	n := len(all1) - len(body0)
	if n <= 0 || entry > n {
		return fmt.Sprintf("%d instructions, the body alone had %d", len(all1), len(body0))
	}
	k := 0 // the body's instructions before split
	for k < len(body0) && body0[k].off < split {
		k++
	}
	if split == 0 {
		entry = n
	}
	lead, shift := 0, all1[n+k].off-split
	if k > 0 {
		lead = all1[entry].off
	}
	move := func(off int) int {
		if off < split {
			return off + lead
		}
		return off + shift
	}
	for i, in := range body0 {
		at := i + entry
		if i >= k {
			at = i + n
		}
		if got := all1[at]; !sameInsn(in, got, move) {
			return fmt.Sprintf("body instruction %d: %s became %s", i, OpNames[in.insn.Op], OpNames[got.insn.Op])
		}
	}
	if len(code1.Handlers) != len(code0.Handlers) {
		return fmt.Sprintf("%d handlers, want %d", len(code1.Handlers), len(code0.Handlers))
	}
	for i, x := range code0.Handlers {
		y := code1.Handlers[i]
		if y.Start.Offset != move(x.Start.Offset) || y.End.Offset != move(x.End.Offset) ||
			y.Handler.Offset != move(x.Handler.Offset) || y.CatchType != x.CatchType {
			return fmt.Sprintf("handler %d moved wrong", i)
		}
	}
	if len(code1.Lines) != len(code0.Lines) || len(code1.Locals) != len(code0.Locals) || len(code1.LocalTypes) != len(code0.LocalTypes) {
		return "line or local variable entries lost"
	}
	for i, x := range code0.Lines {
		if y := code1.Lines[i]; y.Start.Offset != move(x.Start.Offset) || y.Line != x.Line {
			return fmt.Sprintf("line entry %d moved wrong", i)
		}
	}
	for i, x := range append(code0.Locals, code0.LocalTypes...) {
		y := append(code1.Locals, code1.LocalTypes...)[i]
		if y.Start.Offset != move(x.Start.Offset) || y.End.Offset != move(x.End.Offset) || y.Slot != x.Slot || y.Name != x.Name {
			return fmt.Sprintf("local variable entry %d moved wrong", i)
		}
	}
	// Frames: the body's past split as they were; the others as the full
	// computation over the whole method finds them.
	full1 := recomputed(c, m, h)
	full0 := recomputed(orig, om, h)
	if full1 == nil || full0 == nil {
		return "the full frame computation failed"
	}
	kept := map[int]Frame{}
	for _, f := range code0.Frames {
		if f.At.Offset >= split {
			kept[move(f.At.Offset)] = f
		}
	}
	for _, f := range code1.Frames {
		off := f.At.Offset
		if x, ok := kept[off]; ok {
			if !sameFrame(x, f, move) {
				return fmt.Sprintf("body frame at %d changed: %s, was %s", off, frameString(f), frameString(x))
			}
			delete(kept, off)
			continue
		}
		if off > split+shift {
			return fmt.Sprintf("a frame at %d, in the body, that it did not have", off)
		}
		r, ok := full1[off]
		if !ok && off == split+shift {
			continue // where the body starts after nops: no jump there, the JVM checks it (TestFramesJavaBaseVerifies)
		}
		if !ok || !sameFrame(r, f, nil) {
			return fmt.Sprintf("inserted code's frame at %d is %s, the full computation's %s", off, frameString(f), frameString(r))
		}
	}
	if len(kept) > 0 {
		return fmt.Sprintf("%d body frames lost", len(kept))
	}
	// The full computation's state at each body frame is the one it finds
	// in the original, plus the inserted code's local.
	for off, r0 := range full0 {
		r1, ok := full1[move(off)]
		if !ok {
			return fmt.Sprintf("the full computation has no frame at body offset %d", off)
		}
		r1.Locals = r1.Locals[:min(len(r1.Locals), len(r0.Locals))]
		if !sameFrame(r0, r1, move) {
			return fmt.Sprintf("the full computation's state at body offset %d is %s, was %s", off, frameString(r1), frameString(r0))
		}
	}
	return ""
}

// recomputed returns the frames the full computation finds for m's code,
// by offset, on a copy of the class; nil on error.
func recomputed(c *Class, m *Member, h Hierarchy) map[int]Frame {
	cp, err := Parse("copy", c.Bytes())
	if err != nil {
		return nil
	}
	var cm *Member
	for _, x := range cp.Methods {
		if cp.MemberName(x) == c.MemberName(m) && cp.MemberDesc(x) == c.MemberDesc(m) {
			cm = x
		}
	}
	code, err := DecodeCode(cp, cm)
	if err != nil || code.Encode(cp, cm, EncodeOptions{Frames: true, Hierarchy: h}) != nil {
		return nil
	}
	out := map[int]Frame{}
	for _, f := range code.Frames {
		out[f.At.Offset] = f
	}
	return out
}

type placedInsn struct {
	insn Insn
	off  int
}

// insnsOnly lists the instructions of m's decoded body with their
// offsets, walked in m's bytes.
func insnsOnly(c *Class, m *Member, insns []Insn) []placedInsn {
	info := c.Attr(m.Attributes, "Code").Info
	bc := info[8 : 8+(int(u16(info[4:]))<<16|int(u16(info[6:])))]
	var out []placedInsn
	off := 0
	for _, in := range insns {
		if in.Op == OpLabel {
			continue
		}
		out = append(out, placedInsn{in, off})
		off += rawInsnSize(bc, off)
	}
	return out
}

// sameInsn reports whether y is x with its offsets moved by move.
func sameInsn(x, y placedInsn, move func(int) int) bool {
	a, b := x.insn, y.insn
	if y.off != move(x.off) || a.Op != b.Op || a.Index != b.Index || a.Const != b.Const ||
		(a.Label == nil) != (b.Label == nil) || (a.Switch == nil) != (b.Switch == nil) {
		return false
	}
	if a.Label != nil && b.Label.Offset != move(a.Label.Offset) {
		return false
	}
	if a.Switch != nil {
		if b.Switch.Default.Offset != move(a.Switch.Default.Offset) || len(a.Switch.Targets) != len(b.Switch.Targets) {
			return false
		}
		for k, t := range a.Switch.Targets {
			if b.Switch.Targets[k].Offset != move(t.Offset) {
				return false
			}
		}
	}
	return true
}

// sameFrame reports whether y is x with its offsets moved by move (nil:
// not moved).
func sameFrame(x, y Frame, move func(int) int) bool {
	if move == nil {
		move = func(off int) int { return off }
	}
	same := func(a, b []VType) bool {
		if len(a) != len(b) {
			return false
		}
		for k := range a {
			if a[k].Kind != b[k].Kind || a[k].Class != b[k].Class ||
				a[k].Kind == VUninitialized && b[k].New.Offset != move(a[k].New.Offset) {
				return false
			}
		}
		return true
	}
	return same(x.Locals, y.Locals) && same(x.Stack, y.Stack)
}

func frameString(f Frame) string {
	var ls, ss []string
	for _, v := range f.Locals {
		ls = append(ls, vtString(v))
	}
	for _, v := range f.Stack {
		ss = append(ss, vtString(v))
	}
	return "[" + strings.Join(ls, " ") + "] [" + strings.Join(ss, " ") + "]"
}

// TestPrependCodeDeclines checks that a switch gets the nops that keep
// its padding, the bodies PrependCode leaves to the decoding path,
// unchanged: jsr/ret subroutines; and that a prologue writing the body's
// locals is refused.
func TestPrependCodeDeclines(t *testing.T) {
	c := newTestClass("A", "java/lang/Object", 61)
	l0, l1 := NewLabel(), NewLabel()
	sw := encodeTest(t, c, AccStatic, "sw", "(I)I", []Insn{
		idx(OpIload, 0),
		{Op: OpTableswitch, Switch: &Switch{Default: l1, Low: 0, High: 0, Targets: []*Label{l0}}},
		lbl(l0), op(OpIconst1), op(OpIreturn),
		lbl(l1), op(OpIconst0), op(OpIreturn),
	})
	_ = sw
	m := c.Methods[0]
	before := append([]byte(nil), c.Attr(m.Attributes, "Code").Info...)
	pro := func(n int) func(uint16) []Insn {
		return func(uint16) []Insn {
			insns := []Insn{}
			for range n {
				insns = append(insns, op(OpNop))
			}
			return insns
		}
	}
	for n := 1; n <= 4; n++ {
		// A copy: each prologue goes before the original body.
		a := c.Attr(m.Attributes, "Code")
		a.Info = append([]byte(nil), before...)
		ok, err := PrependCode(c, m, testHierarchy, pro(n))
		if err != nil {
			t.Fatal(err)
		}
		// The switch keeps its padding: nops make the prologue 4 bytes.
		if info := c.Attr(m.Attributes, "Code").Info; !ok || len(info) < 8 || int(u16(info[6:])) != int(u16(before[6:]))+4 {
			t.Errorf("a prologue of %d bytes before a switch: kept %v, code of %d bytes, want %d", n, ok, u16(info[6:]), u16(before[6:])+4)
		}
	}

	old := newTestClass("B", "java/lang/Object", 49)
	sub, after := NewLabel(), NewLabel()
	encodeTest(t, old, AccStatic, "f", "()V", []Insn{
		jmp(OpJsr, sub), jmp(OpGoto, after),
		lbl(sub), idx(OpAstore, 0), idx(OpRet, 0),
		lbl(after), op(OpReturn),
	})
	if ok, err := PrependCode(old, old.Methods[0], testHierarchy, pro(1)); ok || err != nil {
		t.Errorf("jsr/ret: kept %v, error %v; want declined", ok, err)
	}

	c2 := newTestClass("C", "java/lang/Object", 61)
	encodeTest(t, c2, AccStatic, "g", "(I)V", []Insn{op(OpReturn)})
	_, err := PrependCode(c2, c2.Methods[0], testHierarchy, func(uint16) []Insn {
		return []Insn{op(OpIconst0), idx(OpIstore, 0)}
	})
	if err == nil || !strings.Contains(err.Error(), "writes local 0") {
		t.Errorf("a prologue storing to a parameter: error %v", err)
	}
}

// TestStraightFramesMatchAnalysis runs the analysis's straight mode and
// the whole analysis over the code InsertCode analyses for tokenPrologue
// in every method of a quarter of java.base's classes (in constructors,
// split after the super(...) call): where the straight mode answers, it
// answers the same frames, max stack and max locals, and it answers for
// most.
func TestStraightFramesMatchAnalysis(t *testing.T) {
	home := jvmtest.JavaHome(t)
	base, h := openJavaBase(t, home)
	classes, methods, straight := 0, 0, 0
	fails := 0
	ls := new(layoutScratch)
	err := base.Walk(func(e TestEntry) error {
		if classes++; classes%4 != 1 || strings.HasSuffix(e.Path, "module-info.class") {
			return nil
		}
		c, err := parseEntry(e)
		if err != nil {
			return err
		}
		for _, m := range c.Methods {
			a := c.Attr(m.Attributes, "Code")
			if a == nil {
				continue
			}
			body, ok := readRawCode(c, a.Info)
			if !ok {
				continue
			}
			split := 0
			var prefix []Insn
			if c.MemberName(m) == "<init>" {
				if split, ok = SuperCallEnd(c, m); !ok {
					continue
				}
				if prefix, ok = body.prefix(c, m, split); !ok {
					continue
				}
			}
			slot := max(int(body.maxLocals), ArgSlots(c.MemberDesc(m))+1)
			syn := func() *Code {
				pro := tokenPrologue(c.Pool, uint16(slot), "> "+c.MemberName(m))
				code, _, _ := new(insertScratch).insertionCode(pro[:8], prefix, pro[8:])
				return code
			}
			methods++
			q := syn()
			if _, _, _, err := q.layout(memberName{c, m}, ls); err != nil {
				return err
			}
			where := e.Path + " " + c.MemberName(m) + c.MemberDesc(m)
			frames, maxStack, maxLocals, ok := straightFrames(c, m, h, q, new(frameBuf))
			if !ok {
				continue
			}
			straight++
			if msg := compareAnalysis(c, m, h, syn(), frames, maxStack, maxLocals, ls); msg != "" {
				if fails++; fails <= 10 {
					t.Errorf("%s: %s", where, msg)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d methods: the straight mode answered for %d", methods, straight)
	if straight < methods*9/10 {
		t.Errorf("the straight mode answered for %d of %d methods: want most", straight, methods)
	}
}

// compareAnalysis runs the whole analysis over code and returns how its
// frames, max stack and max locals differ from the given ones ("" if
// they do not).
func compareAnalysis(c *Class, m *Member, h Hierarchy, code *Code, frames []Frame, maxStack, maxLocals int, ls *layoutScratch) string {
	if _, _, err := code.place(c, m, EncodeOptions{Frames: true, Hierarchy: h}, ls); err != nil {
		return fmt.Sprintf("the analysis: %v", err)
	}
	byOff := map[int]Frame{}
	for _, fr := range frames {
		byOff[fr.At.Offset] = fr
	}
	differ := len(byOff) != len(frames) || len(frames) != len(code.Frames) ||
		maxStack != int(code.MaxStack) || maxLocals != int(code.MaxLocals)
	for _, want := range code.Frames {
		got, ok := byOff[want.At.Offset]
		differ = differ || !ok || !sameFrame(want, got, nil)
	}
	if !differ {
		return ""
	}
	return fmt.Sprintf("straight frames %v (stack %d, locals %d), the analysis's %v (%d, %d)",
		frameStrings(frames), maxStack, maxLocals, frameStrings(code.Frames), code.MaxStack, code.MaxLocals)
}

func frameStrings(frames []Frame) []string {
	var out []string
	for _, f := range frames {
		out = append(out, fmt.Sprintf("%d:%s", f.At.Offset, frameString(f)))
	}
	return out
}
