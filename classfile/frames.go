package classfile

// This file recomputes max_stack, max_locals and the StackMapTable of a
// method by data-flow analysis over the label-based code model, as ASM's
// COMPUTE_FRAMES does: the code is split into basic blocks, each block's
// entry state is the merge of the states flowing into it, and blocks are
// interpreted until no entry state changes.
//
// Types are encoded in a vtype (a uint32) while the analysis runs, so that
// the hot loop neither allocates nor compares strings: the low bits are
// the verification-type tag, the high bits an index into a per-class table
// of interned class names (for objects) or of `new` sites (for
// uninitialized values). A long or double takes two slots, the second
// holding Top, as in the JVM; frames are converted to the model's one-entry
// form at the end.
//
// The analysis has two cheaper modes: keeping given frames (keptframes.go)
// and one walk over short straight code (straight.go), with the same
// transfer function (exec) and merge.

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// vtype is an encoded verification type.
type vtype uint32

const (
	kindBits = 4
	kindMask = 1<<kindBits - 1
	kRetAddr = 9 // a jsr return address (only in code analyzed without frames)

	tTop        vtype = VTop
	tInt        vtype = VInteger
	tFloat      vtype = VFloat
	tDouble     vtype = VDouble
	tLong       vtype = VLong
	tNull       vtype = VNull
	tUninitThis vtype = VUninitializedThis
	tRetAddr    vtype = kRetAddr
)

func (t vtype) kind() uint8     { return uint8(t & kindMask) }
func (t vtype) arg() uint32     { return uint32(t >> kindBits) }
func objType(name uint32) vtype { return vtype(name<<kindBits | VObject) }
func uninitType(site int) vtype { return vtype(uint32(site)<<kindBits | VUninitialized) }

// isRef reports whether t is an object type or null.
func (t vtype) isRef() bool { k := t.kind(); return k == VObject || k == VNull }

// Names every analyzer interns first, at fixed indices.
const (
	nObject = iota
	nString
	nClass
	nThrowable
	nMethodType
	nMethodHandle
	nWellKnown
)

var wellKnownNames = [nWellKnown]string{
	"java/lang/Object", "java/lang/String", "java/lang/Class", "java/lang/Throwable",
	"java/lang/invoke/MethodType", "java/lang/invoke/MethodHandle",
}

var tObject = objType(nObject)

// refInfo is the decoded descriptor of a field, method or (invoke)dynamic
// constant, cached by pool index.
type refInfo struct {
	done     bool
	init     bool  // a method named <init>
	args     int32 // stack slots taken by the arguments (a field: by the value)
	ret      vtype // result type (a field: its type); Top for void
	retSlots int32
}

// block is a basic block: Insns[start:end), whose first instruction is at
// first (the labels before it, from start on, place the block's label).
type block struct {
	start, first, end int32
	label             *Label // a label placed at the block's start, or nil
	stackAt, nstack   int32  // entry stack in analyzer.stacks
	hFrom, hTo        int32  // the handlers covering the block, in analyzer.blockHandlers
	flags             uint8
}

const (
	bReached = 1 << iota
	bDirty
	bFrame // the verifier needs a frame here
	bGiven // the entry state's kept locals and stack are a given frame's
)

// maxStateSlots bounds the memory of one analysis: blocks × locals.
const maxStateSlots = 1 << 24

// Marks of offsets in analyzer.at before blocks are made.
const (
	markFrame = -2
	markBound = -1
)

// newSite is a `new` instruction and the label placed just before it
// (nil until a frame needs one).
type newSite struct {
	at    int32
	label *Label
	class vtype
}

type labelInsert struct {
	at    int32
	label *Label
}

// analyzer holds the state of frame computation. Its per-class caches
// (interned names, decoded descriptors, merged types) survive from one
// method to the next of the same class; analyzers are pooled.
type analyzer struct {
	c        *Class
	pool     *Pool
	h        Hierarchy
	names    []string
	nameIdx  map[string]uint32
	elems    []vtype // by name index: the element type of an array (0: not computed)
	poolType []vtype // by pool index: the type of a Class entry (0: not computed)
	arrayOf  []vtype // by pool index: the array type whose element is a Class entry
	refs     []refInfo
	merged   map[uint64]vtype
	unknowns map[uint64]*UnknownTypeError // why a merged pair is Top (mergeRefs)
	ancestry []string

	// Per method.
	code          *Code
	insns         []Insn
	thisType      vtype
	frames        bool // emit frames (and verify-style dead code)
	targets       []*Label
	at            []int32 // by offset: see markOffsets
	counts        []int32
	blocks        []block
	maxLocals     int
	maxStack      int
	entryLocals   []vtype // len(blocks) × maxLocals
	stacks        []vtype
	cur           []vtype // locals while interpreting
	stack         []vtype // operand stack while interpreting
	sp            int
	localsChanged bool
	sites         []newSite
	inserts       []labelInsert
	blockHandlers []int32
	hBlock        []int32 // by handler: its handler block
	hCatch        []vtype // by handler: the caught type
	curBlock      int32
	again         bool
	err           error
	errAt         int
	// given holds the frames kept (EncodeOptions.KeepFrames), kept the
	// number of locals they fix; unknown is the first merge the hierarchy
	// could not answer, its result Top (see mergeRefs).
	given   []Frame
	kept    int
	unknown *UnknownTypeError
}

var analyzers = sync.Pool{New: func() any {
	return &analyzer{nameIdx: map[string]uint32{}, merged: map[uint64]vtype{}, unknowns: map[uint64]*UnknownTypeError{}}
}}

// computeFrames sets code.MaxStack, code.MaxLocals and, for class files of
// version 50 and later without jsr/ret, code.Frames. Unreachable blocks are
// replaced by `athrow` with a frame of their own, and exception-table
// ranges are trimmed to the reachable code, as ASM does, so that the
// result verifies.
//
// It runs on laid-out code: every label placed in code.Insns has its
// offset, and blocks are found by offset. When it inserts labels (before a
// `new` whose uninitialized value is in a frame, at a frame position with
// no label) or rewrites dead code, it sets code.Insns to a new slice, which
// tells Encode to lay the code out again.
//
// With given frames (EncodeOptions.KeepFrames), each block that one of
// them starts takes its locals below kept and its stack from the frame
// instead of merging them: only the frames the given ones do not fix are
// computed, as ASM's COMPUTE_INSERTED_FRAMES does.
func computeFrames(c *Class, m *Member, code *Code, h Hierarchy, given []Frame, kept int) error {
	a := analyzers.Get().(*analyzer)
	defer analyzers.Put(a)
	a.setClass(c, h)
	a.given, a.kept = given, kept
	err := a.compute(m, code)
	a.code, a.insns, a.given = nil, nil, nil
	return err
}

