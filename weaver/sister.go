package weaver

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// A sister class holds everything static the woven code of one class needs,
// so the woven class keeps its fields and <clinit>: static helpers that
// test the residue, set the DIB around the advice call and pass it the join
// point's id or static part. Helpers are shared by every shadow of the class
// whose advice call has the same shape (advice, value types, residue): the
// woven code passes the shadow's class-relative id as an int argument, and
// the helper adds the class's base id or, for a static part, calls the
// sister's jp(int) method, a table of the static parts loaded so far,
// filled through a switch over ldc of dynamic constants. Fewer
// helper methods means less for the JIT to compile: one per shadow doubled
// the methods C1 compiled on a woven JDK. Nothing in it initializes until woven code first calls
// a helper, which happens only after bootstrap (BIB) and outside bypassed
// code (DIB), or, in an all-leaf application weaving, first reads its
// constant direct, after bootstrap (leaf.go); the class itself has no
// <clinit> but the one initializing leaf advice classes in a bypass (and
// setting direct), and its other static field, the table of static parts,
// is filled inside the helpers' bypass.
type sister struct {
	name    string
	mu      sync.Mutex
	helpers []*helperSpec
	byKey   map[string]*helperSpec
	// advIDs numbers the advice of the helpers (the key's first part);
	// keyBuf is the key being looked up.
	advIDs map[*advice.Advice]int
	keyBuf []byte
	// parts holds the static parts some helper loads, by relative id;
	// idParts those of the ids passed to advice, which only Parts.of
	// loads (parts.go).
	parts   map[int32]*jpInfo
	idParts map[int32]*jpInfo
	// arounds are the around shadows; the sister is their closure (around.go).
	arounds []*aroundSpec
	// direct: some woven entry reads the constant direct (leaf.go).
	direct bool
	// shared: this is SharedClass (fused.go), public, whose helpers are
	// all made before weaving (newShared) and looked up after.
	shared bool
}

// lookup returns the name and descriptor of the helper for spec if the
// sister has one of its shape.
func (s *sister) lookup(spec *helperSpec) (name, desc string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.advIDs[spec.adv]; !ok {
		return "", "", false // and no number for it
	}
	h, ok := s.byKey[string(s.key(spec))]
	if !ok {
		return "", "", false
	}
	return h.name, h.desc, true
}

// empty reports whether the sister has nothing to hold: every helper of
// its class is SharedClass's.
func (s *sister) empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.helpers) == 0 && len(s.parts) == 0 && len(s.idParts) == 0 && len(s.arounds) == 0 && !s.direct
}

// holdsParts reports whether the sister holds static parts.
func (s *sister) holdsParts() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holdsPartsLocked()
}

func (s *sister) holdsPartsLocked() bool { return len(s.parts) > 0 || len(s.idParts) > 0 }

// useDirect makes the sister define the constant direct (leaf.go).
func (s *sister) useDirect() {
	s.mu.Lock()
	s.direct = true
	s.mu.Unlock()
}

// jpInfo is a join point static part as the sister class materializes it.
type jpInfo struct {
	id                                      int32
	kind, declType, name, sig, within, file string
	line                                    int
	mods                                    int32 // the member's access flags
}

// hparam is one parameter of a helper: a join point value and its static
// type at the shadow.
type hparam struct {
	kind  advice.ValueKind
	index int
	desc  string
}

// helperSpec describes one helper method.
type helperSpec struct {
	adv       *advice.Advice
	args      []advice.Value // the advice call's values at this shadow
	exitCheck string         // instanceof test on the returned/thrown value, "" if none
	residue   *advice.Residue
	params    []hparam
	jp        *jpInfo // the shadow's static part, if an advice value needs it
	enclosing *jpInfo
	dims      int  // number of dimension arguments (ArrayDims), else 0
	tjp       bool // an advice value is thisJoinPoint (tjp.go)
	tjpArgs   int  // the number of arguments thisJoinPoint holds
	eachArgs  int  // eachArg: the number of advice calls, one per argument (eacharg.go)
	leaf      bool // leaf advice may be called directly (leaf.go): an application weaving
	// entry: the helper is its method's guard too (fused.go): it takes no
	// token but takes and returns the thread's.
	entry bool

	name, desc string
}

func newSister(name string) *sister {
	return &sister{name: name, byKey: map[string]*helperSpec{}, parts: map[int32]*jpInfo{}, idParts: map[int32]*jpInfo{}}
}

func (h *helperSpec) methodDesc() string {
	var b strings.Builder
	b.WriteByte('(')
	if !h.entry {
		b.WriteString("Ljava/lang/Object;") // the guard's bypass token
	}
	for _, p := range h.params {
		b.WriteString(p.desc)
	}
	if h.jp != nil {
		b.WriteByte('I') // the shadow's relative id
	}
	if h.enclosing != nil {
		b.WriteByte('I') // the enclosing execution's relative id
	}
	if h.entry {
		b.WriteString(")Ljava/lang/Object;") // the token
		return b.String()
	}
	b.WriteString(")V")
	return b.String()
}

