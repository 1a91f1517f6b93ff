package weaver

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// entryScratch is weaveEntry's emitter and Code for one class.
type entryScratch struct {
	e    emitter
	code classfile.Code
}

// classWeaver weaves the methods of one class.
type classWeaver struct {
	w      *Weaver
	c      *classfile.Class
	name   string
	file   string
	sister *sister
	// ids counts the class's join point ids, numbered from 0 until
	// Weaver.finish adds the class's base.
	ids int32
	// advised counts the advised shadows recorded, applied lists their
	// advice, each once.
	advised int
	applied []*advice.Advice
	// entry is weaveEntry's emitter and Code, reused method after method
	// (nothing keeps them past InsertCode), dropped once the class's
	// methods are woven (a driver may hold many classes until finished).
	entry *entryScratch
	// enclosing caches the execution static part of each method.
	enclosing map[*classfile.Member]*jpInfo
	binName   string // name as a binary name, once needed
	guard     guardRefs
	// idSlots are the pool slots of ids passed to SharedClass (fused.go).
	idSlots []idSlot
	// missing are the types the frames of methods left unwoven needed and
	// the hierarchy did not have (Result.Missing).
	missing []string
	fields  map[uint16]fieldRef // field references resolved (field.go), by pool index
	// declared collects the declare warnings and errors of the class's
	// shadows; checkOnly finds shadows for them alone (Weaver.Check).
	declared  []Declared
	checkOnly bool
	// ifaces caches ifaceInitTypes (init.go).
	ifaces *[]string
	// around.go: hidden says the class is hidden (its sister cannot name
	// it); aroundMethods counts its weft$around$N methods; warnings are
	// around advice left unwoven.
	hidden        bool
	aroundMethods int
	warnings      []string
	// scan holds findShadows' scratch shadows, reused from method to
	// method: the execution shadow, the instruction being matched and
	// the copy matching works on. Fresh ones escaped to the heap, one
	// per instruction.
	scan struct{ exec, insn, match shadow }
}

// shadow is a matched shadow inside one method body.
type shadow struct {
	advice.Shadow
	at      int // index in code.Insns of the instruction (calls, arrays); -1 for execution
	line    int
	applied []advice.Applied
	id      int32
	// preSuper: the shadow lies before the super(...)/this(...) call of a
	// constructor, where `this` is not yet initialized.
	preSuper bool
	// newAt is, for a constructor call, the index of its `new`; dup says
	// the reference was duplicated, so the new object is on the stack
	// after the call.
	newAt int
	dup   bool
}

func (s *shadow) has(kinds ...advice.Kind) bool {
	for _, a := range s.applied {
		for _, k := range kinds {
			if a.Advice.Kind == k {
				return true
			}
		}
	}
	return false
}

// weaveMethod finds and matches the shadows of m and, if any advice
// applies, rewrites m's body (emit.go: guard, advice calls). It returns
// whether m changed and a warning when m was left unwoven despite advice;
// the advised shadows of a woven m are appended to infos.
func (cw *classWeaver) weaveMethod(m *classfile.Member, infos *[]WeaveInfo) (bool, string) {
	c := cw.c
	mname, mdesc := c.MemberName(m), c.MemberDesc(m)
	where := memberWhere{cw.name, mname, mdesc} // formatted in warnings only
	if m.Access&classfile.AccBridge != 0 {
		// Like ajc, no join points at all in bridge methods (they are the
		// compiler's, not the program's).
		return false, ""
	}
	shadows, done, err := cw.weaveEntry(m)
	switch {
	case err != nil:
		return false, fmt.Sprintf("%s: left unwoven: %v", where, err)
	case done:
		cw.record(shadows, infos)
		return len(shadows) > 0, ""
	}
	code, err := classfile.DecodeCode(c, m)
	if err != nil {
		return false, fmt.Sprintf("%s: left unwoven: %v", where, err)
	}
	if code == nil {
		return false, ""
	}
	if cw.anyAdvice() && hasSubroutines(code) {
		// The copy would need its own subroutines; such old code is rare.
		return false, fmt.Sprintf("%s: left unwoven: jsr/ret subroutines are not supported", where)
	}
	if shadows == nil {
		shadows = cw.findShadows(m, code, firstLine(code))
	}
	if len(shadows) == 0 {
		return false, ""
	}
	cw.number(shadows)
	uncounted := ""
	for {
		woven, warn, tooLarge := cw.rewrite(m, code, shadows, uncounted)
		if tooLarge && uncounted == "" && countModeOf(splitShadows(shadows).body) != countNone {
			// Counting made it too large: woven again, uncounted.
			if code, err = classfile.DecodeCode(c, m); err != nil {
				return false, fmt.Sprintf("%s: left unwoven: %v", where, err)
			}
			uncounted = "counting its bytecodes would take it over the 64 KB limit"
			continue
		}
		if !woven {
			return false, fmt.Sprintf("%s: left unwoven: %s", where, warn)
		}
		cw.record(shadows, infos)
		if warn != "" {
			return true, fmt.Sprintf("%s: bytecodes not counted: %s", where, warn)
		}
		return true, ""
	}
}