func sameHierarchy(x, y Hierarchy) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	tx := reflect.TypeOf(x)
	return tx == reflect.TypeOf(y) && tx.Comparable() && x == y
}

// setClass prepares the per-class caches for c.
func (a *analyzer) setClass(c *Class, h Hierarchy) {
	if a.c != c || a.pool != c.Pool || !sameHierarchy(a.h, h) {
		a.c, a.pool, a.h = c, c.Pool, h
		clear(a.nameIdx)
		clear(a.merged)
		clear(a.unknowns)
		a.names = a.names[:0]
		a.elems = a.elems[:0]
		for _, n := range wellKnownNames {
			a.intern(n)
		}
		a.poolType = a.poolType[:0]
		a.arrayOf = a.arrayOf[:0]
		a.refs = a.refs[:0]
	}
	// The pool only grows: extend the caches by index, reusing memory.
	if n := c.Pool.Len(); len(a.refs) < n {
		a.poolType = grow(a.poolType, n)
		a.arrayOf = grow(a.arrayOf, n)
		a.refs = grow(a.refs, n)
	}
}

// grow extends s to length n with zero values.
func grow[T any](s []T, n int) []T {
	m := len(s)
	s = slices.Grow(s, n-m)[:n]
	clear(s[m:])
	return s
}

func (a *analyzer) intern(name string) vtype {
	if i, ok := a.nameIdx[name]; ok {
		return objType(i)
	}
	i := uint32(len(a.names))
	a.names = append(a.names, name)
	a.elems = append(a.elems, 0)
	a.nameIdx[name] = i
	return objType(i)
}

func (a *analyzer) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, args...)
	}
}

// classType returns the type named by Class entry i.
func (a *analyzer) classType(i uint16) vtype {
	if int(i) >= len(a.poolType) {
		a.fail("constant %d is out of the pool", i)
		return tObject
	}
	if t := a.poolType[i]; t != 0 {
		return t
	}
	name := a.pool.ClassName(i)
	if name == "" {
		a.fail("constant %d is not a class", i)
		return tObject
	}
	t := a.intern(name)
	a.poolType[i] = t
	return t
}

// arrayType returns the type of an array whose element is Class entry i.
func (a *analyzer) arrayType(i uint16) vtype {
	if int(i) < len(a.arrayOf) && a.arrayOf[i] != 0 {
		return a.arrayOf[i]
	}
	t := a.intern("[" + string(ObjectType(a.names[a.classType(i).arg()])))
	if int(i) < len(a.arrayOf) {
		a.arrayOf[i] = t
	}
	return t
}

// elementType returns the element type of array type t (for aaload).
func (a *analyzer) elementType(t vtype) vtype {
	if t == tNull {
		return tNull
	}
	if t.kind() != VObject {
		return tTop
	}
	n := t.arg()
	if e := a.elems[n]; e != 0 {
		return e
	}
	e := a.typeOf(Type(a.names[n]).Component())
	a.elems[n] = e
	return e
}

// typeOf returns the type of a value of type t: Top for void or a
// malformed type.
func (a *analyzer) typeOf(t Type) vtype {
	if typeRest(string(t), 0) >= 0 {
		return tTop
	}
	v := t.VType()
	if v.Kind == VObject {
		return a.intern(v.Class)
	}
	return vtype(v.Kind)
}

// ref returns the decoded descriptor of a member-ref or dynamic constant.
func (a *analyzer) ref(i uint16) *refInfo {
	if int(i) >= len(a.refs) {
		a.fail("constant %d is out of the pool", i)
		return &refInfo{}
	}
	r := &a.refs[i]
	if r.done {
		return r
	}
	var name, desc string
	switch a.pool.Tag(i) {
	case TagFieldref, TagMethodref, TagInterfaceMethodref:
		_, name, desc = a.pool.MemberRef(i)
	case TagDynamic, TagInvokeDynamic:
		name, desc = a.pool.DynamicNameAndType(i)
	}
	if desc == "" {
		a.fail("constant %d is not a member reference", i)
		return &refInfo{}
	}
	*r = refInfo{done: true, init: name == "<init>"}
	if desc[0] != '(' {
		r.ret = a.typeOf(Type(desc))
		if r.ret != tTop {
			r.retSlots = int32(Type(desc).Size())
		}
		r.args = r.retSlots
		return r
	}
	r.args = int32(ArgSlots(desc)) // the arguments' types do not matter
	ret := ReturnType(desc)
	r.ret, r.retSlots = a.typeOf(ret), int32(ret.Size())
	return r
}

// compute runs the analysis of one method.
func (a *analyzer) compute(m *Member, code *Code) error {
	desc, static, maxOff, err := a.start(m, code)
	if err != nil {
		return err
	}
	if err := a.markOffsets(maxOff); err != nil {
		return err
	}
	if !a.makeBlocks() {
		code.MaxStack, code.MaxLocals = 0, uint16(a.maxLocals)
		code.Frames = nil
		return nil
	}
	if err := a.assignHandlers(); err != nil {
		return err
	}
	if err := a.enter(m, desc, static); err != nil {
		return err
	}
	if err := a.iterate(); err != nil {
		return err
	}
	return a.finish()
}

// start prepares the analysis of m's code: it resets the per-method state
// and scans the code (pass 1). It returns m's descriptor, whether m is
// static and the largest label offset.
func (a *analyzer) start(m *Member, code *Code) (desc string, static bool, maxOff int, err error) {
	a.reset(code)
	desc = a.pool.Utf8(m.Desc)
	static = m.Access&AccStatic != 0
	argLocals := ArgSlots(desc)
	if !static {
		argLocals++
	}
	maxOff, err = a.scan(argLocals)
	return desc, static, maxOff, err
}

