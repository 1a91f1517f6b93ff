package weaver

import (
	"slices"
	"sync"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// emitter rewrites one method body. Its guard takes the thread's bypass
// token, null while the JVM bootstraps (BIB) or while the thread bypasses
// woven code (DIB):
//
//	getstatic weft/rt/BIB.ready; ifeq SLOW
//	invokestatic weft/rt/DIB.token()Ljava/lang/Object; goto GOT
//	SLOW: invokestatic weft/rt/Weft.enter()Ljava/lang/Object;
//	GOT: astore TOKEN
//
// Without around advice the body is then woven in place: each advice call
// (each run of them) is skipped when the token is null,
//
//	aload TOKEN; ifnull SKIP; <push TOKEN and values>; invokestatic helper; SKIP:
//
// so bootstrapping and bypassing threads run the body's own code. With
// around advice, whose closure needs the original code apart (around.go),
// the guard goes on with
//
//	aload TOKEN; ifnull ORIGINAL
//	  <woven copy of the body, passing TOKEN to each advice helper>
//	ORIGINAL:
//	  <original body, unchanged>
//
// Either way there is no wrapper method and no extra frame.
type emitter struct {
	cw     *classWeaver
	m      *classfile.Member
	code   *classfile.Code
	static bool
	ctor   bool
	desc   string

	out          []classfile.Insn
	callHandlers []classfile.Handler // innermost: one per call-site shadow
	execHandlers []classfile.Handler // outermost: the execution shadow
	tmp          int                 // first free local slot
	base         int                 // first slot free for a shadow's temporaries
	token        int                 // local slot of the guard's bypass token
	thisSlot     int                 // local slot `this` is read from: 0, or its copy (saveThis)
	// inPlace is set when the body is woven in place (emitInPlace): each
	// advice call tests the token; skip is the last test's target.
	inPlace bool
	// lateToken: the token is taken in the after-throwing handler, not
	// at entry (throwing.go).
	lateToken bool
	skip      *classfile.Label
	// fuse: the next helper call is the method's entry helper, its guard
	// (fused.go).
	fuse bool
	// hasDirect is set when the guard reads the sister's constant direct
	// (leaf.go), at directAt in the instructions it went to; direct
	// says that every helper called so far calls its advice directly,
	// helpers counts them.
	hasDirect bool
	directAt  int
	direct    bool
	helpers   int
	// savedArgs holds, when after advice of the execution shadow uses the
	// arguments, the slots where they were saved at entry (the body may
	// assign its parameters; the join point's arguments are the entry values).
	savedArgs []int

	// segments of the woven copy covered by the execution shadow's
	// after-throwing handler (the exits' advice calls are left out).
	segStart *classfile.Label
	segLen   int
	segThrow bool // the open segment holds an instruction that can throw
	segments [][2]*classfile.Label
	inExec   bool
	// execValues caches execCtx (once per entry and per exit otherwise).
	execValues *valueCtx
	// stubs maps exception table entries of handler shadows to their
	// stubs (handler.go).
	stubs map[int]*classfile.Label
	// preStart and preEnd delimit the copy's code before super(...) that
	// the preinitialization shadow's after-throwing handler covers
	// (init.go); preFrom is len(out) at preStart.
	preStart, preEnd *classfile.Label
	preFrom          int

	// counter is the slot of the body's bytecode count, where blocks
	// (the size of the block starting at each instruction) is not nil
	// (bytecodes.go); uncountedWhy says why advice taking the count gets
	// 0.
	counter      int
	blocks       []int32
	uncountedWhy string
}

// valueCtx says where a shadow's values are at one point of woven code.
type valueCtx struct {
	s        *shadow
	target   int   // local slot of the call target, -1 if none
	args     []int // local slots of the arguments
	argDescs []classfile.Type
	ret      int            // local slot of the returned value, -1 if none
	retDesc  classfile.Type // its type
	exc      int            // local slot of the thrown exception, -1 if none
}

func (e *emitter) add(in classfile.Insn) {
	e.out = append(e.out, in)
	if in.Op != classfile.OpLabel {
		e.segLen++
		e.segThrow = e.segThrow || canThrow(in.Op)
	}
}

func (e *emitter) label(l *classfile.Label) { e.add(classfile.Insn{Op: classfile.OpLabel, Label: l}) }

func (e *emitter) op(op uint16) { e.add(classfile.Insn{Op: op}) }

func (e *emitter) local(op uint16, slot int) {
	e.add(classfile.Insn{Op: op, Index: uint16(slot)})
}

func (e *emitter) invokestatic(owner, name, desc string) {
	e.add(classfile.Insn{Op: classfile.OpInvokestatic, Index: e.cw.c.Pool.AddMethodref(owner, name, desc, false)})
}

// alloc reserves n local slots and returns the first.
func (e *emitter) alloc(n int) int {
	s := e.tmp
	e.tmp += n
	return s
}

func (e *emitter) openSegment() {
	e.segStart = classfile.NewLabel()
	e.label(e.segStart)
	e.segLen = 0
	e.segThrow = false
	e.inExec = true
}

func (e *emitter) closeSegment() {
	if !e.inExec {
		return
	}
	e.inExec = false
	if e.segLen == 0 || !e.segThrow {
		// Nothing there can throw (java.lang.Object.<init> is just a
		// return): no handler, which also keeps C2 away from a handler
		// in Object.<init>.
		return
	}
	end := classfile.NewLabel()
	e.label(end)
	e.segments = append(e.segments, [2]*classfile.Label{e.segStart, end})
}

// emit rewrites the body with the shadows findShadows listed (the
// execution shadow first, if any, then the call shadows in code order).
func (e *emitter) emit(shadows []*shadow) error {
	set := splitShadows(shadows)
	if len(set.body) == 1 && set.body[0].Kind == advice.MethodExecution && aroundIndex(set.body[0].applied) >= 0 {
		// the body moves to the join point method, its handlers and calls with it
		return e.emitAroundExecution(set.body[0], append(set.calls, set.handlers...))
	}
	if !anyAround(shadows) {
		return e.emitInPlace(set)
	}
	orig := e.code.Insns
	lm := newLabelCopier(orig).copy
	e.out = getInsns(2*len(orig) + 8*len(shadows) + 16)
	e.reserveLocals()
	e.startCount(set.body)
	original := classfile.NewLabel()
	e.guard(original)
	e.wovenCopy(orig, set, lm)
	e.afterThrowing(set.body)
	e.preThrowing(set.pre)
	e.handlerStubs(set.handlers, lm)
	e.label(original)
	e.out = append(e.out, orig...)
	e.copyTables(lm)
	e.code.Insns = e.out
	// Encode's frame computation recomputes max stack and locals.
	return nil
}

// emitInPlace weaves the body itself, with no copy: the guard only takes
// the token, and each advice call is skipped when it is null (see
// skipIfBypassed). Bootstrapping and bypassing threads run the body with
// every advice call skipped, which is what the original body does, in
// half the code the JIT would compile otherwise.
func (e *emitter) emitInPlace(set shadowSet) error {
	orig := e.code.Insns
	same := func(l *classfile.Label) *classfile.Label { return l }
	e.out = getInsns(len(orig) + 16*len(set.body) + 16*len(set.calls) + 16)
	e.reserveLocals()
	e.startCount(set.body)
	e.inPlace = true
	e.lateToken = lateToken(set)
	if e.fuse = e.fusable(set); !e.fuse && !e.lateToken {
		e.takeToken()
	}
	e.wovenCopy(orig, set, same)
	e.afterThrowing(set.body)
	e.preThrowing(set.pre)
	e.handlerStubs(set.handlers, same)
	// Handlers: call-site ones innermost, then the body's own (the
	// handler shadows' entries jumping to their stubs), then the body
	// shadows'.
	hs := append([]classfile.Handler(nil), e.callHandlers...)
	for k, h := range e.code.Handlers {
		if stub := e.stubs[k]; stub != nil {
			h.Handler = stub
		}
		hs = append(hs, h)
	}
	e.code.Handlers = append(hs, e.execHandlers...)
	e.out = e.finishDirect(e.out)
	e.code.Insns = e.out
	return nil
}

// anyAround reports whether some shadow has around advice: its closure
// needs the original code apart (around.go), so the method keeps the
// guard → woven copy | original shape.
func anyAround(shadows []*shadow) bool {
	for _, s := range shadows {
		if aroundIndex(s.applied) >= 0 {
			return true
		}
	}
	return false
}

// shadowSet is a method's shadows by where they are woven.
type shadowSet struct {
	// body are the shadows spanning the body (in a constructor, from the
	// return of super(...) or this(...)), outermost first: initialization,
	// then constructor or method execution, or static initialization.
	body     []*shadow
	pre      *shadow   // preinitialization (init.go)
	ifaces   []*shadow // interface initialization (init.go)
	handlers []*shadow // exception handlers (handler.go)
	calls    []*shadow // at an instruction, in code order
}

// splitShadows sorts the shadows findShadows listed (the execution shadow
// first, if any, then the call shadows in code order, then the rest).
func splitShadows(shadows []*shadow) shadowSet {
	var set shadowSet
	var exec *shadow
	for _, s := range shadows {
		switch s.Kind {
		case advice.MethodExecution, advice.ConstructorExecution, advice.StaticInitialization:
			exec = s
		case advice.Initialization:
			if s.Member.Owner != s.Within {
				set.ifaces = append(set.ifaces, s)
			} else {
				set.body = append(set.body, s)
			}
		case advice.PreInitialization:
			set.pre = s
		case advice.ExceptionHandler:
			set.handlers = append(set.handlers, s)
		default:
			set.calls = append(set.calls, s)
		}
	}
	if exec != nil {
		set.body = append(set.body, exec)
	}
	return set
}

// isBody reports whether shadows of kind k span a method body, whose
// this, target and arguments are the method's own.
func isBody(k advice.ShadowKind) bool {
	return k == advice.MethodExecution || k == advice.ConstructorExecution || k == advice.Initialization ||
		k == advice.StaticInitialization
}

// reserveLocals places the guard's token past the body's locals (and its
// parameters, which a body that never reads them may not count), and the
// copy of `this` where the body needs one (saveThis), emitted to e.out.
func (e *emitter) reserveLocals() {
	e.tmp = int(e.code.MaxLocals)
	if n := classfile.ArgSlots(e.desc); !e.static && n+1 > e.tmp {
		e.tmp = n + 1
	} else if e.static && n > e.tmp {
		e.tmp = n
	}
	e.token = e.alloc(1)
	e.saveThis()
	e.base = e.tmp
}

// guard emits the entry test that sends bootstrap and bypassing threads to
// the original body (the woven copy's guard).
func (e *emitter) guard(original *classfile.Label) {
	e.takeToken()
	e.local(classfile.OpAload, e.token)
	e.add(classfile.Insn{Op: classfile.OpIfnull, Label: original})
}

// takeToken stores the thread's bypass token, null while bootstrapping or
// bypassing.
func (e *emitter) takeToken() {
	// The guard reads BIB.ready inline, so each woven method has its own
	// profile of that branch: a shared one (inside Weft.enter) records the
	// bootstrap's "not ready" and makes the JIT keep, or deoptimize on, the
	// bootstrap path of every method compiled early. Only when the plain
	// read sees false does Weft.enter confirm it (FERRARI's double check).
	slow, got := classfile.NewLabel(), classfile.NewLabel()
	g := e.cw.guardRefs()
	e.add(classfile.Insn{Op: classfile.OpGetstatic, Index: g.ready})
	e.add(classfile.Insn{Op: classfile.OpIfeq, Label: slow})
	e.directEntry(got)
	e.add(classfile.Insn{Op: classfile.OpInvokestatic, Index: g.token})
	e.add(classfile.Insn{Op: classfile.OpGoto, Label: got})
	e.label(slow)
	e.add(classfile.Insn{Op: classfile.OpInvokestatic, Index: g.enter})
	e.label(got)
	e.local(classfile.OpAstore, e.token)
}

// wovenCopy emits the copy of the body with the advice of each shadow: the
// execution shadow's before advice at entry (in a constructor, after the
// super(...) or this(...) call), its after advice at each return past that
// point, and each call shadow around its instruction.
func (e *emitter) wovenCopy(orig []classfile.Insn, set shadowSet, lm func(*classfile.Label) *classfile.Label) {
	body, calls := set.body, set.calls
	execExits := false
	for _, s := range body {
		execExits = execExits || s.has(advice.AfterReturning, advice.After)
	}
	if len(body) > 0 && !e.ctor {
		e.enterExecution(set)
	}
	enterAt := -1 // in a constructor, the super(...) or this(...) call
	if len(body) > 0 {
		enterAt = body[0].at
	} else if len(set.ifaces) > 0 {
		enterAt = set.ifaces[0].at
	}
	if set.pre != nil {
		e.enterPre(set.pre)
	}
	postSuper := !e.ctor
	skip := skipNews(calls) // around.go
	for i, in := range orig {
		if skip[i] {
			e.count(i)
			continue
		}
		if in.Op != classfile.OpNew {
			e.count(i)
		}
		cp := copyInsn(in, lm)
		switch {
		case len(calls) > 0 && calls[0].at == i:
			e.tmp = e.base
			e.callShadow(calls[0], cp)
			calls = calls[1:]
		case execExits && postSuper && isReturn(in.Op):
			e.tmp = e.base
			e.execExit(body, cp)
		case set.pre != nil && i == set.pre.at:
			e.tmp = e.base
			e.exitPre(set.pre)
			e.add(cp)
		default:
			e.add(cp)
		}
		if in.Op == classfile.OpNew {
			// Counted after it: the label before a `new` names the
			// uninitialized value it makes (the kept frames refer to it).
			e.count(i)
		}
		if e.ctor && i == enterAt {
			postSuper = true
			e.tmp = e.base
			e.enterExecution(set)
		}
	}
	e.closeSegment()
}

// copyInsn copies an instruction of the original body, its labels mapped
// to their copies.
func copyInsn(in classfile.Insn, lm func(*classfile.Label) *classfile.Label) classfile.Insn {
	cp := in
	switch {
	case in.Op == classfile.OpLabel:
		cp.Label = lm(in.Label)
	case in.Switch != nil:
		sw := *in.Switch
		sw.Default = lm(sw.Default)
		sw.Targets = make([]*classfile.Label, len(in.Switch.Targets))
		for k, t := range in.Switch.Targets {
			sw.Targets[k] = lm(t)
		}
		sw.Keys = append([]int32(nil), in.Switch.Keys...)
		cp.Switch = &sw
	case in.Label != nil:
		cp.Label = lm(in.Label)
	}
	return cp
}

// enterExecution emits the before advice of the body shadows (outermost
// first), saves the arguments their after advice needs, and opens the
// range their after-throwing handler covers.
func (e *emitter) enterExecution(set shadowSet) {
	body := set.body
	for _, s := range body {
		e.execBefore(s)
		if s.Kind == advice.Initialization {
			e.ifaceInits(set.ifaces)
		}
	}
	if len(body) == 0 || body[0].Kind != advice.Initialization {
		e.ifaceInits(set.ifaces)
	}
	if len(body) == 0 {
		return
	}
	e.saveArgs(body)
	e.base = e.tmp
	e.openSegment()
}

// afterThrowing emits the body shadows' handler running their after
// throwing and after advice, innermost shadow and last declared advice
// first, then rethrowing.
func (e *emitter) afterThrowing(body []*shadow) {
	throws := false
	for _, s := range body {
		throws = throws || s.has(advice.AfterThrowing, advice.After)
	}
	if !throws || len(e.segments) == 0 {
		return
	}
	e.tmp = e.base
	h := classfile.NewLabel()
	e.label(h)
	exc := e.alloc(1)
	e.local(classfile.OpAstore, exc)
	if e.lateToken {
		e.takeToken()
	}
	for i := len(body) - 1; i >= 0; i-- {
		ctx := e.exitCtx(body[i])
		ctx.exc = exc
		for k := len(body[i].applied) - 1; k >= 0; k-- {
			a := body[i].applied[k]
			if a.Advice.Kind == advice.AfterThrowing || a.Advice.Kind == advice.After {
				e.callHelper(ctx, a)
			}
		}
	}
	e.local(classfile.OpAload, exc)
	e.op(classfile.OpAthrow)
	for _, seg := range e.segments {
		e.execHandlers = append(e.execHandlers, classfile.Handler{Start: seg[0], End: seg[1], Handler: h})
	}
}

// copyTables gives the woven copy its own exception handlers, line numbers
// and local variables, mapped from the original body's.
func (e *emitter) copyTables(lm func(*classfile.Label) *classfile.Label) {
	code := e.code
	// Handlers: call-site ones are innermost, then the copy's own, then
	// the execution shadow's, then the original body's (disjoint).
	hs := append([]classfile.Handler(nil), e.callHandlers...)
	for k, h := range code.Handlers {
		to := lm(h.Handler)
		if stub := e.stubs[k]; stub != nil {
			to = stub
		}
		hs = append(hs, classfile.Handler{Start: lm(h.Start), End: lm(h.End), Handler: to, CatchType: h.CatchType})
	}
	hs = append(hs, e.execHandlers...)
	hs = append(hs, code.Handlers...)
	code.Handlers = hs
	lines := make([]classfile.LineNumber, len(code.Lines), 2*len(code.Lines))
	copy(lines, code.Lines)
	for _, ln := range code.Lines {
		lines = append(lines, classfile.LineNumber{Start: lm(ln.Start), Line: ln.Line})
	}
	code.Lines = lines
	code.Locals = copyLocals(code.Locals, lm)
	code.LocalTypes = copyLocals(code.LocalTypes, lm)
	code.Frames = copyFrames(code.Frames, lm)
}

// copyFrames returns the body's frames followed by their copies for the
// woven body, which has the same locals and stack at each copied label.
// A frame naming an uninitialized value is not copied: around advice on
// a constructor call drops its `new` from the copy (skipNews), and the
// analysis computes the frames there.
func copyFrames(fs []classfile.Frame, lm func(*classfile.Label) *classfile.Label) []classfile.Frame {
	out := fs[:len(fs):len(fs)]
	for _, f := range fs {
		if hasUninitialized(f.Locals) || hasUninitialized(f.Stack) {
			continue
		}
		f.At = lm(f.At)
		out = append(out, f)
	}
	return out
}

func hasUninitialized(ts []classfile.VType) bool {
	for _, t := range ts {
		if t.Kind == classfile.VUninitialized {
			return true
		}
	}
	return false
}

// copyLocals returns vs followed by their copies for the woven body.
func copyLocals(vs []classfile.LocalVar, lm func(*classfile.Label) *classfile.Label) []classfile.LocalVar {
	if len(vs) == 0 {
		return vs
	}
	out := make([]classfile.LocalVar, len(vs), 2*len(vs))
	copy(out, vs)
	for _, v := range vs {
		v.Start, v.End = lm(v.Start), lm(v.End)
		out = append(out, v)
	}
	return out
}

// insnBufs recycles the instruction lists of woven bodies: a list is dead
// once Encode has written the method, and a fresh one per method was the
// weaver's largest allocation (cleared memory included).
var insnBufs sync.Pool

// getInsns returns an empty instruction list with room for n.
func getInsns(n int) []classfile.Insn {
	if b, ok := insnBufs.Get().(*[]classfile.Insn); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]classfile.Insn, 0, n)
}

