package weaver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// Around advice.
//
// At a shadow whose advice (in precedence order) includes around advice,
// the first around splits the list: the advice before it (outer) is woven
// around the shadow as usual, the around advice replaces the shadow's
// instruction, and the rest (inner, which may hold more around advice) runs
// inside its proceed. The join point itself moves to a synthetic static
// method of the woven class, weft$around$N, whose parameters are the
// shadow's values (this, the target, the arguments) and whose body is the
// shadow's instruction (for a method execution, the whole body, with its
// own call shadows), woven with the inner advice. Woven code calls the
// sister class's helper rN with the values; rN makes the closure, an
// instance of the sister class itself (it extends weft.rt.Proceed, so one
// extra class per woven class, as for load-time weaving), stores the
// values in its fields, and calls the advice with the bypass flag set.
// proceed() clears the flag and runs the closure's run(), a switch on the
// closure's shadow number to qN (past 16 shadows, a switch to switches of
// 16, so that each stays small enough for C2 to inline), which reads the
// fields back and calls weft$around$N. Once the advice is inlined, the
// closure does not escape and C2 removes it (the switches fold on the
// constant number), so the common case allocates nothing. Two things kept
// C2 from it and are avoided: a final field written in the closure's
// constructor (Proceed's token was one: values stored into the closure
// after its barrier were not scalar-replaced) and boxing the join point's
// value with valueOf (its cache makes the box a merge of two objects; qN
// boxes with new, as ajc does).
//
// Not woven (a warning says so): around advice at constructor execution,
// in interfaces and in hidden classes (a sister cannot name them), and
// where the advice's return type cannot carry the join point's value
// (ajc's "incompatible return type").

// aroundSpec is one around shadow as the sister class implements it.
type aroundSpec struct {
	k      int         // the closure's shadow number: helper rN, qN, sN
	helper *helperSpec // the advice call; its first nvalues params are the values
	// nvalues are the join point values weft$around$N takes, in order:
	// this (if any), the target (if any, not for an execution), the
	// arguments from argsAt on.
	nvalues, argsAt int
	// targetAt is the value proceedOn replaces (a call's or field access's
	// target, an execution's this), -1 if none.
	targetAt      int
	owner, method string         // weft$around$N of the woven class
	mdesc         string         // its descriptor
	ret           classfile.Type // the join point's type
	adviceRet     classfile.Type // the advice method's return type
	fields        []string       // the closure field holding each value
}

// aroundIndex returns the index of the first around advice in as, -1 if none.
func aroundIndex(as []advice.Applied) int {
	for i, a := range as {
		if a.Advice.Kind == advice.Around {
			return i
		}
	}
	return -1
}

// splitAround returns a copy of s with the advice before its first around
// (nil, -1 when s has no around advice), the around advice and the advice
// after it.
func splitAround(s *shadow) (outer *shadow, around advice.Applied, inner []advice.Applied, ok bool) {
	k := aroundIndex(s.applied)
	if k < 0 {
		return s, advice.Applied{}, nil, false
	}
	o := *s
	o.applied = s.applied[:k:k]
	return &o, s.applied[k], s.applied[k+1:], true
}