// reset prepares the per-method state for code.
func (a *analyzer) reset(code *Code) {
	a.code, a.insns = code, code.Insns
	a.err, a.errAt = nil, -1
	a.unknown = nil
	a.frames = a.c.Major >= 50
	a.sites = a.sites[:0]
	a.inserts = a.inserts[:0]
	a.blocks = a.blocks[:0]
	a.stacks = a.stacks[:0]
	a.blockHandlers = a.blockHandlers[:0]
	a.hBlock = a.hBlock[:0]
	a.hCatch = a.hCatch[:0]
	a.maxStack = 0
}

// scan is pass 1: max_locals (at least argLocals), jsr and ret (no frames
// then), the `new` sites and the jump targets. It returns the largest
// label offset: Encode has laid the code out, so every label placed in it
// has its offset, and blocks are found by offset, without a map.
func (a *analyzer) scan(argLocals int) (maxOff int, err error) {
	insns := a.insns
	maxLocals := argLocals
	a.targets = a.targets[:0]
	for i := range insns {
		in := &insns[i]
		op := in.Op
		switch {
		case op == OpLabel:
			maxOff = max(maxOff, in.Label.Offset)
		case op >= OpIload && op <= OpAload || op >= OpIstore && op <= OpAstore || op == OpIinc || op == OpRet:
			n := int(in.Index) + 1
			if op == OpLload || op == OpDload || op == OpLstore || op == OpDstore {
				n++
			}
			maxLocals = max(maxLocals, n)
			if op == OpRet {
				a.frames = false
			}
		case isJump(op):
			if op == OpJsr {
				a.frames = false
			}
			a.targets = append(a.targets, in.Label)
		case op == OpTableswitch || op == OpLookupswitch:
			a.targets = append(a.targets, in.Switch.Default)
			a.targets = append(a.targets, in.Switch.Targets...)
		case op == OpNew:
			s := newSite{at: int32(i), class: a.classType(in.Index)}
			if i > 0 && insns[i-1].Op == OpLabel {
				s.label = insns[i-1].Label
			}
			a.sites = append(a.sites, s) // a missing label is made if a frame needs it
		}
	}
	if maxLocals > 0xFFFF {
		return 0, fmt.Errorf("uses %d local slots, more than 65535", maxLocals)
	}
	a.maxLocals = maxLocals
	return maxOff, nil
}

// markOffsets sizes a.at, by offset up to maxOff, and marks the offsets
// that start blocks: markFrame (a jump target or handler), markBound (an
// exception range's bound). makeBlocks then sets 1 + the block index.
func (a *analyzer) markOffsets(maxOff int) error {
	a.at = slices.Grow(a.at[:0], maxOff+1)[:maxOff+1]
	clear(a.at)
	for _, l := range a.targets {
		if l == nil || l.Offset < 0 || l.Offset > maxOff {
			return fmt.Errorf("a jump or switch targets a label that is not placed")
		}
		a.at[l.Offset] = markFrame
	}
	for i, h := range a.code.Handlers {
		for _, l := range [3]*Label{h.Start, h.End, h.Handler} {
			if l == nil || l.Offset < 0 || l.Offset > maxOff {
				return fmt.Errorf("exception handler %d refers to a label that is not placed", i)
			}
		}
		for _, l := range [2]*Label{h.Start, h.End} {
			if a.at[l.Offset] == 0 {
				a.at[l.Offset] = markBound
			}
		}
		a.at[h.Handler.Offset] = markFrame
	}
	return nil
}

// makeBlocks is pass 2: it splits the instructions into basic blocks. It
// reports whether there is any (code of labels only has none).
func (a *analyzer) makeBlocks() bool {
	insns := a.insns
	runStart, runMark := -1, int32(0)
	ended := true // the previous instruction ends a block (or there is none)
	afterJump := false
	for i := range insns {
		in := &insns[i]
		if in.Op == OpLabel {
			if runStart < 0 {
				runStart, runMark = i, a.at[in.Label.Offset]
			}
			continue
		}
		if ended || runMark < 0 {
			start := i
			if runStart >= 0 {
				start = runStart
			}
			n := int32(len(a.blocks))
			if n > 0 {
				a.blocks[n-1].end = int32(start)
			}
			b := block{start: int32(start), first: int32(i), stackAt: -1}
			if runMark == markFrame || afterJump {
				b.flags |= bFrame
			}
			if start < i {
				b.label = insns[start].Label
				a.at[b.label.Offset] = n + 1
			}
			a.blocks = append(a.blocks, b)
		}
		runStart, runMark = -1, 0
		switch op := in.Op; {
		case op == OpGoto || op == OpRet || op == OpAthrow || op == OpTableswitch || op == OpLookupswitch ||
			op >= OpIreturn && op <= OpReturn:
			ended, afterJump = true, true
		case isJump(op):
			ended, afterJump = true, false
		default:
			ended, afterJump = false, false
		}
	}
	nb := int32(len(a.blocks))
	if nb == 0 {
		return false
	}
	a.blocks[nb-1].end = int32(len(insns))
	if runStart >= 0 {
		a.at[insns[runStart].Label.Offset] = nb + 1
	}
	return true
}

// assignHandlers finds the exception handlers' blocks and caught types,
// and lists for each block the handlers covering it.
func (a *analyzer) assignHandlers() error {
	handlers := a.code.Handlers
	if len(handlers) == 0 {
		return nil
	}
	nb := int32(len(a.blocks))
	a.counts = slices.Grow(a.counts[:0], int(nb))[:nb]
	clear(a.counts)
	for i, h := range handlers {
		s, e, hb := a.blockOf(h.Start), a.blockOf(h.End), a.blockOf(h.Handler)
		if s < 0 || e < 0 || hb < 0 || hb >= nb {
			return fmt.Errorf("exception handler %d refers to a label that is not placed", i)
		}
		catch := objType(nThrowable)
		if h.CatchType != 0 {
			catch = a.classType(h.CatchType)
		}
		a.hBlock = append(a.hBlock, hb)
		a.hCatch = append(a.hCatch, catch)
		for b := s; b < e; b++ {
			a.counts[b]++
		}
	}
	at := int32(0)
	for b := range a.blocks {
		a.blocks[b].hFrom, a.blocks[b].hTo = at, at
		at += a.counts[b]
	}
	a.blockHandlers = slices.Grow(a.blockHandlers[:0], int(at))[:at]
	for i, h := range handlers {
		for b := a.blockOf(h.Start); b < a.blockOf(h.End); b++ {
			blk := &a.blocks[b]
			a.blockHandlers[blk.hTo] = int32(i)
			blk.hTo++
		}
	}
	return nil
}

