package weaver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// Bridging: a class whose loader does not see weft's runtime, because it
// delegates only java.* to its parent (OSGi bundles, Ant's isolated
// loader), cannot name weft.rt or the advice classes: resolving either
// fails with NoClassDefFoundError. Bridged, its woven code names neither.
// Every use of a member of theirs, in the class and in its sister, calls
// a method of the sister instead, which invokes a MethodHandle the
// sister's static initializer looked up through java.lang and
// java.lang.invoke, the names every loader delegates: Class.forName with
// the boot loader (weft.rt is in java.base, the advice on the boot class
// path) and MethodHandles.lookup(). Their types are erased to Object in
// every descriptor the bridged classes hold. A static final MethodHandle
// is a constant to the JIT: the compiled call is the direct one.

// bridgeSuffix names the sister's bridge fields and methods, numbered.
const bridgeSuffix = "weft$bridge$"

// A bridgeRef is one member of a class the bridged code may not name, and
// how it was used.
type bridgeRef struct {
	op                uint16 // the instruction that used it
	owner, name, desc string
}

// bridgeDesc is the descriptor of the sister's bridge method for r: the
// use's stack effect, its types erased.
func (r bridgeRef) bridgeDesc(erase func(string) string) string {
	switch r.op {
	case classfile.OpGetstatic:
		return "()" + erase(r.desc)
	case classfile.OpPutstatic:
		return "(" + erase(r.desc) + ")V"
	case classfile.OpGetfield:
		return "(Ljava/lang/Object;)" + erase(r.desc)
	case classfile.OpPutfield:
		return "(Ljava/lang/Object;" + erase(r.desc) + ")V"
	case classfile.OpInvokevirtual, classfile.OpInvokeinterface:
		return "(Ljava/lang/Object;" + erase(r.desc)[1:]
	}
	return erase(r.desc)
}

// Bridge rewrites the woven class of res and its sister so that neither
// names the runtime or an advice class (see above). A class whose woven
// code uses them otherwise than by static and instance members' calls
// and field accesses (a class weft generates besides the sister, a type
// test, an object made) cannot be bridged: the error says why, and the
// class is to be left unwoven.
func (w *Weaver) Bridge(res *Result) error {
	if res.Class == nil {
		return nil
	}
	sisterName := ""
	for n := range res.Extra {
		if !strings.HasSuffix(n, SisterSuffix) {
			return fmt.Errorf("%s: woven with a class of weft's besides its sister (%s), which its loader could not link", res.Name, n)
		}
		sisterName = n
	}
	if sisterName == "" {
		return fmt.Errorf("%s: woven without a sister class to reach weft's runtime through", res.Name)
	}
	b := &bridger{w: w, sister: sisterName, index: map[bridgeRef]int{}}
	c, err := classfile.Parse(res.Name, res.Class)
	if err != nil {
		return err
	}
	s, err := classfile.Parse(sisterName, res.Extra[sisterName])
	if err != nil {
		return err
	}
	for _, k := range []*classfile.Class{c, s} {
		if err := b.rewrite(k, k == s); err != nil {
			return fmt.Errorf("%s: %v", res.Name, err)
		}
	}
	if err := b.addBridges(s); err != nil {
		return fmt.Errorf("%s: %v", res.Name, err)
	}
	res.Class = c.Bytes()
	res.Extra[sisterName] = s.Bytes()
	return nil
}

// A bridger rewrites one woven class and its sister.
type bridger struct {
	w      *Weaver
	sister string
	refs   []bridgeRef
	index  map[bridgeRef]int // refs' positions
}

// hidden reports whether class is one the bridged code may not name: the
// runtime's, weft's tools' and the advice's (and the classes leaf advice
// runs), all loaded by the boot loader.
func (b *bridger) hidden(class string) bool {
	if strings.HasPrefix(class, "java/") {
		return false
	}
	return strings.HasPrefix(class, rtnames.NamespacePrefix) || b.w.skip[class]
}

// erase returns desc with each hidden class it names replaced by
// java/lang/Object.
func (b *bridger) erase(desc string) string {
	if !strings.Contains(desc, "L") {
		return desc
	}
	var out strings.Builder
	for i := 0; i < len(desc); i++ {
		if desc[i] != 'L' {
			out.WriteByte(desc[i])
			continue
		}
		end := strings.IndexByte(desc[i:], ';')
		if end < 0 {
			out.WriteString(desc[i:])
			break
		}
		name := desc[i+1 : i+end]
		if b.hidden(name) {
			name = "java/lang/Object"
		}
		out.WriteString("L" + name + ";")
		i += end
	}
	return out.String()
}