// helper returns the name and descriptor of the helper for spec, adding it
// if none of the same shape exists. The join points are not part of the
// shape: the caller passes their relative ids.
func (s *sister) helper(spec *helperSpec) (string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepParts(spec)
	// The key is built in a reused buffer and looked up without a string
	// (most shadows of a class share a few shapes).
	key := s.key(spec)
	if h, ok := s.byKey[string(key)]; ok {
		return h.name, h.desc
	}
	spec.name = "a" + strconv.Itoa(len(s.helpers))
	spec.desc = spec.methodDesc()
	s.helpers = append(s.helpers, spec)
	s.byKey[string(key)] = spec
	return spec.name, spec.desc
}

// keepParts adds to the sister the static parts spec's advice call
// passes or names by id (s.mu held): a join point id passed to advice is
// one Parts.of finds the static part of, in this sister.
func (s *sister) keepParts(spec *helperSpec) {
	if s.shared {
		return // SharedClass's helpers pass the ids of other classes' parts
	}
	for _, v := range spec.args {
		switch v.Kind {
		case advice.JoinPointStaticPart, advice.JoinPoint:
			s.parts[spec.jp.id] = spec.jp
		case advice.JoinPointID:
			s.idParts[spec.jp.id] = spec.jp
		case advice.EnclosingStaticPart:
			s.parts[spec.enclosing.id] = spec.enclosing
		}
	}
}

// keepSharedParts is keepParts for an advice call of spec whose helper is
// another class's (SharedClass).
func (s *sister) keepSharedParts(spec *helperSpec) {
	s.mu.Lock()
	s.keepParts(spec)
	s.mu.Unlock()
}

// key returns spec's key, in the sister's buffer (s.mu held): its advice,
// numbered in the sister, and its shape.
func (s *sister) key(spec *helperSpec) []byte {
	adv, ok := s.advIDs[spec.adv]
	if !ok {
		if s.advIDs == nil {
			s.advIDs = map[*advice.Advice]int{}
		}
		adv = len(s.advIDs)
		s.advIDs[spec.adv] = adv
	}
	s.keyBuf = spec.appendKey(strconv.AppendInt(s.keyBuf[:0], int64(adv), 10))
	return s.keyBuf
}

// appendKey appends to b what, with the advice, makes a helper's shape: the
// parameters (their descriptors make the method descriptor), the static
// parts passed, the exit check, the residue and the dimensions.
func (h *helperSpec) appendKey(b []byte) []byte {
	for _, p := range h.params {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(p.kind), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.index), 10)
		b = append(b, ',')
		b = append(b, p.desc...)
	}
	b = append(b, '|')
	if h.jp != nil {
		b = append(b, 'J')
	}
	if h.enclosing != nil {
		b = append(b, 'E')
	}
	b = append(b, '|')
	b = append(b, h.exitCheck...)
	b = append(b, '|')
	if h.residue != nil {
		b = append(b, residueString(h.residue)...)
	}
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(h.dims), 10)
	b = h.appendAnnotationKey(b)
	if h.entry {
		b = append(b, "|G"...)
	}
	if h.tjp {
		b = append(b, "|T"...)
		b = strconv.AppendInt(b, int64(h.tjpArgs), 10)
	}
	if h.eachArgs > 0 {
		b = append(b, "|A"...)
		b = strconv.AppendInt(b, int64(h.eachArgs), 10)
	}
	return b
}

func residueString(r *advice.Residue) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "(%d %d %d %s", r.Op, r.Value.Kind, r.Value.Index, r.Type)
	if r.Op == advice.InCflow || r.Op == advice.If {
		b.WriteString(residueExtra(r))
	}
	for _, c := range r.Children {
		b.WriteString(residueString(c))
	}
	b.WriteByte(')')
	return b.String()
}

// jpInfo returns the static part of shadow s.
func (cw *classWeaver) jpInfo(s *shadow) *jpInfo {
	owner := s.Member.Owner
	if s.Kind == advice.ArrayConstruction {
		owner = s.Member.Owner
	}
	return &jpInfo{id: s.id, kind: s.Kind.String(), declType: classfile.ObjectType(owner).JavaName(), name: s.Member.Name,
		sig: Signature(s.Kind, s.Member), within: cw.binaryName(), file: cw.file, line: s.line, mods: cw.modifiers(s)}
}

// binaryName is the class's binary name, made once per class.
func (cw *classWeaver) binaryName() string {
	if cw.binName == "" {
		cw.binName = classfile.ObjectType(cw.name).JavaName()
	}
	return cw.binName
}