// enter allocates the blocks' entry states and flows the method's entry
// state, `this` and the parameters of descriptor desc, into the first.
func (a *analyzer) enter(m *Member, desc string, static bool) error {
	nb, ml := len(a.blocks), a.maxLocals
	if nb*ml > maxStateSlots {
		// Only crafted code gets here (java.base's largest is under 10k).
		return fmt.Errorf("too large for frame computation: %d blocks × %d locals", nb, ml)
	}
	a.entryLocals = slices.Grow(a.entryLocals[:0], nb*ml)[:nb*ml]
	clear(a.entryLocals)
	if err := a.params(m, desc, static); err != nil {
		return err
	}
	if a.frames && len(a.given) > 0 {
		if err := a.seed(); err != nil {
			return err
		}
	}
	a.sp = 0
	a.curBlock = 0
	a.flowTo(0)
	return nil
}

// params sets the method's entry locals, `this` and the parameters of
// descriptor desc, in a.cur (sized to a.maxLocals), the others Top.
func (a *analyzer) params(m *Member, desc string, static bool) error {
	ml := a.maxLocals
	a.cur = slices.Grow(a.cur[:0], ml)[:ml]
	clear(a.cur)
	a.thisType = a.classType(a.c.This)
	slot := 0
	if !static {
		if a.pool.Utf8(m.Name) == "<init>" && a.thisType != tObject {
			a.cur[0] = tUninitThis
		} else {
			a.cur[0] = a.thisType
		}
		slot = 1
	}
	for j := 1; ; {
		t, next := nextParam(desc, j)
		if next < 0 {
			return fmt.Errorf("malformed method descriptor %q", desc)
		}
		if t == "" {
			return nil
		}
		a.cur[slot] = a.typeOf(t)
		slot += t.Size()
		j = next
	}
}

// iterate interprets the blocks whose entry state changed, in code order,
// until none does.
func (a *analyzer) iterate() error {
	nb := int32(len(a.blocks))
	for a.again = true; a.again && a.err == nil; {
		a.again = false
		for b := int32(0); b < nb && a.err == nil; b++ {
			if a.blocks[b].flags&bDirty != 0 {
				a.blocks[b].flags &^= bDirty
				a.curBlock = b
				a.run(b)
			}
		}
	}
	if a.err != nil && a.errAt >= 0 {
		return fmt.Errorf("instruction %d (%s): %w", a.errAt, OpNames[a.insns[a.errAt].Op], a.err)
	}
	return a.err
}

// finish sets the code's max locals, max stack and frames, replacing dead
// code and trimming the handlers that covered it.
func (a *analyzer) finish() error {
	code := a.code
	code.MaxLocals = uint16(a.maxLocals)
	if !a.frames {
		code.MaxStack = uint16(a.maxStack)
		code.Frames = nil
		return nil
	}
	dead := false
	for b := range a.blocks {
		if a.blocks[b].flags&bReached == 0 {
			dead = true
			a.blocks[b].flags |= bFrame
			a.maxStack = max(a.maxStack, 1)
		}
	}
	if a.maxStack > 0xFFFF {
		return fmt.Errorf("needs a stack of %d slots, more than 65535", a.maxStack)
	}
	code.MaxStack = uint16(a.maxStack)
	if dead {
		a.trimHandlers()
	}
	a.emitFrames()
	if dead || len(a.inserts) > 0 {
		a.rewrite()
	}
	return nil
}

// ensureLabel returns block b's label, creating one if it has none.
func (a *analyzer) ensureLabel(b int32) *Label {
	blk := &a.blocks[b]
	if blk.label == nil {
		blk.label = NewLabel()
		a.inserts = append(a.inserts, labelInsert{blk.first, blk.label})
	}
	return blk.label
}

// flowTo merges the current state (a.cur, a.stack[:a.sp]) into block b's
// entry state.
func (a *analyzer) flowTo(b int32) {
	a.flowState(b, a.stack[:a.sp])
}

func (a *analyzer) flowState(b int32, stack []vtype) {
	if b < 0 || int(b) >= len(a.blocks) {
		a.fail("control flows past the end of the code")
		return
	}
	blk := &a.blocks[b]
	ml := a.maxLocals
	dst := a.entryLocals[int(b)*ml : int(b+1)*ml]
	if blk.flags&bGiven != 0 {
		a.flowGiven(b, dst, len(stack))
		return
	}
	if blk.flags&bReached == 0 {
		a.reach(b, dst, stack)
		a.markDirty(b)
		return
	}
	if int(blk.nstack) != len(stack) {
		a.fail("stack height %d differs from %d at a join point (instruction %d)", len(stack), blk.nstack, blk.first)
		return
	}
	changed := false
	cur := a.cur[:len(dst)]
	for i, t := range cur {
		if dst[i] != t && a.merge(&dst[i], t) {
			changed = true
		}
	}
	ds := a.stacks[blk.stackAt : blk.stackAt+blk.nstack]
	for i, t := range stack {
		if ds[i] != t && a.merge(&ds[i], t) {
			changed = true
			if ds[i] == tTop && t.isRef() && a.unknown != nil {
				// Two references merged to Top: the hierarchy did not
				// know one. A value on the stack is always used.
				a.fail("%w", a.unknown)
			}
		}
	}
	if changed {
		a.markDirty(b)
	}
}

// reach makes the current locals and stack the entry state of block b,
// reached for the first time; dst is its locals.
func (a *analyzer) reach(b int32, dst, stack []vtype) {
	blk := &a.blocks[b]
	blk.flags |= bReached
	copy(dst, a.cur)
	blk.stackAt, blk.nstack = int32(len(a.stacks)), int32(len(stack))
	a.stacks = append(a.stacks, stack...)
}