// names reports whether desc names a hidden class.
func (b *bridger) names(desc string) bool { return b.erase(desc) != desc }

// namesClass reports whether a Class entry's name (an internal name or an
// array descriptor) names a hidden class.
func (b *bridger) namesClass(name string) bool { return b.eraseClass(name) != name }

// eraseClass is erase for a Class entry's name.
func (b *bridger) eraseClass(name string) string {
	if strings.HasPrefix(name, "[") {
		return b.erase(name)
	}
	if b.hidden(name) {
		return "java/lang/Object"
	}
	return name
}

// rewrite replaces every use of a hidden class's member in k's code by a
// call of the sister's bridge method, and erases hidden types from k's
// descriptors.
func (b *bridger) rewrite(k *classfile.Class, sister bool) error {
	p := k.Pool
	if b.hidden(k.SuperName()) || slices.ContainsFunc(k.InterfaceNames(), b.hidden) {
		return fmt.Errorf("%s extends or implements a class of weft's", k.Name())
	}
	if err := b.checkHandles(k); err != nil {
		return err
	}
	for _, f := range k.Fields {
		if d := p.Utf8(f.Desc); b.names(d) {
			f.Desc = p.AddUtf8(b.erase(d))
		}
	}
	for _, m := range k.Methods {
		if d := p.Utf8(m.Desc); b.names(d) {
			m.Desc = p.AddUtf8(b.erase(d))
		}
		if k.Attr(m.Attributes, "Code") == nil {
			continue
		}
		code, err := classfile.DecodeCode(k, m)
		if err != nil {
			return err
		}
		changed, err := b.rewriteCode(k, code, sister)
		if err != nil {
			return fmt.Errorf("%s.%s: %v", k.Name(), p.Utf8(m.Name), err)
		}
		if changed {
			// One instruction for one of the same size and stack effect:
			// the frames stand, their hidden types erased.
			if err := code.Encode(k, m, classfile.EncodeOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewriteCode rewrites one method's code (rewrite); it reports whether it
// changed anything. In the sister, Class.forName(name), which loads with
// the sister's loader the advice classes its initializer initializes,
// loads with the boot loader.
func (b *bridger) rewriteCode(k *classfile.Class, code *classfile.Code, sister bool) (changed bool, err error) {
	p := k.Pool
	call := func(in *classfile.Insn, r bridgeRef) {
		in.Op, in.Index = classfile.OpInvokestatic, p.AddMethodref(b.sister, b.bridge(r), r.bridgeDesc(b.erase), false)
		changed = true
	}
	for i := range code.Insns {
		in := &code.Insns[i]
		if sister && in.Op == classfile.OpInvokestatic {
			if owner, name, desc := p.MemberRef(in.Index); owner == "java/lang/Class" && name == "forName" && desc == forName1Desc {
				call(in, bridgeRef{op: in.Op, owner: owner, name: name, desc: desc})
				continue
			}
		}
		switch in.Op {
		case classfile.OpInvokestatic, classfile.OpInvokevirtual, classfile.OpInvokeinterface,
			classfile.OpGetstatic, classfile.OpPutstatic, classfile.OpGetfield, classfile.OpPutfield:
			owner, name, desc := p.MemberRef(in.Index)
			switch {
			case b.hidden(owner):
				call(in, bridgeRef{op: in.Op, owner: owner, name: name, desc: desc})
			case b.names(desc):
				iface := in.Op == classfile.OpInvokeinterface || in.Op == classfile.OpInvokestatic && p.Tag(in.Index) == classfile.TagInterfaceMethodref
				if in.Op == classfile.OpGetstatic || in.Op == classfile.OpPutstatic || in.Op == classfile.OpGetfield || in.Op == classfile.OpPutfield {
					in.Index = p.AddFieldref(owner, name, b.erase(desc))
				} else {
					in.Index = p.AddMethodref(owner, name, b.erase(desc), iface)
				}
				changed = true
			}
		case classfile.OpInvokespecial:
			if owner, _, desc := p.MemberRef(in.Index); b.hidden(owner) || b.names(desc) {
				return false, fmt.Errorf("makes an object of weft's (%s)", owner)
			}
		case classfile.OpNew, classfile.OpInstanceof:
			if b.namesClass(p.ClassName(in.Index)) {
				return false, fmt.Errorf("%s %s", classfile.OpNames[in.Op], p.ClassName(in.Index))
			}
		case classfile.OpCheckcast, classfile.OpAnewarray, classfile.OpMultianewarray:
			// A value of weft's is an Object to the bridged code, an array
			// of them an Object[].
			if n := p.ClassName(in.Index); b.namesClass(n) {
				in.Index = p.AddClass(b.eraseClass(n))
				changed = true
			}
		case classfile.OpLdc, classfile.OpLdcW:
			if p.Tag(in.Index) != classfile.TagClass || !b.namesClass(p.ClassName(in.Index)) {
				break
			}
			if n := p.ClassName(in.Index); b.hidden(n) { // Class.forName(n, false, null)
				call(in, bridgeRef{op: classfile.OpLdc, owner: n, desc: "()Ljava/lang/Class;"})
				break
			}
			return false, fmt.Errorf("loads the class %s", p.ClassName(in.Index))
		case classfile.OpInvokedynamic:
			if _, desc := p.DynamicNameAndType(in.Index); b.names(desc) {
				return false, fmt.Errorf("an invokedynamic of type %s", desc)
			}
		}
	}
	for _, h := range code.Handlers {
		if h.CatchType != 0 && b.hidden(p.ClassName(h.CatchType)) {
			return false, fmt.Errorf("catches %s", p.ClassName(h.CatchType))
		}
	}
	for fi := range code.Frames {
		f := &code.Frames[fi]
		for _, vs := range [][]classfile.VType{f.Locals, f.Stack} {
			for vi := range vs {
				if vs[vi].Kind == classfile.VObject && b.namesClass(vs[vi].Class) {
					vs[vi].Class = b.eraseClass(vs[vi].Class)
					changed = true
				}
			}
		}
	}
	for _, lv := range [][]classfile.LocalVar{code.Locals, code.LocalTypes} {
		for li := range lv {
			if d := p.Utf8(lv[li].Desc); b.names(d) {
				lv[li].Desc = p.AddUtf8(b.erase(d))
				changed = true
			}
		}
	}
	return changed, nil
}

// checkHandles refuses a class whose constant pool has a method handle
// to a hidden class's member (a bootstrap method, a constant): the JVM
// would resolve its owner through the class's loader.
func (b *bridger) checkHandles(k *classfile.Class) error {
	p := k.Pool
	for i := 1; i < p.Len(); i++ {
		if p.Tag(uint16(i)) != classfile.TagMethodHandle {
			continue
		}
		if owner, _, _ := p.MemberRef(p.Get(uint16(i)).B); b.hidden(owner) {
			return fmt.Errorf("a method handle of %s", owner)
		}
	}
	return nil
}

// bridge returns the name of the sister's bridge method for r, numbering
// a new one.
func (b *bridger) bridge(r bridgeRef) string {
	n, ok := b.index[r]
	if !ok {
		n = len(b.refs)
		b.refs = append(b.refs, r)
		b.index[r] = n
	}
	return bridgeSuffix + strconv.Itoa(n)
}

// The java.lang and java.lang.invoke members the sister's static
// initializer looks its bridges up with.
const (
	mhDesc        = "Ljava/lang/invoke/MethodHandle;"
	lookupDesc    = "()Ljava/lang/invoke/MethodHandles$Lookup;"
	forNameDesc   = "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;"
	forName1Desc  = "(Ljava/lang/String;)Ljava/lang/Class;"
	fromDescDesc  = "(Ljava/lang/String;Ljava/lang/ClassLoader;)Ljava/lang/invoke/MethodType;"
	findDesc      = "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)" + mhDesc
	findFieldDesc = "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/Class;)" + mhDesc
	asTypeDesc    = "(Ljava/lang/invoke/MethodType;)" + mhDesc
	lookupClass   = "java/lang/invoke/MethodHandles$Lookup"
	clinitMoved   = bridgeSuffix + "clinit"
)

// findMethods are the Lookup methods that find a use's member.
var findMethods = map[uint16]string{
	classfile.OpInvokestatic: "findStatic", classfile.OpInvokevirtual: "findVirtual", classfile.OpInvokeinterface: "findVirtual",
	classfile.OpGetstatic: "findStaticGetter", classfile.OpPutstatic: "findStaticSetter",
	classfile.OpGetfield: "findGetter", classfile.OpPutfield: "findSetter",
}

// addBridges adds to the sister s a static final MethodHandle and a
// bridge method for each use rewritten, and a static initializer that
// looks the handles up before the sister's own initializer runs.
func (b *bridger) addBridges(s *classfile.Class) error {
	if len(b.refs) == 0 {
		return nil
	}
	p := s.Pool
	var init []classfile.Insn
	add := func(op uint16, i uint16) { init = append(init, classfile.Insn{Op: op, Index: i}) }
	for n, r := range b.refs {
		field := bridgeSuffix + strconv.Itoa(n)
		desc := r.bridgeDesc(b.erase)
		used, err := b.addBridgeMethod(s, r, field, desc)
		if err != nil {
			return err
		}
		if !used { // an inline bridge: no handle
			continue
		}
		s.Fields = append(s.Fields, &classfile.Member{Access: classfile.AccPrivate | classfile.AccStatic | classfile.AccFinal | classfile.AccSynthetic,
			Name: p.AddUtf8(field), Desc: p.AddUtf8(mhDesc)})

		// field = lookup().findX(Class.forName(owner, false, null), name, type).asType(bridge's type)
		add(classfile.OpInvokestatic, p.AddMethodref("java/lang/invoke/MethodHandles", "lookup", lookupDesc, false))
		add(classfile.OpLdc, p.AddString(strings.ReplaceAll(r.owner, "/", ".")))
		add(classfile.OpIconst0, 0)
		add(classfile.OpAconstNull, 0)
		add(classfile.OpInvokestatic, p.AddMethodref("java/lang/Class", "forName", forNameDesc, false))
		add(classfile.OpLdc, p.AddString(r.name))
		find := findDesc
		switch r.op {
		case classfile.OpGetstatic, classfile.OpPutstatic, classfile.OpGetfield, classfile.OpPutfield:
			add(classfile.OpLdc, p.AddString("()"+r.desc))
			add(classfile.OpAconstNull, 0)
			add(classfile.OpInvokestatic, p.AddMethodref("java/lang/invoke/MethodType", "fromMethodDescriptorString", fromDescDesc, false))
			add(classfile.OpInvokevirtual, p.AddMethodref("java/lang/invoke/MethodType", "returnType", "()Ljava/lang/Class;", false))
			find = findFieldDesc
		default:
			add(classfile.OpLdc, p.AddString(r.desc))
			add(classfile.OpAconstNull, 0)
			add(classfile.OpInvokestatic, p.AddMethodref("java/lang/invoke/MethodType", "fromMethodDescriptorString", fromDescDesc, false))
		}
		add(classfile.OpInvokevirtual, p.AddMethodref(lookupClass, findMethods[r.op], find, false))
		add(classfile.OpLdc, p.AddString(desc))
		add(classfile.OpAconstNull, 0)
		add(classfile.OpInvokestatic, p.AddMethodref("java/lang/invoke/MethodType", "fromMethodDescriptorString", fromDescDesc, false))
		add(classfile.OpInvokevirtual, p.AddMethodref("java/lang/invoke/MethodHandle", "asType", asTypeDesc, false))
		add(classfile.OpPutstatic, p.AddFieldref(b.sister, field, mhDesc))
	}
	if len(init) == 0 {
		return nil
	}
	// The handles are looked up with the thread's flag set (the JDK's
	// code doing it unadvised), before the sister's own initializer,
	// kept under another name.
	g := &bridgeGen{p: p}
	g.thread()
	g.op(classfile.OpDup)
	g.getFlag()
	g.idx(classfile.OpIstore, 0)
	g.op(classfile.OpIconst1)
	g.putFlag()
	g.insns = append(g.insns, init...)
	g.thread()
	g.idx(classfile.OpIload, 0)
	g.putFlag()
	if own := s.FindMethod("<clinit>", "()V"); own != nil {
		own.Name = p.AddUtf8(clinitMoved)
		own.Access = classfile.AccPrivate | classfile.AccStatic | classfile.AccSynthetic
		g.idx(classfile.OpInvokestatic, p.AddMethodref(b.sister, clinitMoved, "()V", false))
	}
	g.op(classfile.OpReturn)
	m := &classfile.Member{Access: classfile.AccStatic, Name: p.AddUtf8("<clinit>"), Desc: p.AddUtf8("()V")}
	s.Methods = append(s.Methods, m)
	// Straight code: no frames; the stack at most lookup, class, name,
	// type and its two arguments.
	code := &classfile.Code{MaxStack: 6, MaxLocals: 1, Insns: g.insns}
	return code.Encode(s, m, classfile.EncodeOptions{})
}

// The runtime's bypass flags, which the bridged code reads and sets
// itself, through java.lang.Thread's field (rtnames.ThreadDIB): a bridge
// brackets its handle's call with the flag set, so that the JDK's
// method-handle code under it runs unadvised, which the flags' own
// methods cannot be. A class of an unseen loader is defined after the
// JVM's bootstrap: BIB is ready.
var inlineBridges = map[rtnames.Ref]func(g *bridgeGen){
	rtnames.BIBReady:   func(g *bridgeGen) { g.op(classfile.OpIconst1); g.op(classfile.OpIreturn) },
	rtnames.BIBIsReady: func(g *bridgeGen) { g.op(classfile.OpIconst1); g.op(classfile.OpIreturn) },
	rtnames.WeftEnter:  func(g *bridgeGen) { g.token(false) },
	rtnames.DIBToken:   func(g *bridgeGen) { g.token(false) },
	rtnames.DIBBegin:   func(g *bridgeGen) { g.thread(); g.op(classfile.OpIconst1); g.putFlag(); g.op(classfile.OpReturn) },
	rtnames.DIBEnd:     func(g *bridgeGen) { g.thread(); g.op(classfile.OpIconst0); g.putFlag(); g.op(classfile.OpReturn) },
	// A bridged class is one of a woven JDK's load time, where the
	// helpers call leaf advice with the flag set.
	rtnames.DIBLeafDirect: func(g *bridgeGen) { g.op(classfile.OpIconst0); g.op(classfile.OpIreturn) },
	rtnames.DIBEnterInit:  func(g *bridgeGen) { g.token(true) },
	rtnames.DIBExitInit: func(g *bridgeGen) {
		none := classfile.NewLabel()
		g.idx(classfile.OpAload, 0)
		g.insns = append(g.insns, classfile.Insn{Op: classfile.OpIfnull, Label: none})
		g.idx(classfile.OpAload, 0)
		g.idx(classfile.OpCheckcast, g.p.AddClass("java/lang/Thread"))
		g.op(classfile.OpIconst0)
		g.putFlag()
		g.place(none)
		g.op(classfile.OpReturn)
	},
}

// A bridgeGen builds one bridge method's code.
type bridgeGen struct {
	p        *classfile.Pool
	insns    []classfile.Insn
	handlers []classfile.Handler
}

func (g *bridgeGen) op(op uint16) { g.insns = append(g.insns, classfile.Insn{Op: op}) }
func (g *bridgeGen) idx(op uint16, i uint16) {
	g.insns = append(g.insns, classfile.Insn{Op: op, Index: i})
}
func (g *bridgeGen) place(l *classfile.Label) {
	g.insns = append(g.insns, classfile.Insn{Op: classfile.OpLabel, Label: l})
}
func (g *bridgeGen) thread() {
	g.idx(classfile.OpInvokestatic, g.p.AddMethodref("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", false))
}
func (g *bridgeGen) getFlag() {
	g.idx(classfile.OpGetfield, g.p.AddFieldref("java/lang/Thread", rtnames.ThreadDIBField, "Z"))
}
func (g *bridgeGen) putFlag() {
	g.idx(classfile.OpPutfield, g.p.AddFieldref("java/lang/Thread", rtnames.ThreadDIBField, "Z"))
}

// token is DIB.token: the thread, or null if its flag is set; with take,
// DIB.enterInit: the flag then set too.
func (g *bridgeGen) token(take bool) {
	set := classfile.NewLabel()
	g.thread()
	g.idx(classfile.OpAstore, 0)
	g.idx(classfile.OpAload, 0)
	g.getFlag()
	g.insns = append(g.insns, classfile.Insn{Op: classfile.OpIfne, Label: set})
	if take {
		g.idx(classfile.OpAload, 0)
		g.op(classfile.OpIconst1)
		g.putFlag()
	}
	g.idx(classfile.OpAload, 0)
	g.op(classfile.OpAreturn)
	g.place(set)
	g.op(classfile.OpAconstNull)
	g.op(classfile.OpAreturn)
}

// invoke is a bridge through the handle in field: the thread's flag set
// around the handle's call, as it was after.
//
//	Thread t = Thread.currentThread(); boolean old = t.weft$dib; t.weft$dib = true;
//	try { r = field.invokeExact(args); } finally { t.weft$dib = old; }
//	return r;
func (g *bridgeGen) invoke(sister, field, desc string, mt classfile.MethodType) {
	slot := 0
	for _, t := range mt.Params {
		slot += t.Size()
	}
	t, old, r := uint16(slot), uint16(slot+1), uint16(slot+2)
	start, end, handler := classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel()
	restore := func() {
		g.idx(classfile.OpAload, t)
		g.idx(classfile.OpIload, old)
		g.putFlag()
	}
	g.thread()
	g.idx(classfile.OpAstore, t)
	g.idx(classfile.OpAload, t)
	g.getFlag()
	g.idx(classfile.OpIstore, old)
	g.idx(classfile.OpAload, t)
	g.op(classfile.OpIconst1)
	g.putFlag()
	g.place(start)
	g.idx(classfile.OpGetstatic, g.p.AddFieldref(sister, field, mhDesc))
	slot = 0
	for _, pt := range mt.Params {
		g.idx(pt.LoadOp(), uint16(slot))
		slot += pt.Size()
	}
	g.idx(classfile.OpInvokevirtual, g.p.AddMethodref("java/lang/invoke/MethodHandle", "invokeExact", desc, false))
	g.place(end)
	if mt.Return != classfile.Void {
		g.idx(mt.Return.StoreOp(), r)
	}
	restore()
	if mt.Return != classfile.Void {
		g.idx(mt.Return.LoadOp(), r)
	}
	g.op(mt.Return.ReturnOp())
	g.place(handler)
	g.idx(classfile.OpAstore, r)
	restore()
	g.idx(classfile.OpAload, r)
	g.op(classfile.OpAthrow)
	g.handlers = append(g.handlers, classfile.Handler{Start: start, End: end, Handler: handler})
}

// addBridgeMethod adds to s the bridge method of r, named field, of
// descriptor desc: inline (inlineBridges) or through the handle in
// field. It reports whether the handle is used.
func (b *bridger) addBridgeMethod(s *classfile.Class, r bridgeRef, field, desc string) (bool, error) {
	mt, err := classfile.ParseMethodDesc(desc)
	if err != nil {
		return false, err
	}
	g := &bridgeGen{p: s.Pool}
	inline, ok := inlineBridges[rtnames.Ref{Owner: r.owner, Name: r.name, Desc: r.desc, Field: r.op == classfile.OpGetstatic}]
	forName := func(initialize uint16) {
		g.op(initialize)
		g.op(classfile.OpAconstNull)
		g.idx(classfile.OpInvokestatic, g.p.AddMethodref("java/lang/Class", "forName", forNameDesc, false))
		g.op(classfile.OpAreturn)
	}
	switch {
	case r.op == classfile.OpLdc: // the class, by the boot loader
		ok = true
		g.idx(classfile.OpLdc, g.p.AddString(strings.ReplaceAll(r.owner, "/", ".")))
		forName(classfile.OpIconst0)
	case r.owner == "java/lang/Class": // forName(name), initialized, by the boot loader
		ok = true
		g.idx(classfile.OpAload, 0)
		forName(classfile.OpIconst1)
	case ok:
		inline(g)
	case r.owner == rtnames.DIB || r.owner == rtnames.BIB || r.owner == rtnames.Weft:
		return false, fmt.Errorf("uses %s.%s, which bridged code has no equivalent of", r.owner, r.name)
	default:
		g.invoke(b.sister, field, desc, mt)
	}
	m := &classfile.Member{Access: classfile.AccStatic | classfile.AccSynthetic, Name: s.Pool.AddUtf8(field), Desc: s.Pool.AddUtf8(desc)}
	s.Methods = append(s.Methods, m)
	code := &classfile.Code{Insns: g.insns, Handlers: g.handlers}
	return !ok, code.Encode(s, m, classfile.EncodeOptions{Frames: true, Hierarchy: b.w.opts.Hierarchy})
}