// enclosingInfo returns the static part of the execution join point of the
// method holding s (itself for execution shadows).
func (cw *classWeaver) enclosingInfo(m *classfile.Member, s *shadow) *jpInfo {
	if s.Kind == advice.MethodExecution || s.Kind == advice.ConstructorExecution {
		return cw.jpInfo(s)
	}
	key := m
	if cw.enclosing == nil {
		cw.enclosing = map[*classfile.Member]*jpInfo{}
	}
	if j, ok := cw.enclosing[key]; ok {
		return j
	}
	k := advice.MethodExecution
	switch s.Code.Name {
	case "<init>":
		k = advice.ConstructorExecution
	}
	kind := k.String()
	if s.Code.Name == "<clinit>" {
		kind = "staticinitialization"
	}
	j := &jpInfo{id: cw.ids, kind: kind, declType: cw.binaryName(), name: s.Code.Name,
		sig: Signature(k, s.Code), within: cw.binaryName(), file: cw.file, line: s.line, mods: int32(s.Code.Access)}
	cw.ids++
	cw.enclosing[key] = j
	return j
}

// bytes builds the sister class (version 55, for dynamic constants;
// package-private, final, synthetic) with join point ids from base.
func (s *sister) bytes(base int32) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := classfile.NewPool()
	c := &classfile.Class{Major: 55, Pool: p, Access: classfile.AccFinal | classfile.AccSuper | classfile.AccSynthetic}
	var public uint16
	if s.shared {
		public = classfile.AccPublic
	}
	c.Access |= public
	c.This = p.AddClass(s.name)
	c.Super = p.AddClass("java/lang/Object")
	g := &sisterGen{c: c, base: base, sister: s.name, direct: s.direct, isClosure: len(s.arounds) > 0}
	s.sortIDParts()
	if len(s.parts) > 0 {
		if err := g.partsMethods(s.parts); err != nil {
			return nil, err
		}
	}
	if len(s.arounds) > 0 {
		if err := g.closure(s.arounds); err != nil {
			return nil, err
		}
	}
	for _, h := range s.helpers {
		m := &classfile.Member{Access: public | classfile.AccStatic | classfile.AccSynthetic,
			Name: p.AddUtf8(h.name), Desc: p.AddUtf8(h.desc)}
		c.Methods = append(c.Methods, m)
		code := g.helperCode(h)
		if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
			return nil, err
		}
	}
	if s.holdsPartsLocked() {
		if err := g.partsSource(s.parts, s.idParts); err != nil {
			return nil, err
		}
	}
	if len(g.leafOrder) > 0 || g.partsCount > 0 {
		if err := g.staticInit(); err != nil {
			return nil, err
		}
	}
	if len(g.bsms) > 0 {
		b := binary.BigEndian.AppendUint16(nil, uint16(len(g.bsms)))
		for k, args := range g.bsms {
			b = binary.BigEndian.AppendUint16(b, g.bsmHandles[k])
			b = binary.BigEndian.AppendUint16(b, uint16(len(args)))
			for _, a := range args {
				b = binary.BigEndian.AppendUint16(b, a)
			}
		}
		c.Attributes = append(c.Attributes, classfile.Attribute{Name: p.AddUtf8("BootstrapMethods"), Info: b})
	}
	out := c.Bytes()
	p.Release()
	return out, nil
}

// sisterGen emits helper code into a sister class.
type sisterGen struct {
	c      *classfile.Class
	base   int32  // added to the class-relative join point ids
	sister string // the sister class's name
	insns  []classfile.Insn

	// bsms are the static arguments of the class's bootstrap methods,
	// bsmHandles their methods; annots are the annotation constants by
	// site, the dynamic constants they bootstrap (annotation_sister.go).
	bsms       [][]uint16
	bsmHandles []uint16
	annots     map[string]uint16
	// leafOrder lists the classes of the leaf advice helpers call
	// directly, which the static initializer initializes (leaf.go);
	// direct: it then sets the constant direct.
	leafOrder []string
	direct    bool
	// partsCount is one more than the largest relative id of the class's
	// static parts (partsMethods), which its static initializer registers
	// (parts.go); isClosure: the sister is its around shadows' closure.
	partsCount int32
	isClosure  bool
	// leafReach lists the other classes the leaf advice runs, each with
	// the advice class whose loader initializes it: {advice, class}.
	leafReach [][2]string
}

// The sister methods returning a static part by relative join point id:
// jp, which helpers call, reads the parts the class has loaded so far;
// jpMiss loads one through the switch method jpSwitch.
const (
	partsMethod  = "jp"
	partsDesc    = "(I)" + rtnames.JoinPointStaticPartDesc
	missMethod   = "jpMiss"
	switchMethod = "jpSwitch"
	// partsField holds the parts loaded so far, by relative id.
	partsField     = "parts"
	partsFieldDesc = "[" + rtnames.JoinPointStaticPartDesc
	// partsShift splits the ids into groups of 4096, one switch method
	// each, so no method nears 64 KB (about 12 bytes per static part).
	partsShift = 12
)

