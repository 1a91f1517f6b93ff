package weaver

import (
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// weaveEntry weaves method m without decoding its body where that is
// possible: when the only shadow advice can match there is m's execution
// (no advice on calls, fields or handlers, no declarations), it is matched
// from m's header and line table alone; with nothing to weave, m is done,
// and with before advice only, the guard and the advice calls (what
// emitInPlace puts before the body; in a constructor, the guard before it
// and the advice calls after its super(...) or this(...) call) are put
// into the body's unchanged bytes by classfile.InsertCode. done says m is
// done (woven if shadows is not empty); otherwise shadows, if not nil, are
// m's shadows, not yet numbered, for the decoding path to weave.
func (cw *classWeaver) weaveEntry(m *classfile.Member) (shadows []*shadow, done bool, err error) {
	c := cw.c
	if !cw.entryOnly(m) {
		return nil, false, nil
	}
	line, ok := classfile.EntryLine(c, m)
	if !ok {
		return nil, false, nil
	}
	ctor := c.MemberName(m) == "<init>"
	split := 0
	if ctor {
		// Its execution starts after the super(...) or this(...) call,
		// at that point's line, if one starts there (findShadows).
		if split, ok = classfile.SuperCallEnd(c, m); !ok {
			return nil, false, nil
		}
		if l, ok := classfile.LineAt(c, m, split); ok {
			line = l
		}
	}
	shadows = cw.findShadows(m, nil, line)
	if len(shadows) == 0 {
		return nil, true, nil
	}
	if !beforeOnly(shadows) {
		if ctor {
			return nil, false, nil // its shadow's placement is the decoding path's
		}
		return shadows, false, nil
	}
	ids := cw.ids
	cw.number(shadows)
	var e *emitter
	done, err = classfile.InsertCode(c, m, cw.hierarchy(), split, func(maxLocals uint16) (entry, at []classfile.Insn) {
		// One emitter and Code per class, reset for each method (one
		// per method were 7 MB of weaving guava's allocations).
		if cw.entry == nil {
			cw.entry = &entryScratch{}
		}
		x := cw.entry
		x.code = classfile.Code{MaxLocals: maxLocals}
		x.e = emitter{cw: cw, m: m, code: &x.code,
			static: m.Access&classfile.AccStatic != 0, ctor: ctor, desc: c.MemberDesc(m)}
		e = &x.e
		e.out = getInsns(32)
		e.reserveLocals()
		e.inPlace = true
		// beforeOnly: shadows are the execution alone, its body shadow.
		if e.fuse = e.fusable(shadowSet{body: shadows}); !e.fuse {
			e.takeToken()
		}
		if ctor {
			entry, e.out = e.out, getInsns(32)
		}
		e.execBefore(shadows[0])
		if ctor {
			return e.finishDirect(entry), e.out
		}
		e.out = e.finishDirect(e.out)
		return e.out, nil
	})
	if e != nil {
		putInsns(e.out)
		*cw.entry = entryScratch{} // nothing of this method's kept
	}
	if !done {
		// The decoding path numbers them again, from the same id.
		cw.ids = ids
		if ctor {
			return nil, false, err
		}
	}
	return shadows, done, err
}

// entryOnly reports whether the only shadow of m any advice can match is
// its execution, so that its body need not be decoded to find it: in a
// weaving without advice on calls, fields or handlers and without
// declarations (whose reports must follow the decoding path's order),
// methods other than bridges, constructors if no advice is on their
// (pre)initialization, and static initializers if none is on theirs
// (they then have no shadow at all).
func (cw *classWeaver) entryOnly(m *classfile.Member) bool {
	kinds := cw.shadowKinds()
	if cw.checkOnly || cw.w.opts.decodeAll || cw.w.declKinds != 0 || kinds&insnKinds != 0 ||
		m.Access&(classfile.AccBridge|classfile.AccAbstract|classfile.AccNative) != 0 {
		return false
	}
	switch cw.c.MemberName(m) {
	case "<clinit>":
		return !kinds.Has(advice.StaticInitialization)
	case "<init>":
		return kinds&(1<<advice.Initialization|1<<advice.PreInitialization) == 0
	}
	return true
}

// beforeOnly reports whether shadows are one method or constructor
// execution whose advice all runs before it (weaveEntry's case: a guard
// and advice calls ahead of the body, nothing inside it).
func beforeOnly(shadows []*shadow) bool {
	if len(shadows) != 1 || shadows[0].Kind != advice.MethodExecution && shadows[0].Kind != advice.ConstructorExecution {
		return false
	}
	for _, a := range shadows[0].applied {
		if a.Advice.Kind != advice.Before || a.Advice.Cflow != nil {
			return false
		}
	}
	return true
}

// hierarchy is the hierarchy frames are computed with.
func (cw *classWeaver) hierarchy() classfile.Hierarchy {
	if h := cw.w.opts.Hierarchy; h != nil {
		return h
	}
	return noHierarchy{}
}