// aroundApplies drops the around advice that cannot be woven at s, with a
// warning each (see the package comment above).
func (cw *classWeaver) aroundApplies(s *advice.Shadow, as []advice.Applied) []advice.Applied {
	if aroundIndex(as) < 0 {
		return as
	}
	out := as[:0]
	for _, a := range as {
		if a.Advice.Kind == advice.Around {
			if why := cw.aroundUnwoven(s, a.Advice); why != "" {
				cw.warnings = append(cw.warnings, fmt.Sprintf("%s:%d: around advice not woven at %s(%s) in %s: %s",
					a.Advice.File, a.Advice.Line, s.Kind, Signature(s.Kind, s.Member), classfile.ObjectType(cw.name).JavaName(), why))
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// aroundUnwoven says why around advice adv cannot be woven at s, "" if it can.
func (cw *classWeaver) aroundUnwoven(s *advice.Shadow, adv *advice.Advice) string {
	switch {
	case s.Kind == advice.ConstructorExecution:
		return "around constructor execution is not supported"
	case s.Kind == advice.StaticInitialization, s.Kind == advice.Initialization, s.Kind == advice.PreInitialization,
		s.Kind == advice.ExceptionHandler:
		// ajc rejects around at (pre)initialization and handlers; a static
		// initializer's body cannot move out of <clinit> (final statics).
		return "around " + s.Kind.String() + " is not supported"
	case cw.c.Access&classfile.AccInterface != 0:
		return "around advice in interfaces is not supported"
	case cw.hidden:
		return "around advice in hidden classes is not supported"
	}
	t, r := classfile.Type(adv.AroundType), classfile.Type(s.ReturnedDesc())
	switch {
	case t == classfile.Void && r != classfile.Void:
		return "void around advice at a join point returning " + r.JavaName()
	case t.IsPrimitive() && t != r:
		return t.JavaName() + " around advice at a join point returning " + r.JavaName()
	case t.IsReference() && t != "Ljava/lang/Object;" && !r.IsReference():
		return t.JavaName() + " around advice at a join point returning " + r.JavaName()
	}
	return ""
}

// skipNews marks the `new` (and its `dup`) of each constructor call with
// around advice: the around's join point method makes the object.
func skipNews(calls []*shadow) map[int]bool {
	var skip map[int]bool
	for _, s := range calls {
		if s.Kind != advice.ConstructorCall || aroundIndex(s.applied) < 0 || s.newAt < 0 {
			continue
		}
		if skip == nil {
			skip = map[int]bool{}
		}
		skip[s.newAt] = true
		if s.dup {
			skip[s.newAt+1] = true
		}
	}
	return skip
}

// aroundValues returns the values the join point method of s takes at ctx:
// this (at a call shadow only if advice as uses it: code that is not
// javac's may reuse local 0), the target, the arguments.
func (e *emitter) aroundValues(ctx valueCtx, s *shadow, as []advice.Applied) (vals []hparam, argsAt, targetAt int) {
	exec := s.Kind == advice.MethodExecution
	targetAt = -1
	useThis := exec
	for _, a := range as {
		useThis = useThis || needs(a, advice.This, advice.JoinPoint)
	}
	if !e.static && !s.preSuper && useThis {
		if exec {
			targetAt = 0
		}
		vals = append(vals, hparam{kind: advice.This, desc: e.valueDesc(ctx, advice.This, 0)})
	}
	if !exec && ctx.target >= 0 {
		targetAt = len(vals)
		vals = append(vals, hparam{kind: advice.Target, desc: e.targetDesc(s)})
	}
	argsAt = len(vals)
	for k := range ctx.argDescs {
		vals = append(vals, hparam{kind: advice.Arg, index: k, desc: e.valueDesc(ctx, advice.Arg, k)})
	}
	return vals, argsAt, targetAt
}

// targetDesc is the type of a call's or field access's target as the join
// point method takes it: the class the instruction names (a field's
// declaring class may be a supertype, which putfield does not accept),
// or for a protected member of another package the woven class (the
// verifier wants the target to be one; the original code's was).
func (e *emitter) targetDesc(s *shadow) string {
	owner := s.Member.Owner
	if s.Kind.IsField() {
		owner, _, _ = e.cw.c.Pool.MemberRef(e.code.Insns[s.at].Index)
	}
	if s.Member.AccessKnown && s.Member.Access&classfile.AccProtected != 0 && pkgOf(owner) != pkgOf(e.cw.name) {
		owner = e.cw.name
	}
	return string(classfile.ObjectType(owner))
}

func pkgOf(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return ""
}

// aroundCall emits the call of around advice a's helper at ctx's shadow s,
// whose join point method is method (descriptor mdesc): it pushes the
// token, the values and the ids, and leaves the join point's value.
func (e *emitter) aroundCall(ctx valueCtx, s *shadow, a advice.Applied, vals []hparam, argsAt, targetAt int, method, mdesc string, ret classfile.Type) {
	spec := &helperSpec{adv: a.Advice, args: adviceArgs(a), residue: a.Residue, leaf: e.cw.w.opts.Mode == App}
	spec.params = append(spec.params, vals...)
	e.collectParams(spec, ctx, a)
	e.pushHelperArgs(ctx, spec, false)
	ar := &aroundSpec{helper: spec, nvalues: len(vals), argsAt: argsAt, targetAt: targetAt,
		owner: e.cw.name, method: method, mdesc: mdesc, ret: ret}
	am, _ := classfile.ParseMethodDesc(a.Advice.Method.Desc) // checked when the advice was bound
	ar.adviceRet = am.Return
	name, desc := e.cw.sister.around(ar)
	e.invokestatic(e.cw.sister.name, name, desc)
}

// aroundCallShadow emits around advice a at call shadow s (the outer advice
// already woven around this point): the join point method holding in,
// woven with the inner advice, and the helper's call replacing in.
func (e *emitter) aroundCallShadow(ctx valueCtx, s *shadow, a advice.Applied, inner []advice.Applied, in classfile.Insn) {
	vals, argsAt, targetAt := e.aroundValues(ctx, s, append([]advice.Applied{a}, inner...))
	ret := classfile.Type(s.Shadow.ReturnedDesc())
	method, mdesc := e.cw.shadowMethod(e, s, vals, inner, in, ret)
	e.aroundCall(ctx, s, a, vals, argsAt, targetAt, method, mdesc, ret)
	if s.Kind == advice.ConstructorCall && !s.dup {
		e.op(classfile.OpPop) // the object was not kept
	}
}

// newAroundMethod adds the synthetic static method weft$around$N to the
// class, with descriptor desc; its body is set by the caller.
func (cw *classWeaver) newAroundMethod(desc string) (*classfile.Member, string) {
	name := "weft$around$" + strconv.Itoa(cw.aroundMethods)
	cw.aroundMethods++
	p := cw.c.Pool
	m := &classfile.Member{Access: classfile.AccStatic | classfile.AccSynthetic, Name: p.AddUtf8(name), Desc: p.AddUtf8(desc)}
	return m, name
}

func valuesDesc(vals []hparam, ret classfile.Type) string {
	d := "("
	for _, v := range vals {
		d += v.desc
	}
	return d + ")" + string(ret)
}

// shadowMethod adds the join point method of call shadow s: it takes the
// values vals and runs the shadow's instruction in (a constructor call's
// `new` and `dup` too), woven with the inner advice.
func (cw *classWeaver) shadowMethod(e *emitter, s *shadow, vals []hparam, inner []advice.Applied, in classfile.Insn, ret classfile.Type) (string, string) {
	desc := valuesDesc(vals, ret)
	m, name := cw.newAroundMethod(desc)
	code := &classfile.Code{}
	var insns []classfile.Insn
	hasThis := len(vals) > 0 && vals[0].kind == advice.This
	slot := 0
	if s.Kind == advice.ConstructorCall {
		insns = append(insns, e.code.Insns[s.newAt], classfile.Insn{Op: classfile.OpDup})
	}
	for _, v := range vals {
		t := classfile.Type(v.desc)
		if v.kind != advice.This {
			insns = append(insns, classfile.Insn{Op: t.LoadOp(), Index: uint16(slot)})
		}
		slot += t.Size()
	}
	at := len(insns)
	insns = append(insns, in, classfile.Insn{Op: ret.ReturnOp()})
	code.Insns = insns
	code.MaxLocals = uint16(slot)
	if len(inner) > 0 {
		ws := *s
		ws.applied, ws.at, ws.newAt, ws.dup = inner, at, 0, true
		rest := vals
		if hasThis {
			rest = vals[1:]
		}
		ie := &emitter{cw: cw, m: e.m, code: code, static: !hasThis, desc: valuesDesc(rest, ret)}
		ie.emit([]*shadow{&ws})
	}
	cw.encodeAroundMethod(m, code)
	return name, desc
}

// encodeAroundMethod writes a join point method's code and adds it to the
// class.
func (cw *classWeaver) encodeAroundMethod(m *classfile.Member, code *classfile.Code) {
	cw.encodeAroundMethodKeeping(m, code, -1)
}

// encodeAroundMethodKeeping is encodeAroundMethod keeping code's frames
// for its first kept locals (EncodeOptions.KeepFrames); none if kept < 0.
func (cw *classWeaver) encodeAroundMethodKeeping(m *classfile.Member, code *classfile.Code, kept int) {
	opts := classfile.EncodeOptions{Frames: true, Hierarchy: cw.hierarchy(), KeepFrames: kept >= 0, KeptLocals: kept}
	if err := code.Encode(cw.c, m, opts); err != nil {
		panic(err) // recovered by weave: the class is copied unchanged
	}
	cw.c.Methods = append(cw.c.Methods, m)
}

// emitAroundExecution rewrites a method whose execution shadow has around
// advice as
//
//	guard → outer before advice; helper(values) → outer after advice; return
//	      | original body
//
// with the body, woven with the call shadows and the inner advice, moved
// to the join point method (static, `this` its first parameter: the body's
// locals keep their slots).
func (e *emitter) emitAroundExecution(exec *shadow, calls []*shadow) error {
	outer, around, inner, _ := splitAround(exec)
	cw := e.cw
	m, _ := classfile.ParseMethodDesc(e.desc)
	// The join point method: the body, woven with what is inside the around.
	vals, argsAt, targetAt := e.aroundValues(e.execCtx(exec), exec, nil)
	mdesc := valuesDesc(vals, m.Return)
	body, method := cw.newAroundMethod(mdesc)
	var code *classfile.Code
	if a := cw.c.Attr(e.m.Attributes, "Code"); a != nil {
		body.Attributes = []classfile.Attribute{{Name: a.Name, Info: append([]byte(nil), a.Info...)}}
		var err error
		if code, err = classfile.DecodeCode(cw.c, body); err != nil {
			return err
		}
	}
	if code == nil {
		return fmt.Errorf("no code")
	}
	var shadows []*shadow
	if len(inner) > 0 {
		in := *exec
		in.applied = inner
		shadows = append(shadows, &in)
	}
	shadows = append(shadows, calls...)
	kept := int(code.MaxLocals)
	if len(shadows) > 0 {
		be := &emitter{cw: cw, m: e.m, code: code, static: e.static, desc: e.desc}
		if err := be.emit(shadows); err != nil {
			return err
		}
	}
	// The body keeps its slots, `this` its type (but in a hidden class,
	// where the join point method takes it as Object): its frames stay.
	if cw.hidden {
		kept = -1
	}
	cw.encodeAroundMethodKeeping(body, code, kept)

	// This method: the guard, then the around advice with the outer
	// advice around it, and the original body.
	orig := e.code.Insns
	e.execValues = nil
	e.out = getInsns(len(orig) + 64)
	e.reserveLocals()
	original := classfile.NewLabel()
	e.guard(original)
	e.enterExecution(shadowSet{body: []*shadow{outer}})
	e.tmp = e.base
	ctx := e.execCtx(outer)
	e.aroundCall(ctx, outer, around, vals, argsAt, targetAt, method, mdesc, m.Return)
	if outer.has(advice.AfterReturning, advice.After) {
		e.execExit([]*shadow{outer}, classfile.Insn{Op: m.Return.ReturnOp()})
	} else {
		e.add(classfile.Insn{Op: m.Return.ReturnOp()})
	}
	e.closeSegment()
	e.afterThrowing([]*shadow{outer})
	e.label(original)
	e.out = append(e.out, orig...)
	e.code.Handlers = append(append([]classfile.Handler(nil), e.execHandlers...), e.code.Handlers...)
	e.code.Insns = e.out
	return nil
}

// around adds the helper of around shadow a and returns its name and
// descriptor: rN(token, values..., other values the advice needs, ids) R.
func (s *sister) around(a *aroundSpec) (string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := a.helper
	s.keepParts(h)
	a.k = len(s.arounds)
	s.arounds = append(s.arounds, a)
	h.name = "r" + strconv.Itoa(a.k)
	d := h.methodDesc()
	h.desc = d[:len(d)-1] + string(a.ret) // methodDesc ends in )V
	return h.name, h.desc
}

// The closure's fields: one per value slot of each kind, shared by the
// shadows (a closure holds one shadow's values), and the shadow number.
const closureShadowField = "k"

// closureField returns the kind of field a value of type t is kept in:
// its name prefix and descriptor.
func closureField(t classfile.Type) (string, string) {
	switch t {
	case classfile.Long:
		return "j", "J"
	case classfile.Float:
		return "f", "F"
	case classfile.Double:
		return "d", "D"
	}
	if t.IsPrimitive() {
		return "i", "I"
	}
	return "a", "Ljava/lang/Object;"
}

// fieldDesc is the descriptor of closure field name.
func fieldDesc(name string) string {
	switch name[0] {
	case 'j':
		return "J"
	case 'f':
		return "F"
	case 'd':
		return "D"
	case 'i', 'k':
		return "I"
	}
	return "Ljava/lang/Object;"
}

// closure adds to the sister class what makes it the closure of its
// around shadows: the fields, the constructor, the helpers rN, the run
// methods and their cases qN and sN.
func (g *sisterGen) closure(arounds []*aroundSpec) error {
	c, p := g.c, g.c.Pool
	c.Super = p.AddClass(rtnames.Proceed)
	count := map[string]int{}
	for _, a := range arounds {
		used := map[string]int{}
		a.fields = nil
		for _, v := range a.helper.params[:a.nvalues] {
			prefix, _ := closureField(classfile.Type(v.desc))
			a.fields = append(a.fields, prefix+strconv.Itoa(used[prefix]))
			used[prefix]++
			if used[prefix] > count[prefix] {
				count[prefix] = used[prefix]
			}
		}
	}
	addField := func(name, desc string) {
		c.Fields = append(c.Fields, &classfile.Member{Access: classfile.AccPrivate | classfile.AccSynthetic,
			Name: p.AddUtf8(name), Desc: p.AddUtf8(desc)})
	}
	addField(closureShadowField, "I")
	for _, prefix := range []string{"a", "i", "j", "f", "d"} {
		for k := 0; k < count[prefix]; k++ {
			addField(prefix+strconv.Itoa(k), fieldDesc(prefix))
		}
	}
	add := func(access uint16, name, desc string, code *classfile.Code) error {
		m := &classfile.Member{Access: access | classfile.AccSynthetic, Name: p.AddUtf8(name), Desc: p.AddUtf8(desc)}
		c.Methods = append(c.Methods, m)
		return code.Encode(c, m, classfile.EncodeOptions{Frames: true, Hierarchy: noHierarchy{}})
	}
	if err := add(0, "<init>", "(Ljava/lang/Object;I)V", g.closureInit()); err != nil {
		return err
	}
	for _, a := range arounds {
		if err := add(classfile.AccStatic, a.helper.name, a.helper.desc, g.aroundHelper(a)); err != nil {
			return err
		}
		if err := add(classfile.AccStatic, "q"+strconv.Itoa(a.k), g.runDesc(false), g.runCase(a, false)); err != nil {
			return err
		}
		if err := add(classfile.AccStatic, "s"+strconv.Itoa(a.k), g.runDesc(true), g.runCase(a, true)); err != nil {
			return err
		}
	}
	for _, withArgs := range []bool{false, true} {
		for _, n := range runTree(len(arounds)) {
			access, name, desc := uint16(classfile.AccStatic), n.name(withArgs), g.runDesc(withArgs)
			if n.top {
				access, name, desc = classfile.AccPublic, rtnames.ProceedRun.Name, rtnames.ProceedRun.Desc
				if withArgs {
					desc = rtnames.ProceedRunWith.Desc
				}
			}
			if err := add(access, name, desc, g.runSwitch(n, len(arounds), withArgs)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *sisterGen) field(name string) uint16 {
	return g.c.Pool.AddFieldref(g.sister, name, fieldDesc(name))
}

// closureInit is `<init>(Object token, int k) { super(token); this.k = k; }`.
func (g *sisterGen) closureInit() *classfile.Code {
	g.insns = nil
	g.idx(classfile.OpAload, 0)
	g.idx(classfile.OpAload, 1)
	g.idx(classfile.OpInvokespecial, addMethodref(g.c.Pool, rtnames.ProceedInit))
	g.idx(classfile.OpAload, 0)
	g.idx(classfile.OpIload, 2)
	g.idx(classfile.OpPutfield, g.c.Pool.AddFieldref(g.sister, closureShadowField, "I"))
	g.op(classfile.OpReturn)
	return &classfile.Code{Insns: g.insns}
}

// aroundHelper builds
//
//	static R rN(Object token, values..., other values, ids) {
//	    if (!residue) return Woven.weft$around$N(values...);
//	    Sister c = new Sister(token, N); c.<field> = value; ...
//	    if (DIB.leafDirect) return (R) Advice.m(..., c, ...);   // leaf advice (leaf.go)
//	    DIB.begin(token);
//	    T r;
//	    try { r = Advice.m(..., c, ...); } finally { DIB.end(token); }
//	    return (R) r;   // cast, unbox (Conversions), or dropped for void
//	}
func (g *sisterGen) aroundHelper(a *aroundSpec) *classfile.Code {
	g.insns = nil
	h := a.helper
	hg := &helperGen{g: g, h: h, code: &classfile.Code{}, skip: classfile.NewLabel()}
	hg.layoutParams()
	if h.residue != nil {
		hg.residueTest(h.residue, hg.skip)
	}
	p := g.c.Pool
	hg.closureSlot = hg.next
	hg.next++
	g.idx(classfile.OpNew, p.AddClass(g.sister))
	g.op(classfile.OpDup)
	g.idx(classfile.OpAload, 0)
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(int32(a.k))})
	g.invoke(classfile.OpInvokespecial, g.sister, "<init>", "(Ljava/lang/Object;I)V")
	g.idx(classfile.OpAstore, uint16(hg.closureSlot))
	for j, v := range h.params[:a.nvalues] {
		g.idx(classfile.OpAload, uint16(hg.closureSlot))
		hg.load(v.kind, v.index)
		g.idx(classfile.OpPutfield, g.field(a.fields[j]))
	}
	if h.leafDirect() {
		hg.directCall(func(t classfile.Type) {
			g.convertResult(t, a.ret)
			g.op(a.ret.ReturnOp())
		})
	}
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtnames.DIBBegin)
	start, end, handler := classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel()
	hg.label(start)
	am, _ := classfile.ParseMethodDesc(h.adv.Method.Desc)
	hg.pushArgs(am.Params)
	g.invoke(classfile.OpInvokestatic, h.adv.Method.Owner, h.adv.Method.Name, h.adv.Method.Desc)
	res := -1
	if a.adviceRet != classfile.Void {
		res = hg.next
		hg.next += a.adviceRet.Size()
		g.idx(a.adviceRet.StoreOp(), uint16(res))
	}
	hg.label(end)
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtnames.DIBEnd)
	if res >= 0 {
		g.idx(a.adviceRet.LoadOp(), uint16(res))
	}
	g.convertResult(a.adviceRet, a.ret)
	g.op(a.ret.ReturnOp())
	hg.label(handler)
	exc := uint16(hg.next)
	g.idx(classfile.OpAstore, exc)
	g.idx(classfile.OpAload, 0)
	g.invokeRuntime(rtnames.DIBEnd)
	g.idx(classfile.OpAload, exc)
	g.op(classfile.OpAthrow)
	if h.residue != nil {
		hg.label(hg.skip)
		for _, v := range h.params[:a.nvalues] {
			hg.load(v.kind, v.index)
		}
		g.invoke(classfile.OpInvokestatic, a.owner, a.method, a.mdesc)
		g.op(a.ret.ReturnOp())
	}
	hg.code.Handlers = []classfile.Handler{{Start: start, End: end, Handler: handler}}
	hg.code.Insns = g.insns
	hg.code.Frames = nil
	return hg.code
}

// convertResult converts the advice's result of type t on the stack to the
// join point's type r, as AspectJ does: dropped for void, a cast for a
// reference (ClassCastException), unboxed for a primitive (null is 0).
func (g *sisterGen) convertResult(t, r classfile.Type) {
	switch {
	case r == classfile.Void:
		switch t.Size() {
		case 1:
			g.op(classfile.OpPop)
		case 2:
			g.op(classfile.OpPop2)
		}
	case t == r:
	case r.IsPrimitive():
		g.invokeRuntime(rtnames.ConversionRef(string(r)))
	case t.IsPrimitive():
		g.box(t)
		g.checkcast(r)
	default:
		g.checkcast(r)
	}
}

func (g *sisterGen) checkcast(t classfile.Type) {
	if t != "Ljava/lang/Object;" {
		g.idx(classfile.OpCheckcast, g.c.Pool.AddClass(t.InternalName()))
	}
}

// runCase builds qN (withArgs false) or sN: run the join point method of
// shadow N with the closure's values, or with new arguments and target:
//
//	static Object qN(Sister c) { return box(Woven.weft$around$N((T0) c.a0, c.i0, ...)); }
//	static Object sN(Sister c, boolean newTarget, Object target, Object[] args) {
//	    if (args.length != n) throw Proceed.arity(n, args.length);
//	    [if (newTarget) throw Proceed.noTarget();]   // no target at this shadow
//	    return box(Woven.weft$around$N(..., (T) (newTarget ? target : c.a1), (T1) args[0], intValue(args[1]), ...));
//	}
func (g *sisterGen) runCase(a *aroundSpec, withArgs bool) *classfile.Code {
	g.insns = nil
	const c, newTarget, target, args = 0, 1, 2, 3
	nargs := a.nvalues - a.argsAt
	if withArgs {
		ok := classfile.NewLabel()
		g.idx(classfile.OpAload, args)
		g.op(classfile.OpArraylength)
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(nargs))})
		g.add(classfile.Insn{Op: classfile.OpIfIcmpeq, Label: ok})
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(nargs))})
		g.idx(classfile.OpAload, args)
		g.op(classfile.OpArraylength)
		g.invokeRuntime(rtnames.ProceedArity)
		g.op(classfile.OpAthrow)
		g.add(classfile.Insn{Op: classfile.OpLabel, Label: ok})
		if a.targetAt < 0 {
			ok := classfile.NewLabel()
			g.idx(classfile.OpIload, newTarget)
			g.add(classfile.Insn{Op: classfile.OpIfeq, Label: ok})
			g.invokeRuntime(rtnames.ProceedNoTarget)
			g.op(classfile.OpAthrow)
			g.add(classfile.Insn{Op: classfile.OpLabel, Label: ok})
		}
	}
	for j, v := range a.helper.params[:a.nvalues] {
		t := classfile.Type(v.desc)
		switch {
		case withArgs && j >= a.argsAt:
			g.idx(classfile.OpAload, args)
			g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(j - a.argsAt))})
			g.op(classfile.OpAaload)
			if t.IsPrimitive() {
				g.invokeRuntime(rtnames.ConversionRef(string(t)))
			} else {
				g.checkcast(t)
			}
			continue
		case withArgs && j == a.targetAt:
			field, join := classfile.NewLabel(), classfile.NewLabel()
			g.idx(classfile.OpIload, newTarget)
			g.add(classfile.Insn{Op: classfile.OpIfeq, Label: field})
			g.idx(classfile.OpAload, target)
			g.add(classfile.Insn{Op: classfile.OpGoto, Label: join})
			g.add(classfile.Insn{Op: classfile.OpLabel, Label: field})
			g.idx(classfile.OpAload, c)
			g.idx(classfile.OpGetfield, g.field(a.fields[j]))
			g.add(classfile.Insn{Op: classfile.OpLabel, Label: join})
		default:
			g.idx(classfile.OpAload, c)
			g.idx(classfile.OpGetfield, g.field(a.fields[j]))
		}
		if !t.IsPrimitive() {
			g.checkcast(t)
		}
	}
	g.invoke(classfile.OpInvokestatic, a.owner, a.method, a.mdesc)
	switch {
	case a.ret == classfile.Void:
		g.op(classfile.OpAconstNull)
	case a.ret.IsPrimitive():
		g.boxNew(a.ret)
	}
	g.op(classfile.OpAreturn)
	return &classfile.Code{Insns: g.insns}
}