func (a *analyzer) markDirty(b int32) {
	blk := &a.blocks[b]
	if blk.flags&bDirty == 0 {
		blk.flags |= bDirty
		if b <= a.curBlock {
			a.again = true
		}
	}
}

// merge merges t into *dst and reports whether *dst changed.
func (a *analyzer) merge(dst *vtype, t vtype) bool {
	d := *dst
	if d == t || d == tTop {
		return false
	}
	m := tTop
	if d.isRef() && t.isRef() {
		switch {
		case t == tNull:
			return false
		case d == tNull:
			m = t
		default:
			m = a.mergeRefs(d, t)
		}
	}
	if m == d {
		return false
	}
	*dst = m
	return true
}

// mergeRefs returns the merge of two different object types.
func (a *analyzer) mergeRefs(x, y vtype) vtype {
	if !a.frames {
		return tObject // only max_stack is wanted: types do not matter
	}
	if x > y {
		x, y = y, x
	}
	key := uint64(x)<<32 | uint64(y)
	m, ok := a.merged[key]
	if !ok {
		var unknown *UnknownTypeError
		if m, unknown = a.mergeNames(a.names[x.arg()], a.names[y.arg()]); unknown != nil {
			// No guess: a local of unknown type is Top, which a frame may
			// hold as long as no instruction reads it (exec's aload
			// checks); on the stack it fails (flowState).
			m, a.unknowns[key] = tTop, unknown
		}
		a.merged[key] = m
	}
	if m == tTop && a.unknown == nil {
		a.unknown = a.unknowns[key] // each method meeting it learns why
	}
	return m
}

// mergeNames merges two class names or array descriptors as ASM's
// Frame.merge does: same-dimension arrays of references merge element-wise;
// other arrays become an array of Object of the smaller dimension (an array
// of primitives counting one dimension less), or Object. It returns an
// error instead where the merge needs a class the hierarchy does not know.
func (a *analyzer) mergeNames(s, t string) (vtype, *UnknownTypeError) {
	ds, dt := Type(s).Dims(), Type(t).Dims() // a class name has none
	if ds == 0 && dt == 0 {
		c, err := a.commonSuper(s, t)
		if err != nil {
			return tTop, err
		}
		return a.intern(c), nil
	}
	es, et := Type(s).Element(), Type(t).Element()
	rs, rt := es.IsReference(), et.IsReference()
	if ds == dt && rs && rt {
		e, err := a.commonSuper(es.InternalName(), et.InternalName())
		if err != nil {
			return tTop, err
		}
		return a.intern(strings.Repeat("[", ds) + string(ObjectType(e))), nil
	}
	if ds > 0 && !rs {
		ds--
	}
	if dt > 0 && !rt {
		dt--
	}
	d := min(ds, dt)
	if d == 0 {
		return tObject, nil
	}
	return a.intern(strings.Repeat("[", d) + "Ljava/lang/Object;"), nil
}

// commonSuper returns the nearest common superclass of two classes, or
// java/lang/Object if either is an interface (the verifier treats
// interfaces as Object). Where the hierarchy does not know a class the
// answer needs, it returns an error: java/lang/Object would be a guess,
// which the verifier rejects wherever the code needs the real type.
func (a *analyzer) commonSuper(s, t string) (string, *UnknownTypeError) {
	const object = "java/lang/Object"
	if s == t {
		return s, nil
	}
	if s == object || t == object {
		return object, nil
	}
	unknown := func(missing string, err error) (string, *UnknownTypeError) {
		return "", &UnknownTypeError{A: s, B: t, Missing: missing, Err: err}
	}
	if a.h == nil {
		return unknown(s, ErrClassNotFound)
	}
	ci, errS := a.h.Lookup(s)
	cj, errT := a.h.Lookup(t)
	if errS == nil && ci.IsInterface() || errT == nil && cj.IsInterface() {
		return object, nil // whatever the other is
	}
	if errS != nil {
		return unknown(s, errS)
	}
	if errT != nil {
		return unknown(t, errT)
	}
	var err error
	anc := a.ancestry[:0]
	for n, info := s, ci; ; {
		anc = append(anc, n)
		if info.Super == "" || len(anc) > 1000 {
			break
		}
		n = info.Super
		if info, err = a.h.Lookup(n); err != nil {
			a.ancestry = anc
			return unknown(n, err)
		}
	}
	a.ancestry = anc
	for n, info, depth := t, cj, 0; depth < 1000; depth++ {
		for _, x := range anc {
			if x == n {
				return n, nil
			}
		}
		if info.Super == "" {
			break
		}
		n = info.Super
		if info, err = a.h.Lookup(n); err != nil {
			return unknown(n, err)
		}
	}
	return object, nil
}

// Operand-stack helpers. Underflow records an error and yields Top.

func (a *analyzer) push(t vtype) {
	if a.sp < len(a.stack) {
		a.stack[a.sp] = t
	} else {
		a.stack = append(a.stack, t)
	}
	a.sp++
	if a.sp > a.maxStack {
		a.maxStack = a.sp
	}
}

// push2 pushes a long or double: the type, then Top.
func (a *analyzer) push2(t vtype) {
	a.push(t)
	a.push(tTop)
}

// pushT pushes a value of size n (0, 1 or 2 slots).
func (a *analyzer) pushT(t vtype, n int32) {
	switch n {
	case 1:
		a.push(t)
	case 2:
		a.push2(t)
	}
}

func (a *analyzer) pop() vtype {
	if a.sp == 0 {
		a.fail("stack underflow")
		return tTop
	}
	a.sp--
	return a.stack[a.sp]
}

func (a *analyzer) popN(n int) {
	if a.sp < n {
		a.fail("stack underflow")
		a.sp = 0
		return
	}
	a.sp -= n
}

// setLocal stores t in slot i; set2 stores a long or double in i and i+1.
func (a *analyzer) setLocal(i int, t vtype) {
	if i > 0 {
		if k := a.cur[i-1].kind(); k == VLong || k == VDouble {
			a.cur[i-1] = tTop // its second half is overwritten
			a.localsChanged = true
		}
	}
	if a.cur[i] != t {
		a.cur[i] = t
		a.localsChanged = true
	}
}