// partsMethods adds to c the methods returning the static parts by
// relative id:
//
//	private static JoinPointStaticPart[] parts;
//	static JoinPointStaticPart jp(int id) {
//	    JoinPointStaticPart[] t = parts; JoinPointStaticPart p;
//	    if (t != null && (p = t[id]) != null) return p;
//	    return jpMiss(id);
//	}
//	static synchronized JoinPointStaticPart jpMiss(int id) {
//	    if (parts == null) parts = new JoinPointStaticPart[maxID + 1];
//	    JoinPointStaticPart p = parts[id];
//	    if (p != null) return p; // a racing thread's
//	    return parts[id] = jpSwitch(id);
//	}
//	static JoinPointStaticPart jpSwitch(int id) {
//	    switch (id) { case k: return pk(); ... }
//	    return null;
//	}
//	static JoinPointStaticPart pk() {
//	    return JoinPointStaticPart.of(base+k, kind, ..., line, modifiers);
//	}
//
// jp is small enough for C1 and C2 to inline into every helper, so an
// advice call passing a static part costs two loads, not a call of a
// switch over every static part of the class: a large class's switch was
// not inlined, and it stayed interpreted until C2 compiled it. jpMiss is
// synchronized so that a shadow has one static part, whose fields are
// final. With more than one group of ids, jpSwitch switches on
// id>>partsShift to methods jpSwitch0, jpSwitch1, ... shaped like the
// above.
//
// A static part is made by a plain call, not loaded as a dynamic constant:
// the JVM passes a bootstrap method's nine static arguments through method
// handles it adapts (asType, a spreader) and interprets, which spun ~25
// classes and took ~80 ms at the first static part of a run, a hello world
// under weft recrash twice stock's start-up; and C2 does not compile a
// method holding an unresolved dynamic constant ("cannot parse method").
// Each pk is a method of its own, so jpSwitch stays a small switch.
func (g *sisterGen) partsMethods(parts map[int32]*jpInfo) error {
	ids := make([]int32, 0, len(parts))
	for id := range parts {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var groups [][]int32
	for i, id := range ids {
		if i == 0 || id>>partsShift != ids[i-1]>>partsShift {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], id)
	}
	p := g.c.Pool
	add := func(name string, code *classfile.Code) error {
		m := &classfile.Member{Access: classfile.AccStatic | classfile.AccSynthetic,
			Name: p.AddUtf8(name), Desc: p.AddUtf8(partsDesc)}
		g.c.Methods = append(g.c.Methods, m)
		return code.Encode(g.c, m, classfile.EncodeOptions{})
	}
	g.c.Fields = append(g.c.Fields, &classfile.Member{Access: classfile.AccPrivate | classfile.AccStatic | classfile.AccSynthetic,
		Name: p.AddUtf8(partsField), Desc: p.AddUtf8(partsFieldDesc)})
	if err := add(partsMethod, g.cachedPartCode()); err != nil {
		return err
	}
	if err := add(missMethod, g.missCode(ids[len(ids)-1]+1)); err != nil {
		return err
	}
	g.c.Methods[len(g.c.Methods)-1].Access |= classfile.AccSynchronized
	for _, id := range ids {
		if err := g.partMethod(parts[id]); err != nil {
			return err
		}
	}
	callPart := func(id int32) {
		g.invoke(classfile.OpInvokestatic, g.sister, partName(id), partDesc)
	}
	if len(groups) == 1 {
		return add(switchMethod, g.switchCode(ids, callPart))
	}
	keys := make([]int32, len(groups))
	for k, grp := range groups {
		keys[k] = grp[0] >> partsShift
		if err := add(fmt.Sprintf("%s%d", switchMethod, k), g.switchCode(grp, callPart)); err != nil {
			return err
		}
	}
	sub := map[int32]int{}
	for k, key := range keys {
		sub[key] = k
	}
	top := g.switchCode(keys, func(key int32) {
		g.idx(classfile.OpIload, 0)
		g.invoke(classfile.OpInvokestatic, g.sister, fmt.Sprintf("%s%d", switchMethod, sub[key]), partsDesc)
	})
	// The top method switches on id>>partsShift.
	top.Insns = append([]classfile.Insn{{Op: classfile.OpIload, Index: 0},
		{Op: classfile.OpBipush, Const: partsShift}, {Op: classfile.OpIshr}}, top.Insns[1:]...)
	top.MaxStack = 2
	return add(switchMethod, top)
}

// cachedPartCode builds jp: the part from the table, else jpMiss(id).
func (g *sisterGen) cachedPartCode() *classfile.Code {
	p := g.c.Pool
	field := p.AddFieldref(g.sister, partsField, partsFieldDesc)
	miss := classfile.NewLabel()
	// At miss local 1 holds the table or its element: Object.
	code := &classfile.Code{MaxStack: 2, MaxLocals: 2, Frames: []classfile.Frame{{At: miss,
		Locals: []classfile.VType{{Kind: classfile.VInteger}, {Kind: classfile.VObject, Class: "java/lang/Object"}}}}}
	g.insns = nil
	g.idx(classfile.OpGetstatic, field)
	g.idx(classfile.OpAstore, 1)
	g.idx(classfile.OpAload, 1)
	g.add(classfile.Insn{Op: classfile.OpIfnull, Label: miss})
	g.idx(classfile.OpAload, 1)
	g.idx(classfile.OpIload, 0)
	g.op(classfile.OpAaload)
	g.idx(classfile.OpAstore, 1)
	g.idx(classfile.OpAload, 1)
	g.add(classfile.Insn{Op: classfile.OpIfnull, Label: miss})
	g.idx(classfile.OpAload, 1)
	g.op(classfile.OpAreturn)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: miss})
	g.idx(classfile.OpIload, 0)
	g.invoke(classfile.OpInvokestatic, g.sister, missMethod, partsDesc)
	g.op(classfile.OpAreturn)
	code.Insns = g.insns
	return code
}