// boxNew boxes the join point's primitive value of type t on the stack in
// a new wrapper, as ajc's Conversions.intObject does: unlike valueOf's
// cache, whose result merges a cached and a new object, a new wrapper that
// the advice only unboxes is removed by escape analysis.
func (g *sisterGen) boxNew(t classfile.Type) {
	owner, _, _ := t.BoxMethod()
	dupX := uint16(classfile.OpDupX1)
	if t.Size() == 2 {
		dupX = classfile.OpDupX2
	}
	// value → value box → box value box → box box value box → box box value
	g.idx(classfile.OpNew, g.c.Pool.AddClass(owner))
	g.op(dupX)
	g.op(dupX)
	g.op(classfile.OpPop)
	g.invoke(classfile.OpInvokespecial, owner, "<init>", "("+string(t)+")V")
}

// runFanShift sets how many cases one run method switches over (16): run()
// with a case per shadow was about 13 bytes a shadow, and past about 23
// shadows C2 found it too big to inline (FreqInlineSize, 325 bytes), so
// the closure was allocated at every around join point of the class.
// Sixteen cases of run(boolean, Object, Object[]) take under 300 bytes.
const runFanShift = 4

// runNode is one method of the run dispatch: it switches on the closure's
// shadow number shifted right by shift, over the numbers from base (a
// multiple of 16<<shift) on, to the cases qN/sN (shift 0) or to the nodes
// below it. The top node is run itself; with at most 16 shadows it is the
// only one.
type runNode struct {
	shift, base int
	top         bool
}