func (a *analyzer) set2(i int, t vtype) {
	a.setLocal(i, t)
	if a.cur[i+1] != tTop {
		a.cur[i+1] = tTop
		a.localsChanged = true
	}
}

// run interprets block b from its entry state and merges the result into
// its successors and exception handlers.
func (a *analyzer) run(b int32) {
	blk := a.blocks[b]
	a.enterBlock(b)
	handlers := a.blockHandlers[blk.hFrom:blk.hTo]
	a.localsChanged = true
	insns := a.insns
	last := -1
	for i := blk.first; i < blk.end; i++ {
		in := &insns[i]
		if in.Op == OpLabel {
			continue
		}
		if len(handlers) > 0 && a.localsChanged {
			// A handler may be entered before any instruction of its
			// range: it sees the locals as they are here.
			var one [1]vtype
			for _, h := range handlers {
				one[0] = a.hCatch[h]
				a.flowState(a.hBlock[h], one[:])
			}
		}
		a.localsChanged = false
		a.exec(int(i), in)
		if a.err != nil {
			if a.errAt < 0 {
				a.errAt = int(i)
			}
			return
		}
		last = int(i)
	}
	in := &insns[last]
	switch op := in.Op; {
	case op == OpGoto:
		a.flowTo(a.target(in.Label))
	case op == OpJsr:
		a.push(tRetAddr)
		a.flowTo(a.target(in.Label))
		a.sp--
		a.flowTo(b + 1)
	case isJump(op):
		a.flowTo(a.target(in.Label))
		a.flowTo(b + 1)
	case op == OpTableswitch || op == OpLookupswitch:
		a.flowTo(a.target(in.Switch.Default))
		for _, l := range in.Switch.Targets {
			a.flowTo(a.target(l))
		}
	case op >= OpIreturn && op <= OpReturn || op == OpAthrow || op == OpRet:
	default:
		a.flowTo(b + 1)
	}
	if a.err != nil && a.errAt < 0 {
		a.errAt = last
	}
}

// enterBlock makes block b's entry state the current state.
func (a *analyzer) enterBlock(b int32) {
	blk := &a.blocks[b]
	ml := a.maxLocals
	copy(a.cur, a.entryLocals[int(b)*ml:int(b+1)*ml])
	a.sp = 0
	for _, t := range a.stacks[blk.stackAt : blk.stackAt+blk.nstack] {
		a.push(t)
	}
}

func (a *analyzer) target(l *Label) int32 {
	b := a.blockOf(l)
	if b < 0 || int(b) >= len(a.blocks) {
		a.fail("jump to a label that is not placed before an instruction")
		return -1
	}
	return b
}

// blockOf returns the index of the block that label l starts (len(blocks)
// for a label after the last instruction), or -1.
func (a *analyzer) blockOf(l *Label) int32 {
	if l.Offset < 0 || l.Offset >= len(a.at) {
		return -1
	}
	return a.at[l.Offset] - 1
}