// missCode builds jpMiss, synchronized on the sister class: loads part
// id through jpSwitch into the table, made first (n entries) if none,
// unless a racing thread did, so a shadow has one static part.
func (g *sisterGen) missCode(n int32) *classfile.Code {
	p := g.c.Pool
	field := p.AddFieldref(g.sister, partsField, partsFieldDesc)
	part := classfile.VType{Kind: classfile.VObject, Class: rtnames.JoinPointStaticPart}
	table := []classfile.VType{{Kind: classfile.VInteger}, {Kind: classfile.VObject, Class: partsFieldDesc}}
	have, miss := classfile.NewLabel(), classfile.NewLabel()
	code := &classfile.Code{MaxStack: 4, MaxLocals: 3, Frames: []classfile.Frame{{At: have, Locals: table},
		{At: miss, Locals: append(table[:2:2], part)}}}
	g.insns = nil
	g.idx(classfile.OpGetstatic, field)
	g.idx(classfile.OpAstore, 1)
	g.idx(classfile.OpAload, 1)
	g.add(classfile.Insn{Op: classfile.OpIfnonnull, Label: have})
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(n)})
	g.idx(classfile.OpAnewarray, p.AddClass(rtnames.JoinPointStaticPart))
	g.op(classfile.OpDup)
	g.idx(classfile.OpPutstatic, field)
	g.idx(classfile.OpAstore, 1)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: have})
	g.idx(classfile.OpAload, 1)
	g.idx(classfile.OpIload, 0)
	g.op(classfile.OpAaload)
	g.idx(classfile.OpAstore, 2)
	g.idx(classfile.OpAload, 2)
	g.add(classfile.Insn{Op: classfile.OpIfnull, Label: miss})
	g.idx(classfile.OpAload, 2)
	g.op(classfile.OpAreturn)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: miss})
	g.idx(classfile.OpAload, 1)
	g.idx(classfile.OpIload, 0)
	g.idx(classfile.OpIload, 0)
	g.invoke(classfile.OpInvokestatic, g.sister, switchMethod, partsDesc)
	g.op(classfile.OpDupX2) // table, id, part -> part, table, id, part
	g.op(classfile.OpAastore)
	g.op(classfile.OpAreturn)
	code.Insns = g.insns
	return code
}

// The sister method loading one static part, by relative id.
const partDesc = "()" + rtnames.JoinPointStaticPartDesc

func partName(id int32) string { return "p" + strconv.Itoa(int(id)) }

// partMethod adds to c the method pk making static part k:
//
//	static JoinPointStaticPart pk() { return JoinPointStaticPart.of(base+k, kind, ...); }
func (g *sisterGen) partMethod(j *jpInfo) error {
	p := g.c.Pool
	m := &classfile.Member{Access: classfile.AccStatic | classfile.AccSynthetic,
		Name: p.AddUtf8(partName(j.id)), Desc: p.AddUtf8(partDesc)}
	g.c.Methods = append(g.c.Methods, m)
	g.insns = nil
	for _, c := range []uint16{p.AddInt(g.base + j.id), p.AddString(j.kind), p.AddString(j.declType), p.AddString(j.name),
		p.AddString(j.sig), p.AddString(j.within), p.AddString(j.file), p.AddInt(int32(j.line)), p.AddInt(j.mods)} {
		g.idx(classfile.OpLdc, c)
	}
	g.invokeRuntime(rtnames.JoinPointStaticPartOf)
	g.op(classfile.OpAreturn)
	code := &classfile.Code{MaxStack: 9, Insns: g.insns}
	return code.Encode(g.c, m, classfile.EncodeOptions{})
}

// switchCode builds `switch (local 0) { case k: <push(k)>; return; }
// return null;` for a method (I)Ljava/lang/Object-like.
func (g *sisterGen) switchCode(keys []int32, push func(int32)) *classfile.Code {
	code := &classfile.Code{MaxStack: 1, MaxLocals: 1}
	g.insns = nil
	sw := &classfile.Switch{Default: classfile.NewLabel(), Keys: keys}
	g.idx(classfile.OpIload, 0)
	g.add(classfile.Insn{Op: classfile.OpLookupswitch, Switch: sw})
	locals := []classfile.VType{{Kind: classfile.VInteger}}
	for _, k := range keys {
		l := classfile.NewLabel()
		sw.Targets = append(sw.Targets, l)
		g.add(classfile.Insn{Op: classfile.OpLabel, Label: l})
		code.Frames = append(code.Frames, classfile.Frame{At: l, Locals: locals})
		push(k)
		g.op(classfile.OpAreturn)
	}
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: sw.Default})
	code.Frames = append(code.Frames, classfile.Frame{At: sw.Default, Locals: locals})
	g.op(classfile.OpAconstNull)
	g.op(classfile.OpAreturn)
	code.Insns = g.insns
	return code
}