// putInsns hands a list back for another woven body; nothing may use it
// after.
func putInsns(b []classfile.Insn) {
	if cap(b) == 0 || cap(b) > 1<<16 {
		return // keep huge ones from pinning memory
	}
	b = b[:0]
	insnBufs.Put(&b)
}

// guardRefs holds the constant pool indexes of the guard's references.
type guardRefs struct{ ready, token, enter uint16 }

// guardRefs returns the pool indexes of the guard's references, added to
// the class's pool by its first woven method.
func (cw *classWeaver) guardRefs() guardRefs {
	if cw.guard.ready == 0 {
		p := cw.c.Pool
		cw.guard = guardRefs{ready: addFieldref(p, rtnames.BIBReady),
			token: addMethodref(p, rtnames.DIBToken),
			enter: addMethodref(p, rtnames.WeftEnter)}
	}
	return cw.guard
}

// labelCopier maps the labels of a just decoded body to their copies. The
// body places its labels in increasing offset order (DecodeCode makes one
// label per offset), so a label's copy is found by binary search on its
// offset: no map per woven method, and the copies are allocated at once.
// Labels out of that order (not from DecodeCode) fall back to a map.
type labelCopier struct {
	orig   []*classfile.Label // the body's placed labels, by offset
	copies []classfile.Label  // copies[i] is the copy of orig[i]
	other  map[*classfile.Label]*classfile.Label
}