// site returns the index of the `new` site at instruction i.
func (a *analyzer) site(i int32) int {
	lo, hi := 0, len(a.sites)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a.sites[m].at < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// exec applies the effect of instruction in (at index i) to the state.
func (a *analyzer) exec(i int, in *Insn) {
	switch op := in.Op; op {
	case OpNop:
	case OpAconstNull:
		a.push(tNull)
	case OpIconstM1, OpIconst0, OpIconst1, OpIconst2, OpIconst3, OpIconst4, OpIconst5, OpBipush, OpSipush:
		a.push(tInt)
	case OpLconst0, OpLconst1:
		a.push2(tLong)
	case OpFconst0, OpFconst1, OpFconst2:
		a.push(tFloat)
	case OpDconst0, OpDconst1:
		a.push2(tDouble)
	case OpLdc, OpLdcW, OpLdc2W:
		a.ldc(in.Index)
	case OpIload:
		a.push(tInt)
	case OpLload:
		a.push2(tLong)
	case OpFload:
		a.push(tFloat)
	case OpDload:
		a.push2(tDouble)
	case OpAload:
		t := a.cur[in.Index]
		if t == tTop && a.frames {
			a.failRead(int(in.Index))
		}
		a.push(t)
	case OpIaload, OpBaload, OpCaload, OpSaload:
		a.popN(2)
		a.push(tInt)
	case OpLaload:
		a.popN(2)
		a.push2(tLong)
	case OpFaload:
		a.popN(2)
		a.push(tFloat)
	case OpDaload:
		a.popN(2)
		a.push2(tDouble)
	case OpAaload:
		a.popN(1)
		a.push(a.elementType(a.pop()))
	case OpIstore:
		a.popN(1)
		a.setLocal(int(in.Index), tInt)
	case OpFstore:
		a.popN(1)
		a.setLocal(int(in.Index), tFloat)
	case OpAstore:
		a.setLocal(int(in.Index), a.pop())
	case OpLstore:
		a.popN(2)
		a.set2(int(in.Index), tLong)
	case OpDstore:
		a.popN(2)
		a.set2(int(in.Index), tDouble)
	case OpIastore, OpFastore, OpAastore, OpBastore, OpCastore, OpSastore:
		a.popN(3)
	case OpLastore, OpDastore:
		a.popN(4)
	case OpPop:
		a.popN(1)
	case OpPop2:
		a.popN(2)
	case OpDup:
		t := a.pop()
		a.push(t)
		a.push(t)
	case OpDupX1:
		v1, v2 := a.pop(), a.pop()
		a.push(v1)
		a.push(v2)
		a.push(v1)
	case OpDupX2:
		v1, v2, v3 := a.pop(), a.pop(), a.pop()
		a.push(v1)
		a.push(v3)
		a.push(v2)
		a.push(v1)
	case OpDup2:
		v1, v2 := a.pop(), a.pop()
		a.push(v2)
		a.push(v1)
		a.push(v2)
		a.push(v1)
	case OpDup2X1:
		v1, v2, v3 := a.pop(), a.pop(), a.pop()
		a.push(v2)
		a.push(v1)
		a.push(v3)
		a.push(v2)
		a.push(v1)
	case OpDup2X2:
		v1, v2, v3, v4 := a.pop(), a.pop(), a.pop(), a.pop()
		a.push(v2)
		a.push(v1)
		a.push(v4)
		a.push(v3)
		a.push(v2)
		a.push(v1)
	case OpSwap:
		v1, v2 := a.pop(), a.pop()
		a.push(v1)
		a.push(v2)
	case OpIadd, OpIsub, OpImul, OpIdiv, OpIrem, OpIshl, OpIshr, OpIushr, OpIand, OpIor, OpIxor:
		a.popN(2)
		a.push(tInt)
	case OpLadd, OpLsub, OpLmul, OpLdiv, OpLrem, OpLand, OpLor, OpLxor:
		a.popN(4)
		a.push2(tLong)
	case OpFadd, OpFsub, OpFmul, OpFdiv, OpFrem:
		a.popN(2)
		a.push(tFloat)
	case OpDadd, OpDsub, OpDmul, OpDdiv, OpDrem:
		a.popN(4)
		a.push2(tDouble)
	case OpLshl, OpLshr, OpLushr:
		a.popN(3)
		a.push2(tLong)
	case OpIneg, OpI2b, OpI2c, OpI2s:
		a.popN(1)
		a.push(tInt)
	case OpLneg:
		a.popN(2)
		a.push2(tLong)
	case OpFneg:
		a.popN(1)
		a.push(tFloat)
	case OpDneg:
		a.popN(2)
		a.push2(tDouble)
	case OpIinc:
	case OpI2l:
		a.popN(1)
		a.push2(tLong)
	case OpI2f:
		a.popN(1)
		a.push(tFloat)
	case OpI2d:
		a.popN(1)
		a.push2(tDouble)
	case OpL2i:
		a.popN(2)
		a.push(tInt)
	case OpL2f:
		a.popN(2)
		a.push(tFloat)
	case OpL2d:
		a.popN(2)
		a.push2(tDouble)
	case OpF2i:
		a.popN(1)
		a.push(tInt)
	case OpF2l:
		a.popN(1)
		a.push2(tLong)
	case OpF2d:
		a.popN(1)
		a.push2(tDouble)
	case OpD2i:
		a.popN(2)
		a.push(tInt)
	case OpD2l:
		a.popN(2)
		a.push2(tLong)
	case OpD2f:
		a.popN(2)
		a.push(tFloat)
	case OpLcmp, OpDcmpl, OpDcmpg:
		a.popN(4)
		a.push(tInt)
	case OpFcmpl, OpFcmpg:
		a.popN(2)
		a.push(tInt)
	case OpIfeq, OpIfne, OpIflt, OpIfge, OpIfgt, OpIfle, OpIfnull, OpIfnonnull,
		OpTableswitch, OpLookupswitch, OpIreturn, OpFreturn, OpAreturn, OpAthrow,
		OpMonitorenter, OpMonitorexit:
		a.popN(1)
	case OpIfIcmpeq, OpIfIcmpne, OpIfIcmplt, OpIfIcmpge, OpIfIcmpgt, OpIfIcmple, OpIfAcmpeq, OpIfAcmpne,
		OpLreturn, OpDreturn:
		a.popN(2)
	case OpGoto, OpJsr, OpRet, OpReturn:
	case OpGetstatic:
		r := a.ref(in.Index)
		a.pushT(r.ret, r.retSlots)
	case OpPutstatic:
		a.popN(int(a.ref(in.Index).args))
	case OpGetfield:
		r := a.ref(in.Index)
		a.popN(1)
		a.pushT(r.ret, r.retSlots)
	case OpPutfield:
		a.popN(int(a.ref(in.Index).args) + 1)
	case OpInvokevirtual, OpInvokespecial, OpInvokestatic, OpInvokeinterface, OpInvokedynamic:
		r := a.ref(in.Index)
		a.popN(int(r.args))
		if op == OpInvokespecial && r.init {
			a.initialize(a.pop())
		} else if op != OpInvokestatic && op != OpInvokedynamic {
			a.popN(1)
		}
		a.pushT(r.ret, r.retSlots)
	case OpNew:
		s := a.site(int32(i))
		if s >= len(a.sites) || a.sites[s].at != int32(i) {
			a.fail("internal error: no site for new")
			return
		}
		a.push(uninitType(s))
	case OpNewarray:
		a.popN(1)
		a.push(a.primArray(in.Const))
	case OpAnewarray:
		a.popN(1)
		a.push(a.arrayType(in.Index))
	case OpArraylength, OpInstanceof:
		a.popN(1)
		a.push(tInt)
	case OpCheckcast:
		a.popN(1)
		a.push(a.classType(in.Index))
	case OpMultianewarray:
		if in.Const < 1 {
			a.fail("multianewarray with %d dimensions", in.Const)
			return
		}
		a.popN(int(in.Const))
		a.push(a.classType(in.Index))
	default:
		a.fail("invalid opcode %d", op)
	}
}

// ldc pushes the type of constant i.
func (a *analyzer) ldc(i uint16) {
	switch a.pool.Tag(i) {
	case TagInteger:
		a.push(tInt)
	case TagFloat:
		a.push(tFloat)
	case TagLong:
		a.push2(tLong)
	case TagDouble:
		a.push2(tDouble)
	case TagString:
		a.push(objType(nString))
	case TagClass:
		a.push(objType(nClass))
	case TagMethodType:
		a.push(objType(nMethodType))
	case TagMethodHandle:
		a.push(objType(nMethodHandle))
	case TagDynamic:
		r := a.ref(i)
		a.pushT(r.ret, r.retSlots)
	default:
		a.fail("ldc of constant %d, which is not loadable", i)
	}
}

// primArrays are the descriptors of the arrays newarray creates, by atype.
var primArrays = func() (ds [12]string) {
	for atype := range ds {
		if t, ok := NewarrayType(int32(atype)); ok {
			ds[atype] = "[" + string(t)
		}
	}
	return ds
}()

func (a *analyzer) primArray(atype int32) vtype {
	if atype < 0 || int(atype) >= len(primArrays) || primArrays[atype] == "" {
		a.fail("newarray of unknown type %d", atype)
		return tObject
	}
	return a.intern(primArrays[atype])
}

// initialize replaces every copy of the uninitialized value t, whose
// constructor has just been called, by the initialized type.
func (a *analyzer) initialize(t vtype) {
	var init vtype
	switch t.kind() {
	case VUninitializedThis:
		init = a.thisType
	case VUninitialized:
		init = a.sites[t.arg()].class
	default:
		a.fail("<init> called on an initialized value")
		return
	}
	for i, x := range a.cur {
		if x == t {
			a.cur[i] = init
			a.localsChanged = true
		}
	}
	for i, x := range a.stack[:a.sp] {
		if x == t {
			a.stack[i] = init
		}
	}
}

// trimHandlers drops the unreachable blocks from the exception table's
// ranges, splitting ranges where needed; the dead code becomes `athrow`,
// which must not be covered by a handler that would no longer be in the
// frames' view.
func (a *analyzer) trimHandlers() {
	hs := a.code.Handlers
	var out []Handler
	for i, h := range hs {
		s, e := a.blockOf(h.Start), a.blockOf(h.End)
		all := true
		for b := s; b < e; b++ {
			if a.blocks[b].flags&bReached == 0 {
				all = false
				break
			}
		}
		if all {
			if out != nil {
				out = append(out, h)
			}
			continue
		}
		if out == nil {
			out = append(make([]Handler, 0, len(hs)+4), hs[:i]...)
		}
		for b := s; b < e; {
			for b < e && a.blocks[b].flags&bReached == 0 {
				b++
			}
			if b == e {
				break
			}
			r0 := b
			for b < e && a.blocks[b].flags&bReached != 0 {
				b++
			}
			nh := h
			if r0 != s {
				nh.Start = a.ensureLabel(r0)
			}
			if b != e {
				nh.End = a.ensureLabel(b)
			}
			out = append(out, nh)
		}
	}
	if out != nil {
		a.code.Handlers = out
	}
}

// emitFrames sets code.Frames from the entry states of the blocks that
// need a frame; unreachable blocks get locals () and stack (Throwable).
func (a *analyzer) emitFrames() {
	n, slots := 0, 0
	ml := a.maxLocals
	for b := range a.blocks {
		if blk := &a.blocks[b]; blk.flags&bFrame != 0 {
			n++
			if blk.flags&bReached != 0 {
				slots += entries(a.entryLocals[b*ml:(b+1)*ml]) + entries(a.stacks[blk.stackAt:blk.stackAt+blk.nstack])
			} else {
				slots++
			}
		}
	}
	if n == 0 {
		a.code.Frames = nil
		return
	}
	frames := make([]Frame, 0, n)
	types := make([]VType, 0, slots)
	for b := range a.blocks {
		blk := &a.blocks[b]
		if blk.flags&bFrame == 0 {
			continue
		}
		at := a.ensureLabel(int32(b))
		blk = &a.blocks[b]
		if blk.flags&bReached == 0 {
			types = append(types, VType{Kind: VObject, Class: wellKnownNames[nThrowable]})
			frames = append(frames, Frame{At: at, Locals: nil, Stack: types[len(types)-1:]})
			continue
		}
		frames, types = a.appendFrame(frames, types, at, a.entryLocals[b*ml:(b+1)*ml], a.stacks[blk.stackAt:blk.stackAt+blk.nstack])
	}
	a.code.Frames = frames
}

// appendFrame appends to frames the frame at label at of the state locals
// and stack, its types appended to types: a long or double is one entry,
// the locals' trailing Tops are dropped.
func (a *analyzer) appendFrame(frames []Frame, types []VType, at *Label, locals, stack []vtype) ([]Frame, []VType) {
	start := len(types)
	n := len(locals)
	for n > 0 && locals[n-1] == tTop {
		n--
	}
	types = a.appendTypes(types, locals[:n])
	nl := len(types)
	types = a.appendTypes(types, stack)
	return append(frames, Frame{At: at, Locals: types[start:nl:nl], Stack: types[nl:len(types):len(types)]}), types
}

func (a *analyzer) appendTypes(types []VType, slots []vtype) []VType {
	for j := 0; j < len(slots); j++ {
		t := slots[j]
		types = append(types, a.outType(t))
		if k := t.kind(); k == VLong || k == VDouble {
			j++
		}
	}
	return types
}

// entries returns the number of frame entries for slots: trailing Tops are
// dropped, and a long or double is one entry.
func entries(slots []vtype) int {
	n := len(slots)
	for n > 0 && slots[n-1] == tTop {
		n--
	}
	e := 0
	for j := 0; j < n; j++ {
		e++
		if k := slots[j].kind(); k == VLong || k == VDouble {
			j++
		}
	}
	return e
}

func (a *analyzer) outType(t vtype) VType {
	switch t.kind() {
	case VObject:
		return VType{Kind: VObject, Class: a.names[t.arg()]}
	case VUninitialized:
		s := &a.sites[t.arg()]
		if s.label == nil {
			s.label = NewLabel()
			a.inserts = append(a.inserts, labelInsert{s.at, s.label})
		}
		return VType{Kind: VUninitialized, New: s.label}
	case kRetAddr:
		return VType{}
	}
	return VType{Kind: t.kind()}
}

// rewrite inserts the new labels and replaces each unreachable block by
// its labels and a single athrow.
func (a *analyzer) rewrite() {
	slices.SortStableFunc(a.inserts, func(x, y labelInsert) int { return int(x.at - y.at) })
	old := a.insns
	out := make([]Insn, 0, len(old)+len(a.inserts))
	ins := a.inserts
	for b := range a.blocks {
		blk := &a.blocks[b]
		for i := blk.start; i < blk.end; i++ {
			for len(ins) > 0 && ins[0].at == i {
				out = append(out, Insn{Op: OpLabel, Label: ins[0].label})
				ins = ins[1:]
			}
			in := old[i]
			if blk.flags&bReached == 0 && in.Op != OpLabel {
				if i == blk.first {
					out = append(out, Insn{Op: OpAthrow})
				}
				continue
			}
			out = append(out, in)
		}
	}
	for _, x := range ins {
		out = append(out, Insn{Op: OpLabel, Label: x.label})
	}
	a.code.Insns = out
}