func (g *sisterGen) add(ins ...classfile.Insn) { g.insns = append(g.insns, ins...) }
func (g *sisterGen) op(op uint16)              { g.add(classfile.Insn{Op: op}) }
func (g *sisterGen) idx(op uint16, i uint16)   { g.add(classfile.Insn{Op: op, Index: i}) }
func (g *sisterGen) invoke(op uint16, owner, name, desc string) {
	g.idx(op, g.c.Pool.AddMethodref(owner, name, desc, false))
}
func (g *sisterGen) invokeRuntime(r rtnames.Ref) {
	g.idx(classfile.OpInvokestatic, addMethodref(g.c.Pool, r))
}

// helperCode builds
//
//	static void aN(Object token, values..., int id, int enclosingId) {
//	    if (!residue) return;
//	    DIB.begin(token);
//	    try { Advice.m(converted values, base+id, jp(id), jp(enclosingId)...); }
//	    finally { DIB.end(token); }
//	}
//
// token is what the woven method's guard (Weft.enter) returned: the
// thread's flag was clear then, and every begin/end pair restores it, so
// end clears it rather than restoring a saved value.
//
// (id and enclosingId only when an advice value needs them)
//
// with its frames written directly (the shapes are fixed).
func (g *sisterGen) helperCode(h *helperSpec) *classfile.Code {
	g.insns = nil
	hg := &helperGen{g: g, h: h, code: &classfile.Code{}, skip: classfile.NewLabel()}
	hg.layoutParams()
	if h.adv.Cflow != nil {
		hg.cflowHelper()
		hg.code.Insns = g.insns
		return hg.code
	}
	if h.entry {
		hg.entryGuard()
	}
	if h.leafDirect() {
		hg.directCall(func(classfile.Type) { g.op(classfile.OpReturn) })
	}
	if hasIf(h.residue) {
		hg.beginBypass() // if() methods run bypassed, as advice does
	}
	if h.residue != nil {
		hg.residueTest(h.residue, hg.skip)
	}
	hg.exitTest()
	hg.adviceCall()
	hg.skipReturn()
	hg.code.Insns = g.insns
	return hg.code
}

// helperGen holds what helperCode knows of one helper while it emits it.
type helperGen struct {
	g    *sisterGen
	h    *helperSpec
	code *classfile.Code
	// slot maps a value (kind, index) to its parameter's local slot.
	slot            map[[2]int]int
	jpSlot, encSlot int               // the int parameters id and enclosingId, -1 if absent
	token           int               // the token's slot: parameter 0, or a local in an entry helper
	tjpSlot         int               // the local holding thisJoinPoint once made, 0 if none
	locals          []classfile.VType // the parameters: the frame at every branch target
	next            int               // first local slot past the parameters
	skip            *classfile.Label  // return without calling the advice
	skips           bool              // some test jumps to skip
	closureSlot     int               // around advice: the local holding proceed (around.go)
	each            int               // eachArg: the argument the advice call being emitted passes
	// begun, when the residue calls if() methods, is where the DIB was
	// set, before the tests (cflow.go): skip then clears it.
	begun *classfile.Label
}

// layoutParams gives each parameter its slot: the token, the values, then
// id and enclosingId when an advice value needs them.
func (hg *helperGen) layoutParams() {
	hg.slot = map[[2]int]int{}
	hg.locals = []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Object"}} // the token
	n := 1
	if hg.h.entry {
		hg.locals, n = nil, 0
	}
	for _, p := range hg.h.params {
		hg.slot[[2]int{int(p.kind), p.index}] = n
		t := classfile.Type(p.desc)
		n += t.Size()
		hg.locals = append(hg.locals, t.VType())
	}
	hg.jpSlot, hg.encSlot = -1, -1
	if hg.h.jp != nil {
		hg.jpSlot = n
		n++
		hg.locals = append(hg.locals, classfile.VType{Kind: classfile.VInteger})
	}
	if hg.h.enclosing != nil {
		hg.encSlot = n
		n++
		hg.locals = append(hg.locals, classfile.VType{Kind: classfile.VInteger})
	}
	if hg.h.entry {
		// the token, the current thread, stored by entryGuard: a local
		// past the parameters
		hg.token = n
		n++
		hg.locals = append(hg.locals, classfile.VType{Kind: classfile.VObject, Class: "java/lang/Thread"})
	}
	hg.next = n
}

// frame records the stack map frame at l: the parameters, and stack.
func (hg *helperGen) frame(l *classfile.Label, stack []classfile.VType) {
	hg.code.Frames = append(hg.code.Frames, classfile.Frame{At: l, Locals: hg.locals, Stack: stack})
}

func (hg *helperGen) label(l *classfile.Label) {
	hg.g.add(classfile.Insn{Op: classfile.OpLabel, Label: l})
}