// rewrite weaves the shadows into m's decoded body and encodes it: it
// reports whether m was woven, and why not, or, woven, why advice taking
// the bytecode count gets 0 (uncounted: the reason known beforehand,
// which keeps the body from being counted); tooLarge when the woven
// method would be over the JVM's 64 KB limit.
func (cw *classWeaver) rewrite(m *classfile.Member, code *classfile.Code, shadows []*shadow, uncounted string) (woven bool, why string, tooLarge bool) {
	c := cw.c
	// The body's own frames stay (KeepFrames): the advice code only uses
	// locals from its max_locals on and leaves the stack as it was, so
	// the merges of the program's types at its join points remain the
	// compiler's, who knew the types; the weaver may not (a jar woven
	// without its dependencies, a class defined at load time).
	kept := int(code.MaxLocals)
	saved := append([]classfile.Attribute(nil), m.Attributes...)
	mname := c.MemberName(m)
	e := &emitter{cw: cw, m: m, code: code, static: m.Access&classfile.AccStatic != 0,
		ctor: mname == "<init>", desc: c.MemberDesc(m), uncountedWhy: uncounted}
	if err := e.emit(shadows); err != nil {
		m.Attributes = saved
		return false, err.Error(), false
	}
	err := code.Encode(c, m, classfile.EncodeOptions{Frames: true, Hierarchy: cw.hierarchy(),
		KeepFrames: true, KeptLocals: kept})
	putInsns(code.Insns) // the woven body is written: its list is free
	code.Insns = nil
	if u := (*classfile.UnknownTypeError)(nil); errors.As(err, &u) {
		m.Attributes = saved
		if !slices.Contains(cw.missing, u.Missing) {
			cw.missing = append(cw.missing, u.Missing)
		}
		return false, fmt.Sprintf("%v (a class path with %s would let it be woven)", u, u.Missing), false
	}
	if big := (*classfile.CodeTooLargeError)(nil); errors.As(err, &big) {
		m.Attributes = saved
		return false, fmt.Sprintf("the woven method would be %d bytes, over the 64 KB limit", big.Size), true
	}
	if err != nil {
		m.Attributes = saved
		return false, err.Error(), false
	}
	return true, e.uncountedWhy, false
}

// number gives the shadows of a method the class's next join point ids.
func (cw *classWeaver) number(shadows []*shadow) {
	for _, s := range shadows {
		s.id = cw.ids
		cw.ids++
	}
}

// record counts the advised shadows of a woven method and notes their
// advice, and appends them to infos unless the weaver omits them.
func (cw *classWeaver) record(shadows []*shadow, infos *[]WeaveInfo) {
	for _, s := range shadows {
		for _, a := range s.applied {
			if a.Advice.Cflow != nil {
				continue // weft's own: a cflow's entry or exit
			}
			cw.advised++
			if n := len(cw.applied); n == 0 || cw.applied[n-1] != a.Advice && !slices.Contains(cw.applied, a.Advice) {
				cw.applied = append(cw.applied, a.Advice)
			}
			if cw.w.opts.OmitShadows {
				continue
			}
			*infos = append(*infos, WeaveInfo{Kind: s.Kind, Member: s.Member, Within: cw.name,
				File: cw.file, Line: s.line, ID: s.id, Advice: a.Advice, Residue: a.Verdict == advice.Maybe})
		}
	}
}

