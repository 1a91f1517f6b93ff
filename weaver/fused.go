package weaver

import (
	"encoding/binary"
	"slices"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// In a woven JDK the first before advice of a method's execution is also
// its guard: instead of the guard (BIB.ready read inline, DIB.token(), 15
// bytes) then a test of the token and the helper's call, the method calls
// an entry helper of its sister, which takes the token itself and returns
// it for the method's later advice calls:
//
//	token = Sister.aN(values..., id);        // 3 to 6 bytes, and astore
//
//	static Object aN(values..., int id) {
//	    if (!BIB.ready && !BIB.isReady()) return null;
//	    Thread t = Thread.currentThread();
//	    if (t.weft$dib) return null;
//	    t.weft$dib = true; try { Advice.m(...); } finally { t.weft$dib = false; }
//	    return t;
//	}
//
// A woven method so grows by a few bytes instead of about 25, which keeps
// it within the JIT's inlining limits where the stock method is (javac's
// hottest methods are small), and each woven method interpreted while the
// JIT warms up makes one call instead of three. The helper, over C1's
// inlining limit, is compiled once per sister in C1 code; C2 inlines it
// where its call is hot. Bootstrap and bypassed threads run the method's
// body with no advice, as with the guard: the helper returns null and
// every later advice call of the method tests the token. docs/jdk.md
// ("Entry helpers") has the measurements.

// fusable reports whether the first advice call of a method woven in place
// with shadows set can be its entry helper: in a woven JDK, the method's
// or constructor's execution is its only body shadow and its first advice
// is before advice with no cflow or if() (whose helpers bracket more than
// the call) and no cflow test or value (which read the token the helper
// is passed). In a constructor, whose advice runs after super(...) or
// this(...), nothing before that point may use the token: no other shadow.
func (e *emitter) fusable(set shadowSet) bool {
	if e.cw.w.opts.Mode != JDK || len(set.body) != 1 {
		return false
	}
	s := set.body[0]
	if s.Kind != advice.MethodExecution && s.Kind != advice.ConstructorExecution {
		return false
	}
	if e.ctor && (len(set.calls) > 0 || len(set.handlers) > 0 || set.pre != nil || len(set.ifaces) > 0) {
		return false
	}
	for _, a := range s.applied {
		if a.Advice.Kind == advice.Before {
			return a.Advice.Cflow == nil && !hasIf(a.Residue) && !usesCflow(a)
		}
	}
	return false
}

// entryGuard emits an entry helper's guard: return null unless bootstrap
// is over and the current thread's flag is clear; the thread, the token,
// goes to its local. An entry helper reads and sets the flag, a field of
// java.lang.Thread in a woven JDK, itself (DIB's methods inlined): less
// for the JIT to inline at every woven method it compiles.
func (hg *helperGen) entryGuard() {
	g := hg.g
	take, got := classfile.NewLabel(), classfile.NewLabel()
	params := hg.locals[:len(hg.locals)-1] // the token is not stored yet
	g.idx(classfile.OpGetstatic, addFieldref(g.c.Pool, rtnames.BIBReady))
	g.add(classfile.Insn{Op: classfile.OpIfne, Label: take})
	g.invokeRuntime(rtnames.BIBIsReady)
	g.add(classfile.Insn{Op: classfile.OpIfne, Label: take})
	g.op(classfile.OpAconstNull)
	g.op(classfile.OpAreturn)
	hg.label(take)
	hg.code.Frames = append(hg.code.Frames, classfile.Frame{At: take, Locals: params})
	g.invokeRuntime(rtnames.ThreadCurrent)
	g.op(classfile.OpDup)
	g.idx(classfile.OpAstore, uint16(hg.token))
	g.idx(classfile.OpGetfield, addFieldref(g.c.Pool, rtnames.ThreadDIB))
	g.add(classfile.Insn{Op: classfile.OpIfeq, Label: got})
	g.op(classfile.OpAconstNull)
	g.op(classfile.OpAreturn)
	hg.label(got)
	hg.frame(got, nil)
}

// setFlag emits the start (on) or end of the advice call's bypass:
// DIB.begin or DIB.end of the token, or in an entry helper the store to
// the thread's field.
func (hg *helperGen) setFlag(on bool) {
	g := hg.g
	g.idx(classfile.OpAload, uint16(hg.token))
	switch {
	case !hg.h.entry && on:
		g.invokeRuntime(rtnames.DIBBegin)
	case !hg.h.entry:
		g.invokeRuntime(rtnames.DIBEnd)
	default:
		if on {
			g.op(classfile.OpIconst1)
		} else {
			g.op(classfile.OpIconst0)
		}
		g.idx(classfile.OpPutfield, addFieldref(g.c.Pool, rtnames.ThreadDIB))
	}
}

// ret emits a helper's return: of the token from an entry helper.
func (hg *helperGen) ret() {
	if hg.h.entry {
		hg.g.idx(classfile.OpAload, uint16(hg.token))
		hg.g.op(classfile.OpAreturn)
		return
	}
	hg.g.op(classfile.OpReturn)
}

// SharedClass is the class holding a woven JDK's shared entry helpers
// (Options.SharedEntries), in the runtime's package of java.base, which
// every woven module reads.
const SharedClass = RuntimePackage + "Shared" + SisterSuffix

// With Options.SharedEntries (a whole JDK woven at once), an entry helper
// whose advice takes only the join point's id is the same in every class:
// it is made once, in SharedClass, instead of once per sister, and the
// woven method passes it the absolute id. A sister's helper is compiled by
// C1 and C2 on its own, as the class's methods call it, over a thousand
// times in javac's run; one shared helper is compiled once. The id is not
// known when the method is woven (the driver numbers the classes in a
// fixed order afterwards, see Prepare), so the method loads it from an
// Integer slot of its class's constant pool (AddIntSlot), which finish
// sets in the encoded class.

// Its helpers are known before any class is woven: one for each before
// advice whose values are all the join point's id (newShared), made in the
// advice's order, so their names do not depend on the weaving's. So the
// driver may add SharedClass to java.base first, and write java.base as
// soon as its classes are woven, as it does without it.

// newShared returns the SharedClass of a weaving of advice adv, with its
// helpers: woven code only looks them up (sharedHelper).
func newShared(adv []*advice.Advice) *sister {
	s := newSister(SharedClass)
	s.shared = true
	for _, a := range adv {
		spec := &helperSpec{adv: a, args: a.Args, entry: true}
		if slices.ContainsFunc(a.Args, func(v advice.Value) bool { return v.Kind == advice.JoinPointID }) {
			spec.jp = &jpInfo{} // as collectParams makes it
		}
		if a.Kind == advice.Before && idOnly(spec) {
			s.helper(spec)
		}
	}
	return s
}

// sharedHelper returns the name and descriptor of SharedClass's helper for
// spec, if spec is an entry helper SharedClass has.
func (w *Weaver) sharedHelper(spec *helperSpec) (name, desc string, ok bool) {
	if w.shared == nil || !spec.entry {
		return "", "", false
	}
	return w.shared.lookup(spec)
}

// idOnly reports whether the advice call of spec passes only the join
// point's id, with no residue, exit check or cflow.
func idOnly(spec *helperSpec) bool {
	if len(spec.params) > 0 || spec.jp == nil || spec.enclosing != nil || spec.tjp || spec.dims != 0 ||
		spec.residue != nil || spec.exitCheck != "" || spec.adv.Cflow != nil {
		return false
	}
	for _, v := range spec.args {
		if v.Kind != advice.JoinPointID || v.Annotation != "" {
			return false
		}
	}
	return true
}

// idSlot is a join point id a woven method loads from its class's
// constant pool: the pool index, then the offset of the entry in the
// encoded class, and the class-relative id.
type idSlot struct {
	index  uint16
	offset int
	rel    int32
}

// pushSharedID emits the load of join point rel's absolute id from a new
// slot of the class's pool.
func (e *emitter) pushSharedID(rel int32) {
	cw := e.cw
	i := cw.c.Pool.AddIntSlot(rel)
	cw.idSlots = append(cw.idSlots, idSlot{index: i, rel: rel})
	e.add(classfile.Insn{Op: classfile.OpLdc, Index: i})
}

// locateIDs records where the id slots are in the encoded class.
func (cw *classWeaver) locateIDs() {
	if len(cw.idSlots) == 0 {
		return
	}
	indexes := make([]uint16, len(cw.idSlots))
	for k, s := range cw.idSlots {
		indexes[k] = s.index
	}
	for k, off := range cw.c.Pool.EntryOffsets(indexes) {
		cw.idSlots[k].offset = off
	}
}

// setIDs writes the absolute ids into the id slots of class, the encoded
// class whose join points are numbered from base.
func (cw *classWeaver) setIDs(class []byte, base int32) {
	for _, s := range cw.idSlots {
		binary.BigEndian.PutUint32(class[s.offset+1:], uint32(base+s.rel))
	}
}

// SharedClass returns the class file of SharedClass, nil if the weaving
// has none (no Options.SharedEntries, or no advice of that shape); the
// driver adds it to java.base.
func (w *Weaver) SharedClass() ([]byte, error) {
	if w.shared == nil || w.shared.empty() {
		return nil, nil
	}
	return w.shared.bytes(0)
}