// param returns the helper parameter holding a value.
func (hg *helperGen) param(kind advice.ValueKind, index int) hparam { return hg.h.param(kind, index) }

// param returns the helper's parameter of a value (kind, index), typed
// Object if it takes none.
func (h *helperSpec) param(kind advice.ValueKind, index int) hparam {
	for _, p := range h.params {
		if p.kind == kind && p.index == index {
			return p
		}
	}
	return hparam{kind: kind, index: index, desc: "Ljava/lang/Object;"}
}

// load pushes a value from its parameter, as the parameter's type.
func (hg *helperGen) load(kind advice.ValueKind, index int) classfile.Type {
	t := classfile.Type(hg.param(kind, index).desc)
	hg.g.idx(t.LoadOp(), uint16(hg.slot[[2]int{int(kind), index}]))
	return t
}

// instanceOf jumps to fail unless a value (boxed if primitive) is an
// instance of typ.
func (hg *helperGen) instanceOf(kind advice.ValueKind, index int, typ string, fail *classfile.Label) {
	if t := hg.load(kind, index); t.IsPrimitive() {
		hg.g.box(t)
	}
	hg.g.idx(classfile.OpInstanceof, hg.g.c.Pool.AddClass(typ))
	hg.g.add(classfile.Insn{Op: classfile.OpIfeq, Label: fail})
	hg.skips = true
}

// residueTest jumps to fail unless residue r holds.
func (hg *helperGen) residueTest(r *advice.Residue, fail *classfile.Label) {
	g := hg.g
	switch r.Op {
	case advice.InstanceOf:
		hg.instanceOf(r.Value.Kind, r.Value.Index, r.Type, fail)
	case advice.HasAnnotation:
		hg.hasAnnotation(r.Value.Kind, r.Value.Index, r.Type, fail)
	case advice.And:
		for _, c := range r.Children {
			hg.residueTest(c, fail)
		}
	case advice.Or:
		ok := classfile.NewLabel()
		for k, c := range r.Children {
			if k == len(r.Children)-1 {
				hg.residueTest(c, fail)
				break
			}
			next := classfile.NewLabel()
			hg.residueTest(c, next)
			g.add(classfile.Insn{Op: classfile.OpGoto, Label: ok})
			hg.label(next)
			hg.frame(next, nil)
		}
		hg.label(ok)
		hg.frame(ok, nil)
	case advice.Not:
		ok := classfile.NewLabel()
		hg.residueTest(r.Children[0], ok)
		g.add(classfile.Insn{Op: classfile.OpGoto, Label: hg.skip})
		hg.label(ok)
		hg.frame(ok, nil)
		hg.skips = true
	case advice.InCflow:
		hg.cflowTest(r, fail)
	case advice.If:
		hg.ifTest(r, fail)
	}
}

// exitTest skips the advice unless the returned or thrown value is an
// instance of the type after returning(T x) / after throwing(T x) names.
func (hg *helperGen) exitTest() {
	if hg.h.exitCheck == "" {
		return
	}
	kind := advice.Thrown
	if hg.h.adv.Kind == advice.AfterReturning {
		kind = advice.Returned
	}
	hg.instanceOf(kind, 0, hg.h.exitCheck, hg.skip)
}

// adviceCall emits DIB.begin(token); try { Advice.m(values) } finally
// { DIB.end(token); } and the helper's normal return.
func (hg *helperGen) adviceCall() {
	a := hg.h.adv
	start, end, handler := hg.begun, classfile.NewLabel(), classfile.NewLabel()
	if start == nil {
		hg.setFlag(true)
		start = classfile.NewLabel()
		hg.label(start)
	}
	var stack int
	if hg.h.eachArgs > 0 {
		stack = hg.eachArgCalls()
	} else {
		stack = hg.call(a.Method)
	}
	hg.closeBypass(start, end, handler)
	hg.code.MaxLocals = uint16(hg.next + 1)
	hg.code.MaxStack = max(hg.code.MaxStack, uint16(stack+6))
}

// call emits the call of advice method m, its values pushed, and returns
// the stack slots they take.
func (hg *helperGen) call(m advice.Method) int {
	g := hg.g
	am, _ := classfile.ParseMethodDesc(m.Desc) // checked when the advice was bound
	stack := hg.pushArgs(am.Params)
	g.invoke(classfile.OpInvokestatic, m.Owner, m.Name, m.Desc)
	switch am.Return.Size() {
	case 1:
		g.op(classfile.OpPop)
	case 2:
		g.op(classfile.OpPop2)
	}
	return stack
}

// pushArgs pushes the advice call's values, each converted to the advice
// parameter's type, and returns (an upper bound of) the slots they take.
func (hg *helperGen) pushArgs(params []classfile.Type) (stack int) {
	for k, v := range hg.h.args {
		want := classfile.Type(v.Desc)
		if k < len(params) {
			want = params[k]
		}
		stack += hg.push(v, want)
	}
	return stack
}