// memberWhere formats as "Class.nameDesc", the prefix of warnings.
type memberWhere struct{ class, name, desc string }

func (w memberWhere) String() string { return w.class + "." + w.name + w.desc }

func (cw *classWeaver) anyAdvice() bool { return len(cw.w.advice) > 0 }

// noHierarchy answers nothing: frames then merge unknown classes to Object.
type noHierarchy struct{}

func (noHierarchy) Lookup(name string) (*classfile.ClassInfo, error) {
	return nil, fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
}

// findShadows lists the shadows of m's body that some advice matches, in
// code order (the execution shadow first). firstLine is the line of the
// body's first instruction. code may be nil where only the execution
// shadow can match (entryOnly): a constructor's is then left to the
// caller to place, firstLine the line where it starts.
func (cw *classWeaver) findShadows(m *classfile.Member, code *classfile.Code, firstLine int) []*shadow {
	c, h := cw.c, cw.w.opts.Hierarchy
	mname, mdesc := c.MemberName(m), c.MemberDesc(m)
	self := advice.Member{Owner: cw.name, Name: mname, Desc: mdesc, Access: m.Access,
		AccessKnown: true, Exceptions: exceptions(c, m)}
	static := m.Access&classfile.AccStatic != 0
	ctor := mname == "<init>"
	kinds := cw.shadowKinds()
	var out []*shadow
	// A constructor's execution shadow is placed after the loop below:
	// its declarations wait for its line (ctorDecl), in the place of the
	// method's first (declAt).
	var ctorDecl *shadow
	declAt := len(cw.declared)
	// Most instructions match nothing: they are matched in one scratch
	// shadow, copied out only when advice applies.
	scratch := &cw.scan.match
	leaf := cw.w.testsLeaf && classfile.SelfContained(c, m)
	match := func(s *shadow) {
		s.Leaf = leaf
		if cw.w.declKinds.Has(s.Kind) {
			if s.Kind == advice.ConstructorExecution {
				ctorDecl = s
			} else {
				cw.declare(s)
			}
		}
		if cw.checkOnly || !cw.w.adviceKinds.Has(s.Kind) {
			return
		}
		*scratch = *s
		scratch.applied = cw.filter(&scratch.Shadow, cw.w.m.Match(&scratch.Shadow, h))
		if len(scratch.applied) > 0 {
			m := new(shadow)
			*m = *scratch
			out = append(out, m)
		}
	}
	// Like ajc, synthetic methods (lambda bodies, accessors) have
	// execution join points, bridge methods do not.
	if mname != "<clinit>" && m.Access&classfile.AccBridge == 0 {
		k := advice.MethodExecution
		if ctor {
			k = advice.ConstructorExecution
		}
		if kinds.Has(k) {
			cw.scan.exec = shadow{Shadow: advice.Shadow{Kind: k, Within: cw.name, Code: self, Member: self,
				StaticThis: static, StaticTarget: static}, at: -1, line: firstLine}
			match(&cw.scan.exec)
		}
	}
	if mname == "<clinit>" && kinds.Has(advice.StaticInitialization) {
		match(cw.staticInitShadow(self, firstLine))
	}
	// (Pre)initialization shadows need the loop's super(...) call.
	initKinds := ctor && kinds&(1<<advice.Initialization|1<<advice.PreInitialization) != 0
	if !initKinds && kinds&insnKinds == 0 {
		// No advice matches a shadow in the body: at most the execution
		// shadow, whose placement in a constructor needs the loop below
		// to find the super(...)/this(...) call.
		if len(out) == 0 && ctorDecl == nil || !ctor || code == nil {
			return out // without code (weaveEntry), the caller places it
		}
	}
	lineAt := newLineTable(code.Lines)
	var exec *shadow
	if len(out) > 0 {
		exec = out[0]
	}
	preSuper := ctor
	var news []int
	line := firstLine
	superAt := -1
	for i, in := range code.Insns {
		var (
			kind         advice.ShadowKind
			member       advice.Member
			staticTarget = true
			newAt        = -1
			dup          bool
		)
		switch in.Op {
		case classfile.OpLabel:
			if l, ok := lineAt.at(in.Label); ok {
				line = l
			}
			continue
		case classfile.OpNew:
			news = append(news, i)
			continue
		case classfile.OpInvokevirtual, classfile.OpInvokeinterface, classfile.OpInvokestatic, classfile.OpInvokespecial:
			owner, name, desc := c.Pool.MemberRef(in.Index)
			if name == "<init>" {
				if len(news) == 0 {
					// super(...) or this(...): the constructor-execution
					// shadow starts after it.
					if preSuper {
						superAt = i
						preSuper = false
					}
					continue
				}
				newAt = news[len(news)-1]
				news = news[:len(news)-1]
				dup = newAt+1 < len(code.Insns) && code.Insns[newAt+1].Op == classfile.OpDup
				kind = advice.ConstructorCall
				if !kinds.Has(kind) {
					continue
				}
			} else {
				if in.Op == classfile.OpInvokespecial && owner != cw.name {
					// super.m(...): like ajc, not a call join point
					// (invokespecial of a private method of this class is).
					continue
				}
				kind = advice.MethodCall
				if !kinds.Has(kind) {
					continue
				}
				staticTarget = in.Op == classfile.OpInvokestatic
				if staticTarget {
					owner = cw.staticOwner(owner, name, desc)
				}
			}
			member = advice.Member{Owner: owner, Name: name, Desc: desc}
		case classfile.OpNewarray, classfile.OpAnewarray, classfile.OpMultianewarray:
			if !kinds.Has(advice.ArrayConstruction) {
				continue
			}
			member = arrayMember(c, in)
			kind = advice.ArrayConstruction
		case classfile.OpGetfield, classfile.OpGetstatic, classfile.OpPutfield, classfile.OpPutstatic:
			var ok bool
			if kind, member, ok = cw.fieldAccess(code.Insns, i, kinds); !ok {
				continue
			}
			// Before super(...), a putfield may set a field of the
			// uninitialized this, which cannot be passed to advice.
			staticTarget = in.Op == classfile.OpGetstatic || in.Op == classfile.OpPutstatic ||
				preSuper && in.Op == classfile.OpPutfield
		default:
			continue
		}
		s := &cw.scan.insn // never a constructor execution: match keeps no pointer to it
		*s = shadow{at: i, line: line, preSuper: preSuper, newAt: newAt, dup: dup}
		s.Kind, s.Member, s.Within, s.Code = kind, member, cw.name, self
		s.StaticThis, s.StaticTarget = static || preSuper, staticTarget
		match(s)
	}
	if exec != nil && exec.Kind == advice.ConstructorExecution {
		if superAt < 0 {
			// No super/this call found: cannot place constructor execution.
			out = out[1:]
		} else {
			// ajc places constructor execution at the first line after
			// the super(...)/this(...) call.
			exec.at = superAt
			exec.line = lineAfter(code, lineAt, superAt, exec.line)
		}
	}
	if ctor && superAt >= 0 {
		cw.ctorShadows(code, lineAt, self, superAt, firstLine, kinds, match)
	}
	if !ctor || superAt >= 0 {
		cw.handlerShadows(code, lineAt, self, static, superAt, kinds, match)
	}
	if ctorDecl != nil && superAt >= 0 {
		ctorDecl.line = lineAfter(code, lineAt, superAt, ctorDecl.line)
		rest := append([]Declared(nil), cw.declared[declAt:]...)
		cw.declared = cw.declared[:declAt]
		cw.declare(ctorDecl)
		cw.declared = append(cw.declared, rest...)
	}
	return out
}