// name is the static method of a node below the top: qgS_B / sgS_B.
func (n runNode) name(withArgs bool) string {
	prefix := "qg"
	if withArgs {
		prefix = "sg"
	}
	return prefix + strconv.Itoa(n.shift) + "_" + strconv.Itoa(n.base)
}

// runTree returns the nodes dispatching over shadows 0..count-1, the top
// first.
func runTree(count int) []runNode {
	shift := 0
	for (count-1)>>shift >= 1<<runFanShift {
		shift += runFanShift
	}
	nodes := []runNode{{shift: shift, top: true}}
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if n.shift == 0 {
			continue
		}
		for b := n.base; b < count && b < n.base+(1<<runFanShift)<<n.shift; b += 1 << n.shift {
			nodes = append(nodes, runNode{shift: n.shift - runFanShift, base: b})
		}
	}
	return nodes
}

// runDesc is the descriptor of a run node below the top (the closure
// first, then run's parameters) and of the cases qN and sN.
func (g *sisterGen) runDesc(withArgs bool) string {
	if withArgs {
		return "(L" + g.sister + ";ZLjava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;"
	}
	return "(L" + g.sister + ";)Ljava/lang/Object;"
}

// runSwitch builds run node n of Proceed's run() (withArgs false) or
// run(boolean, Object, Object[]) over count shadows: a switch on the
// closure's shadow number (shifted) to the cases qN or sN, or to the
// nodes below. Once inlined where the closure is made, the number is a
// constant and each switch folds to one call.
func (g *sisterGen) runSwitch(n runNode, count int, withArgs bool) *classfile.Code {
	step := 1 << n.shift
	var keys []int32
	for b := n.base; b < count && b < n.base+(1<<runFanShift)*step; b += step {
		keys = append(keys, int32(b>>n.shift))
	}
	g.insns = nil
	sw := &classfile.Switch{Default: classfile.NewLabel(), Keys: keys}
	g.idx(classfile.OpAload, 0)
	g.idx(classfile.OpGetfield, g.c.Pool.AddFieldref(g.sister, closureShadowField, "I"))
	if n.shift > 0 {
		g.add(classfile.Insn{Op: classfile.OpBipush, Const: int32(n.shift)})
		g.op(classfile.OpIshr)
	}
	g.add(classfile.Insn{Op: classfile.OpLookupswitch, Switch: sw})
	for _, key := range keys {
		l := classfile.NewLabel()
		sw.Targets = append(sw.Targets, l)
		g.add(classfile.Insn{Op: classfile.OpLabel, Label: l})
		g.idx(classfile.OpAload, 0)
		if withArgs {
			g.idx(classfile.OpIload, 1)
			g.idx(classfile.OpAload, 2)
			g.idx(classfile.OpAload, 3)
		}
		target := "q" + strconv.Itoa(int(key))
		if withArgs {
			target = "s" + strconv.Itoa(int(key))
		}
		if n.shift > 0 {
			target = runNode{shift: n.shift - runFanShift, base: int(key) << n.shift}.name(withArgs)
		}
		g.invoke(classfile.OpInvokestatic, g.sister, target, g.runDesc(withArgs))
		g.op(classfile.OpAreturn)
	}
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: sw.Default})
	g.op(classfile.OpAconstNull)
	g.op(classfile.OpAreturn)
	return &classfile.Code{Insns: g.insns}
}