// push pushes value v, an advice's or an if() test's, converted to type
// want, and returns (an upper bound of) the slots it takes.
func (hg *helperGen) push(v advice.Value, want classfile.Type) int {
	g, h := hg.g, hg.h
	switch v.Kind {
	case advice.JoinPointStaticPart:
		g.idx(classfile.OpIload, uint16(hg.jpSlot))
		g.invoke(classfile.OpInvokestatic, g.sister, partsMethod, partsDesc)
		return 1
	case advice.EnclosingStaticPart:
		g.idx(classfile.OpIload, uint16(hg.encSlot))
		g.invoke(classfile.OpInvokestatic, g.sister, partsMethod, partsDesc)
		return 1
	case advice.JoinPoint:
		return hg.pushJoinPoint()
	case advice.ThisAnnotation, advice.TargetAnnotation, advice.ArgAnnotation,
		advice.MemberAnnotation, advice.WithinAnnotation, advice.WithincodeAnnotation:
		hg.pushAnnotation(v, want)
		return 3
	case advice.Proceed:
		g.idx(classfile.OpAload, uint16(hg.closureSlot))
		return 1
	case advice.EachArg:
		g.convert(hg.load(advice.Arg, hg.each), want)
		return 2
	case advice.CflowValue:
		hg.pushCflowValue(v, want)
		return 3
	case advice.JoinPointID:
		g.idx(classfile.OpIload, uint16(hg.jpSlot))
		if g.base != 0 {
			g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(g.base)})
			g.op(classfile.OpIadd)
		}
		g.convert(classfile.Int, want)
		return want.Size()
	case advice.ArrayDims:
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(h.dims))})
		g.add(classfile.Insn{Op: classfile.OpNewarray, Const: 10})
		for d := 0; d < h.dims; d++ {
			g.op(classfile.OpDup)
			g.add(classfile.Insn{Op: classfile.OpLdc, Index: g.c.Pool.AddInt(int32(d))})
			g.idx(classfile.OpIload, uint16(hg.slot[[2]int{int(advice.Arg), d}]))
			g.op(classfile.OpIastore)
		}
		return 4
	}
	g.convert(hg.load(v.Kind, v.Index), want)
	return 2
}

// skipReturn emits the return the tests jump to when the advice must not
// run.
func (hg *helperGen) skipReturn() {
	if !hg.skips && hg.h.residue == nil {
		return
	}
	hg.label(hg.skip)
	hg.frame(hg.skip, nil)
	if hg.begun != nil {
		hg.setFlag(false)
	}
	hg.ret()
}

// box converts the primitive of type t on the stack to its wrapper.
func (g *sisterGen) box(t classfile.Type) {
	owner, name, desc := t.BoxMethod()
	g.invoke(classfile.OpInvokestatic, owner, name, desc)
}

// convert adapts the value on the stack from type from to type to:
// boxing, unboxing or a cast.
func (g *sisterGen) convert(from, to classfile.Type) {
	switch {
	case from == to:
	case from.IsPrimitive() && to.IsPrimitive():
		// Matching guarantees compatible primitives; widen ints to longs
		// and the like only where the JVM has a direct instruction.
		if op, ok := widen[string(from+to)]; ok {
			g.op(op)
		}
	case from.IsPrimitive():
		g.box(from)
		switch to {
		case "Ljava/lang/Object;", "Ljava/lang/Number;", "Ljava/io/Serializable;", "Ljava/lang/Comparable;", from.Boxed():
		default:
			g.idx(classfile.OpCheckcast, g.c.Pool.AddClass(to.InternalName()))
		}
	case to.IsPrimitive():
		owner, name, desc := to.UnboxMethod()
		g.idx(classfile.OpCheckcast, g.c.Pool.AddClass(owner))
		g.invoke(classfile.OpInvokevirtual, owner, name, desc)
	case to != "Ljava/lang/Object;":
		g.idx(classfile.OpCheckcast, g.c.Pool.AddClass(to.InternalName()))
	}
}

var widen = map[string]uint16{
	"IJ": classfile.OpI2l, "IF": classfile.OpI2f, "ID": classfile.OpI2d,
	"JF": classfile.OpL2f, "JD": classfile.OpL2d, "FD": classfile.OpF2d,
	"BJ": classfile.OpI2l, "SJ": classfile.OpI2l, "CJ": classfile.OpI2l,
}

// closeBypass ends the bypass begun at start: at end, DIB.end and return;
// a handler over start..end ends it too and rethrows.
func (hg *helperGen) closeBypass(start, end, handler *classfile.Label) {
	g := hg.g
	hg.label(end)
	hg.setFlag(false)
	hg.ret()
	hg.label(handler)
	hg.frame(handler, []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Throwable"}})
	g.idx(classfile.OpAstore, uint16(hg.next))
	hg.setFlag(false)
	g.idx(classfile.OpAload, uint16(hg.next))
	g.op(classfile.OpAthrow)
	hg.code.Handlers = append(hg.code.Handlers, classfile.Handler{Start: start, End: end, Handler: handler})
}