// insnKinds are the kinds of shadows at an instruction of a body (or at a
// handler): finding them takes the decoded code.
const insnKinds = 1<<advice.MethodCall | 1<<advice.ConstructorCall | 1<<advice.ArrayConstruction |
	1<<advice.FieldGet | 1<<advice.FieldSet | 1<<advice.ExceptionHandler

// firstLine returns the line of the body's first instruction: the line
// of the label placed before it, else (or if that is 0) the first line
// entry's, else 0.
func firstLine(code *classfile.Code) int {
	lineAt := newLineTable(code.Lines)
	line := 0
	for _, in := range code.Insns {
		if in.Op != classfile.OpLabel {
			break
		}
		if l, ok := lineAt.at(in.Label); ok {
			line = l
			break
		}
	}
	if line == 0 && len(code.Lines) > 0 {
		line = int(code.Lines[0].Line)
	}
	return line
}

// lineTable maps the labels of a just decoded Code to the source line
// they start (the first LineNumberTable entry wins, as javap shows). It
// looks labels up by their decoded offset: one sorted slice instead of a
// map per method.
type lineTable []lineEntry

type lineEntry struct{ off, line int }

func newLineTable(lines []classfile.LineNumber) lineTable {
	t := make(lineTable, 0, len(lines))
	sorted := true
	for _, ln := range lines {
		if ln.Start == nil {
			continue
		}
		if n := len(t); n > 0 && t[n-1].off >= ln.Start.Offset {
			sorted = false
		}
		t = append(t, lineEntry{ln.Start.Offset, int(ln.Line)})
	}
	if !sorted {
		// Stable, so that the first entry of an offset stays first.
		sort.SliceStable(t, func(i, j int) bool { return t[i].off < t[j].off })
	}
	return t
}

