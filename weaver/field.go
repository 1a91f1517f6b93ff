package weaver

import (
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Field access shadows: field-get at getfield/getstatic, field-set at
// putfield/putstatic, as ajc makes them.
//
// A field reference is resolved as the JVM resolves it (JVMS 5.4.3.2: the
// named class, then its superinterfaces, then its superclasses) to the
// field's declaration, which is the shadow's Member: ajc's join point
// signature, and what its -showWeaveInfo prints (field-get(int app.A.x)
// for a getfield of app/B.x that B inherits). Like ajc, these are no join
// points: accesses of synthetic fields (this$0, $assertionsDisabled) and
// of ajc$ fields, accesses of fields that cannot be resolved (a class
// missing from the hierarchy), and a set of a final field right after an
// instruction pushing a constant (iconst, lconst, fconst, dconst, bipush,
// sipush; ajc's "set of a final constant" — but not aconst_null or ldc).
//
// Woven code is callShadow's: the objectref and the new value are saved
// to locals when advice uses them, the advice runs, they are pushed back
// and the instruction runs; after returning advice of a get receives the
// value read.

// FieldHierarchy is a classfile.Hierarchy that also knows the fields each
// class declares. Given one (MethodHierarchy is one), the weaver resolves
// field references to their declarations as the JVM and ajc do; given a
// plain Hierarchy, it resolves only the woven class's own fields and takes
// any other reference as is, with unknown modifiers (so patterns with
// modifiers do not match it).
type FieldHierarchy interface {
	classfile.Hierarchy
	// DeclaredField returns the field name:desc that class itself
	// declares (Owner, Name, Desc, Access filled), and false if it
	// declares none or the class is unknown.
	DeclaredField(class, name, desc string) (advice.Member, bool)
}

// fieldRef is a resolved field reference.
type fieldRef struct {
	m  advice.Member
	ok bool // false: no join point (unresolved, synthetic, ajc$)
}

// fieldAccess returns the shadow kind and member of the field instruction
// at insns[i], and false when it is no join point or no advice can match
// its kind.
func (cw *classWeaver) fieldAccess(insns []classfile.Insn, i int, kinds advice.KindSet) (advice.ShadowKind, advice.Member, bool) {
	in := insns[i]
	kind := advice.FieldGet
	if in.Op == classfile.OpPutfield || in.Op == classfile.OpPutstatic {
		kind = advice.FieldSet
	}
	if !kinds.Has(kind) {
		return kind, advice.Member{}, false
	}
	r := cw.fieldRef(in.Index)
	if !r.ok {
		return kind, advice.Member{}, false
	}
	if kind == advice.FieldSet && r.m.AccessKnown && r.m.Access&classfile.AccFinal != 0 && pushesConstant(insns, i) {
		return kind, advice.Member{}, false
	}
	return kind, r.m, true
}

// pushesConstant reports whether the instruction before insns[i] (labels
// skipped, as they are no instructions) pushes a constant in ajc's sense.
func pushesConstant(insns []classfile.Insn, i int) bool {
	for k := i - 1; k >= 0; k-- {
		if op := insns[k].Op; op != classfile.OpLabel {
			return op >= classfile.OpIconstM1 && op <= classfile.OpSipush
		}
	}
	return false
}

// fieldRef resolves the field reference at pool index idx, once per class.
func (cw *classWeaver) fieldRef(idx uint16) fieldRef {
	if r, ok := cw.fields[idx]; ok {
		return r
	}
	owner, name, desc := cw.c.Pool.MemberRef(idx)
	var r fieldRef
	if !strings.HasPrefix(name, "ajc$") {
		m, found, known := cw.lookupField(owner, name, desc)
		switch {
		case !known:
			r = fieldRef{m: advice.Member{Owner: owner, Name: name, Desc: desc}, ok: true}
		case found:
			r = fieldRef{m: m, ok: m.Access&classfile.AccSynthetic == 0}
		}
	}
	if cw.fields == nil {
		cw.fields = map[uint16]fieldRef{}
	}
	cw.fields[idx] = r
	return r
}

// lookupField finds the declaration of field name:desc referenced through
// class (JVMS 5.4.3.2). known is false when the weaver's hierarchy cannot
// tell (it knows no fields): then only the woven class's own fields are
// found.
func (cw *classWeaver) lookupField(class, name, desc string) (m advice.Member, found, known bool) {
	if class == cw.name {
		for _, f := range cw.c.Fields {
			if cw.c.MemberName(f) == name && cw.c.MemberDesc(f) == desc {
				return advice.Member{Owner: class, Name: name, Desc: desc, Access: f.Access, AccessKnown: true}, true, true
			}
		}
	}
	fh, ok := cw.w.opts.Hierarchy.(FieldHierarchy)
	if !ok {
		return advice.Member{}, false, false
	}
	m, found = resolveField(fh, class, name, desc, map[string]bool{})
	return m, found, true
}

// resolveField is JVMS 5.4.3.2's field lookup in class and its supertypes.
func resolveField(h FieldHierarchy, class, name, desc string, seen map[string]bool) (advice.Member, bool) {
	if seen[class] {
		return advice.Member{}, false
	}
	seen[class] = true
	if m, ok := h.DeclaredField(class, name, desc); ok {
		return m, true
	}
	ci, err := h.Lookup(class)
	if err != nil || ci == nil {
		return advice.Member{}, false
	}
	for _, i := range ci.Interfaces {
		if m, ok := resolveField(h, i, name, desc, seen); ok {
			return m, true
		}
	}
	if ci.Super != "" {
		return resolveField(h, ci.Super, name, desc, seen)
	}
	return advice.Member{}, false
}

// fieldSignature writes a field as ajc does: "int app.A.x".
func fieldSignature(m advice.Member) string {
	return classfile.Type(m.Desc).JavaName() + " " + classfile.ObjectType(m.Owner).JavaName() + "." + m.Name
}

// DeclaredField implements FieldHierarchy.
func (mh *MethodHierarchy) DeclaredField(class, name, desc string) (advice.Member, bool) {
	d := mh.class(class)
	if d == nil {
		return advice.Member{}, false
	}
	m, ok := d.fields[name+":"+desc]
	return m, ok
}