func newLabelCopier(insns []classfile.Insn) *labelCopier {
	n := 0
	for _, in := range insns {
		if in.Op == classfile.OpLabel && in.Label != nil {
			n++
		}
	}
	lc := &labelCopier{orig: make([]*classfile.Label, 0, n), copies: make([]classfile.Label, n)}
	for _, in := range insns {
		if in.Op != classfile.OpLabel || in.Label == nil {
			continue
		}
		if k := len(lc.orig); k > 0 && lc.orig[k-1].Offset >= in.Label.Offset || in.Label.Offset < 0 {
			lc.orig, lc.copies = nil, nil // not decoded order: map only
			break
		}
		lc.orig = append(lc.orig, in.Label)
	}
	for i := range lc.copies {
		lc.copies[i] = classfile.Label{Offset: -1}
	}
	return lc
}

func (lc *labelCopier) copy(l *classfile.Label) *classfile.Label {
	if l == nil {
		return nil
	}
	lo, hi := 0, len(lc.orig)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lc.orig[m].Offset < l.Offset {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(lc.orig) && lc.orig[lo] == l {
		return &lc.copies[lo]
	}
	if x, ok := lc.other[l]; ok {
		return x
	}
	if lc.other == nil {
		lc.other = map[*classfile.Label]*classfile.Label{}
	}
	x := classfile.NewLabel()
	lc.other[l] = x
	return x
}

// canThrow reports whether an instruction may throw: everything but
// constants, local loads and stores, stack shuffles, non-dividing
// arithmetic, conversions, comparisons, branches and returns.
func canThrow(op uint16) bool {
	switch {
	case op <= classfile.OpLdc2W, // nop, constants, ldc (ldc of a class/condy can, see below)
		op >= classfile.OpIload && op <= classfile.OpAload3,
		op >= classfile.OpIstore && op <= classfile.OpAstore3,
		op >= classfile.OpPop && op <= classfile.OpDmul,
		op >= classfile.OpIneg && op <= classfile.OpLxor,
		op >= classfile.OpIinc && op <= classfile.OpReturn && op != classfile.OpJsr && op != classfile.OpRet,
		op == classfile.OpIfnull || op == classfile.OpIfnonnull || op == classfile.OpGotoW:
		return op == classfile.OpLdc || op == classfile.OpLdcW || op == classfile.OpLdc2W
	}
	return true
}

func isReturn(op uint16) bool { return op >= classfile.OpIreturn && op <= classfile.OpReturn }

// execCtx gives the values of an execution shadow: this, the parameters
// in their slots.
func (e *emitter) execCtx(s *shadow) valueCtx {
	if e.execValues != nil && e.execValues.s == s {
		return *e.execValues // a copy: callers set ret, exc and args
	}
	ctx := e.newExecCtx(s)
	e.execValues = &ctx
	return ctx
}

func (e *emitter) newExecCtx(s *shadow) valueCtx {
	m, _ := classfile.ParseMethodDesc(e.desc) // valid: the execution shadow matched
	ctx := valueCtx{s: s, target: -1, ret: -1, exc: -1, argDescs: m.Params, retDesc: m.Return}
	slot := 0
	if !e.static {
		slot = 1
	}
	for _, p := range m.Params {
		ctx.args = append(ctx.args, slot)
		slot += p.Size()
	}
	return ctx
}

// saveArgs copies the parameters to fresh slots, reserved for the whole
// body, if after advice of a body shadow uses them.
func (e *emitter) saveArgs(body []*shadow) {
	use := false
	for _, s := range body {
		for _, a := range s.applied {
			if a.Advice.Kind != advice.Before && needs(a, advice.Arg, advice.ArrayDims, advice.JoinPoint, advice.EachArg) {
				use = true
			}
		}
	}
	ctx := e.execCtx(body[0])
	if !use || !writesParams(e.code.Insns, ctx.args, ctx.argDescs) {
		return // the advice reads the parameters in place
	}
	for k, p := range ctx.argDescs {
		slot := e.alloc(p.Size())
		e.local(p.LoadOp(), ctx.args[k])
		e.local(p.StoreOp(), slot)
		e.savedArgs = append(e.savedArgs, slot)
	}
}

// exitCtx is execCtx with the arguments saved at entry.
func (e *emitter) exitCtx(s *shadow) valueCtx {
	ctx := e.execCtx(s)
	if e.savedArgs != nil {
		ctx.args = e.savedArgs
	}
	return ctx
}

func (e *emitter) execBefore(s *shadow) {
	ctx := e.execCtx(s)
	for _, a := range s.applied {
		if a.Advice.Kind == advice.Before {
			e.callHelper(ctx, a)
		}
	}
}

// execExit emits the after (returning) advice of the body shadows,
// innermost first, before the return instruction ret, outside the
// after-throwing range.
func (e *emitter) execExit(body []*shadow, ret classfile.Insn) {
	e.closeSegment()
	ctx := e.exitCtx(body[0])
	if ctx.retDesc != classfile.Void {
		ctx.ret = e.alloc(ctx.retDesc.Size())
		e.local(ctx.retDesc.StoreOp(), ctx.ret)
	}
	for i := len(body) - 1; i >= 0; i-- {
		s := body[i]
		sctx := e.exitCtx(s)
		sctx.ret = ctx.ret
		for k := len(s.applied) - 1; k >= 0; k-- {
			a := s.applied[k]
			if a.Advice.Kind == advice.AfterReturning || a.Advice.Kind == advice.After {
				e.callHelper(sctx, a)
			}
		}
	}
	if ctx.ret >= 0 {
		e.local(ctx.retDesc.LoadOp(), ctx.ret)
	}
	e.add(ret)
	e.openSegment()
}

// callShadow emits a call, constructor-call, array-construction or field
// access shadow around its instruction in.
func (e *emitter) callShadow(s *shadow, in classfile.Insn) {
	s, around, inner, isAround := splitAround(s) // around.go: s keeps the outer advice
	params, _ := s.Shadow.ArgTypes()             // valid: the shadow matched
	ctx := valueCtx{s: s, target: -1, ret: -1, exc: -1, argDescs: params}
	hasTarget := (s.Kind == advice.MethodCall || s.Kind.IsField()) && !s.StaticTarget
	spill := isAround
	for _, a := range s.applied {
		if needs(a, advice.Target, advice.Arg, advice.ArrayDims, advice.JoinPoint, advice.EachArg) {
			spill = true
		}
	}
	if spill {
		first := 0
		if hasTarget {
			ctx.target = e.alloc(1)
		}
		ctx.args = make([]int, len(params))
		for k, p := range params {
			ctx.args[k] = e.alloc(p.Size())
			first += p.Size()
		}
		for k := len(params) - 1; k >= 0; k-- {
			e.local(params[k].StoreOp(), ctx.args[k])
		}
		if hasTarget {
			e.local(classfile.OpAstore, ctx.target)
		}
	}
	for _, a := range s.applied {
		if a.Advice.Kind == advice.Before {
			e.callHelper(ctx, a)
		}
	}
	if spill && !isAround {
		if hasTarget {
			e.local(classfile.OpAload, ctx.target)
		}
		for k, p := range params {
			e.local(p.LoadOp(), ctx.args[k])
		}
	}
	throws := s.has(advice.AfterThrowing, advice.After)
	var start, end *classfile.Label
	if throws {
		start = classfile.NewLabel()
		e.label(start)
	}
	if isAround {
		e.aroundCallShadow(ctx, s, around, inner, in)
	} else {
		e.add(in)
	}
	if throws {
		end = classfile.NewLabel()
		e.label(end)
	}
	if s.has(advice.AfterReturning, advice.After) {
		rd := classfile.Type(s.Shadow.ReturnedDesc())
		if s.Kind == advice.ConstructorCall && !s.dup {
			rd = classfile.Void
		}
		bound := false
		for _, a := range s.applied {
			if (a.Advice.Kind == advice.AfterReturning || a.Advice.Kind == advice.After) && needs(a, advice.Returned) {
				bound = true
			}
		}
		if bound && rd != classfile.Void {
			ctx.retDesc = rd
			ctx.ret = e.alloc(rd.Size())
			e.local(rd.StoreOp(), ctx.ret)
		}
		for k := len(s.applied) - 1; k >= 0; k-- {
			a := s.applied[k]
			if a.Advice.Kind == advice.AfterReturning || a.Advice.Kind == advice.After {
				e.callHelper(ctx, a)
			}
		}
		if ctx.ret >= 0 {
			e.local(rd.LoadOp(), ctx.ret)
		}
		ctx.ret = -1
	}
	if throws {
		cont := classfile.NewLabel()
		h := classfile.NewLabel()
		e.add(classfile.Insn{Op: classfile.OpGoto, Label: cont})
		e.label(h)
		ctx.exc = e.alloc(1)
		e.local(classfile.OpAstore, ctx.exc)
		for k := len(s.applied) - 1; k >= 0; k-- {
			a := s.applied[k]
			if a.Advice.Kind == advice.AfterThrowing || a.Advice.Kind == advice.After {
				e.callHelper(ctx, a)
			}
		}
		e.local(classfile.OpAload, ctx.exc)
		e.op(classfile.OpAthrow)
		e.label(cont)
		e.callHandlers = append(e.callHandlers, classfile.Handler{Start: start, End: end, Handler: h})
	}
}

// needs reports whether advice a (its arguments or residue) uses a value
// of one of the kinds.
func needs(a advice.Applied, kinds ...advice.ValueKind) bool {
	if c := exitCheck(a); c != "" {
		for _, k := range kinds {
			if k == advice.Returned && a.Advice.Kind == advice.AfterReturning || k == advice.Thrown && a.Advice.Kind == advice.AfterThrowing {
				return true
			}
		}
	}
	for _, v := range adviceArgs(a) {
		for _, k := range kinds {
			if valueSource(v.Kind) == k {
				return true
			}
		}
	}
	var walk func(r *advice.Residue) bool
	walk = func(r *advice.Residue) bool {
		if r == nil {
			return false
		}
		if r.Op == advice.InstanceOf || r.Op == advice.HasAnnotation {
			for _, k := range kinds {
				if r.Value.Kind == k {
					return true
				}
			}
		}
		for _, v := range r.Args { // if()
			for _, k := range kinds {
				if v.Kind == k {
					return true
				}
			}
		}
		for _, c := range r.Children {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(a.Residue)
}

// adviceArgs returns the values of the advice call at a shadow: the
// Matcher's, with indexes resolved for the shadow, else the advice's own.
func adviceArgs(a advice.Applied) []advice.Value {
	if a.Args != nil {
		return a.Args
	}
	return a.Advice.Args
}

// exitCheck returns the class the returned or thrown value must be an
// instance of for after returning(T x) / after throwing(T x) advice to run,
// "" for none: the Matcher's ExitCheck, or for hand-built Applied values
// (no Args), one derived from Advice.ReturnType / ThrowType.
func exitCheck(a advice.Applied) string {
	if a.Args != nil || a.ExitCheck != "" {
		return a.ExitCheck
	}
	switch ad := a.Advice; {
	case ad.Kind == advice.AfterReturning && ad.ReturnType != "" && !classfile.Type(ad.ReturnType).IsPrimitive() && ad.ReturnType != "Ljava/lang/Object;":
		return classfile.Type(ad.ReturnType).InternalName()
	case ad.Kind == advice.AfterThrowing && ad.ThrowType != "" && ad.ThrowType != "Ljava/lang/Throwable;":
		return classfile.Type(ad.ThrowType).InternalName()
	}
	return ""
}

// callHelper emits the call of the sister-class helper that runs advice a
// at ctx's shadow: it pushes the dynamic values the helper takes.
func (e *emitter) callHelper(ctx valueCtx, a advice.Applied) {
	spec := &helperSpec{adv: a.Advice, args: adviceArgs(a), exitCheck: exitCheck(a), residue: a.Residue,
		leaf: e.cw.w.opts.Mode == App}
	spec.entry, e.fuse = e.fuse, false
	e.collectParams(spec, ctx, a)
	e.helpers++
	e.direct = e.direct && spec.leafDirect()
	var skip *classfile.Label
	if !spec.entry {
		skip = e.skipIfBypassed()
	}
	owner := e.cw.w.shared
	name, desc, shared := e.cw.w.sharedHelper(spec)
	if shared {
		e.cw.sister.keepSharedParts(spec)
	} else {
		owner = e.cw.sister
		name, desc = owner.helper(spec)
	}
	e.pushHelperArgs(ctx, spec, shared)
	e.invokestatic(owner.name, name, desc)
	if spec.entry {
		e.local(classfile.OpAstore, e.token)
	}
	if skip != nil {
		e.label(skip)
	}
}

// skipIfBypassed, in a body woven in place, emits the test skipping the
// advice call that follows when the token is null and returns the label to
// place after the call; nil in a woven copy, where the guard has tested
// the token. Advice calls in a row share one test: the call just before
// ends with the label, which moves past this one.
func (e *emitter) skipIfBypassed() *classfile.Label {
	if !e.inPlace {
		return nil
	}
	if n := len(e.out); n > 0 && e.out[n-1].Op == classfile.OpLabel && e.out[n-1].Label == e.skip {
		e.out = e.out[:n-1]
		return e.skip
	}
	e.skip = classfile.NewLabel()
	e.local(classfile.OpAload, e.token)
	e.add(classfile.Insn{Op: classfile.OpIfnull, Label: e.skip})
	return e.skip
}

// pushHelperArgs pushes what a helper of spec takes: the bypass token, the
// values it collected at ctx's shadow, and the join point ids (the
// absolute id, for a shared helper).
func (e *emitter) pushHelperArgs(ctx valueCtx, spec *helperSpec, absoluteID bool) {
	if !spec.entry {
		e.local(classfile.OpAload, e.token)
	}
	for _, p := range spec.params {
		e.loadValue(ctx, p.kind, p.index)
	}
	switch {
	case spec.jp != nil && absoluteID:
		e.pushSharedID(spec.jp.id)
	case spec.jp != nil:
		e.pushInt(spec.jp.id)
	}
	if spec.enclosing != nil {
		e.pushInt(spec.enclosing.id)
	}
}

// collectParams adds to spec the values, static parts and ids advice a's
// helper takes at ctx's shadow.
func (e *emitter) collectParams(spec *helperSpec, ctx valueCtx, a advice.Applied) {
	want := func(kind advice.ValueKind, index int) {
		for _, p := range spec.params {
			if p.kind == kind && p.index == index {
				return
			}
		}
		spec.params = append(spec.params, hparam{kind: kind, index: index, desc: e.valueDesc(ctx, kind, index)})
	}
	if spec.exitCheck != "" {
		if a.Advice.Kind == advice.AfterReturning {
			want(advice.Returned, 0)
		} else {
			want(advice.Thrown, 0)
		}
	}
	// The advice's values, and those its if() tests pass.
	values := spec.args
	var ifArgs func(r *advice.Residue)
	ifArgs = func(r *advice.Residue) {
		if r == nil {
			return
		}
		values = append(values, r.Args...)
		for _, c := range r.Children {
			ifArgs(c)
		}
	}
	if a.Residue != nil {
		values = slices.Clone(values)
		ifArgs(a.Residue)
	}
	for _, v := range values {
		switch v.Kind {
		case advice.JoinPointID:
			if spec.jp == nil {
				// The sister holds the static part of an id passed
				// to advice, which Parts.of finds by the id.
				spec.jp = e.cw.jpInfo(ctx.s)
			}
		case advice.JoinPointStaticPart:
			spec.jp = e.cw.jpInfo(ctx.s)
		case advice.EnclosingStaticPart:
			spec.enclosing = e.cw.enclosingInfo(e.m, ctx.s)
		case advice.JoinPoint:
			e.wantJoinPoint(spec, ctx, want)
		case advice.ArrayDims:
			spec.dims = len(ctx.argDescs)
			for k := range ctx.argDescs {
				want(advice.Arg, k)
			}
		case advice.EachArg:
			spec.eachArgs = len(ctx.argDescs)
			for k := range ctx.argDescs {
				want(advice.Arg, k)
			}
		case advice.MemberAnnotation, advice.WithinAnnotation, advice.WithincodeAnnotation:
			// read in the sister class (annotation_sister.go)
		case advice.Proceed:
			// the closure, made by the helper
		case advice.CflowValue:
			// read by the helper from the cflow's state
		default:
			want(valueSource(v.Kind), v.Index)
		}
	}
	var walk func(r *advice.Residue)
	walk = func(r *advice.Residue) {
		if r == nil {
			return
		}
		if r.Op == advice.InstanceOf || r.Op == advice.HasAnnotation {
			want(r.Value.Kind, r.Value.Index)
		}
		for _, c := range r.Children {
			walk(c)
		}
	}
	walk(a.Residue)
}

// pushInt pushes an int constant.
func (e *emitter) pushInt(v int32) {
	switch {
	case v >= -1 && v <= 5:
		e.op(classfile.OpIconst0 + uint16(v))
	case v >= -128 && v <= 127:
		e.add(classfile.Insn{Op: classfile.OpBipush, Const: v})
	case v >= -32768 && v <= 32767:
		e.add(classfile.Insn{Op: classfile.OpSipush, Const: v})
	default:
		e.add(classfile.Insn{Op: classfile.OpLdc, Index: e.cw.c.Pool.AddInt(v)})
	}
}

// valueDesc is the static type of a value at ctx; values that do not exist
// there (this in static code, the result of a void call) are null Objects.
// In a hidden class, a value of the class's own type (or an array of it) is
// an Object: no other class can name a hidden class, so a helper taking
// one would make the verifier of the woven class load the name, and the
// JVM would refuse the class (NoClassDefFoundError).
func (e *emitter) valueDesc(ctx valueCtx, kind advice.ValueKind, index int) string {
	d := e.staticDesc(ctx, kind, index)
	if e.cw.hidden && classfile.Type(d).Element() == classfile.ObjectType(e.cw.name) {
		return "Ljava/lang/Object;"
	}
	return d
}

// staticDesc is valueDesc's type as the class's code has it.
func (e *emitter) staticDesc(ctx valueCtx, kind advice.ValueKind, index int) string {
	const object = "Ljava/lang/Object;"
	s := ctx.s
	exec := isBody(s.Kind)
	switch kind {
	case advice.This:
		if !e.static && !s.preSuper {
			return string(classfile.ObjectType(e.cw.name))
		}
	case advice.Target:
		if exec && !e.static {
			return string(classfile.ObjectType(e.cw.name))
		}
		if ctx.target >= 0 {
			return string(classfile.ObjectType(s.Member.Owner))
		}
	case advice.Arg:
		if index < len(ctx.argDescs) && (exec || index < len(ctx.args)) {
			return string(ctx.argDescs[index])
		}
	case advice.Returned:
		if ctx.ret >= 0 {
			return string(ctx.retDesc)
		}
	case advice.Thrown:
		if ctx.exc >= 0 {
			return "Ljava/lang/Throwable;"
		}
	case advice.Bytecodes, advice.PreciseBytecodes:
		return "J"
	}
	return object
}

func (e *emitter) loadValue(ctx valueCtx, kind advice.ValueKind, index int) {
	s := ctx.s
	exec := isBody(s.Kind)
	if e.valueDesc(ctx, kind, index) == "Ljava/lang/Object;" {
		// Either a true Object value or an absent one.
		switch {
		case kind == advice.This && !e.static && !s.preSuper,
			kind == advice.Target && ((exec && !e.static) || ctx.target >= 0),
			kind == advice.Arg && index < len(ctx.argDescs) && (exec || index < len(ctx.args)),
			kind == advice.Returned && ctx.ret >= 0,
			kind == advice.Thrown && ctx.exc >= 0:
		default:
			e.op(classfile.OpAconstNull)
			return
		}
	}
	switch kind {
	case advice.This:
		e.local(classfile.OpAload, e.thisSlot)
	case advice.Target:
		if exec {
			e.local(classfile.OpAload, e.thisSlot)
		} else {
			e.local(classfile.OpAload, ctx.target)
		}
	case advice.Arg:
		e.local(ctx.argDescs[index].LoadOp(), ctx.args[index])
	case advice.Returned:
		e.local(ctx.retDesc.LoadOp(), ctx.ret)
	case advice.Thrown:
		e.local(classfile.OpAload, ctx.exc)
	case advice.Bytecodes, advice.PreciseBytecodes:
		e.loadCount()
	}
}