// at returns the line starting at label l, if any.
func (t lineTable) at(l *classfile.Label) (int, bool) {
	if l == nil {
		return 0, false
	}
	i := sort.Search(len(t), func(i int) bool { return t[i].off >= l.Offset })
	if i < len(t) && t[i].off == l.Offset {
		return t[i].line, true
	}
	return 0, false
}

// lineAfter returns the source line in effect at the first instruction
// after index i, or def.
func lineAfter(code *classfile.Code, lineAt lineTable, i, def int) int {
	line := def
	for k := i + 1; k < len(code.Insns); k++ {
		in := code.Insns[k]
		if in.Op != classfile.OpLabel {
			return line
		}
		if l, ok := lineAt.at(in.Label); ok {
			line = l
		}
	}
	return line
}

// arrayMember is the member of an array construction shadow at in.
func arrayMember(c *classfile.Class, in classfile.Insn) advice.Member {
	switch in.Op {
	case classfile.OpNewarray:
		elem, _ := classfile.NewarrayType(in.Const)
		return advice.Member{Owner: "[" + string(elem), Name: "<init>", Desc: "(I)V"}
	case classfile.OpAnewarray:
		return advice.Member{Owner: "[" + string(classfile.ObjectType(c.Pool.ClassName(in.Index))), Name: "<init>", Desc: "(I)V"}
	}
	return advice.Member{Owner: c.Pool.ClassName(in.Index), Name: "<init>", Desc: "(" + strings.Repeat("I", int(in.Const)) + ")V"}
}

// filter drops advice whose returning/throwing type can never match the
// shadow's value, so no call is woven for it.
func (cw *classWeaver) filter(s *advice.Shadow, as []advice.Applied) []advice.Applied {
	out := as[:0:0]
	for _, a := range as {
		if a.Advice.Kind == advice.AfterReturning && a.Advice.ReturnType != "" {
			rd := s.ReturnedDesc()
			rt := a.Advice.ReturnType
			if classfile.Type(rt).IsPrimitive() && rt != rd {
				continue
			}
			if rd == "V" && rt != "Ljava/lang/Object;" {
				continue
			}
		}
		out = append(out, a)
	}
	return cw.aroundApplies(s, out)
}

// staticOwner returns the class declaring the static method name:desc
// that an invokestatic naming owner resolves to (JVMS 5.4.3.3: owner, then
// its superclasses). As in AspectJ, a static method called through a
// subclass (Sub.s() for a method of Super) is a call of Super.s(): static
// methods are not overridden, so its join point has that one signature.
// owner itself when the weaver's hierarchy cannot tell, or where only an
// interface would declare it (static interface methods are not inherited).
func (cw *classWeaver) staticOwner(owner, name, desc string) string {
	mh, ok := cw.w.opts.Hierarchy.(advice.MethodHierarchy)
	if !ok {
		return owner
	}
	d, ok := resolveMethod(mh, advice.Member{Owner: owner, Name: name, Desc: desc})
	if !ok || d.Owner == owner {
		return owner
	}
	if ci, err := mh.Lookup(d.Owner); err != nil || ci == nil || ci.IsInterface() {
		return owner
	}
	return d.Owner
}
