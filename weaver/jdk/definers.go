package jdk

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// The load-time weaving hook (docs/ltw.md): every class the JVM defines
// outside the boot loader goes through one of the natives below. Each gets
// a wrapper in its own class (static; an instance native's, Unsafe's, takes
// the receiver first),
//
//	static Class<?> weft$defineClass1(same parameters) {
//	    Object[] r = LTW.weave(loader, name, b, off, len, source);
//	    if (r != null) {
//	        Class<?> c;
//	        try {
//	            if (r[1] != null) defineClass1(loader, (String) r[1], (byte[]) r[2], 0, len2, pd, source);
//	            c = defineClass1(loader, name, (byte[]) r[0], 0, len0, pd, source);
//	        } catch (Throwable e) { LTW.rejected(e, name); goto orig; }
//	        LTW.defined(c); // its named module gets access to weft.rt and the advice
//	        return c;
//	    }
//	    orig: return defineClass1(loader, name, b, off, len, pd, source);
//	}
//
// and every call of the native in java.base calls the wrapper instead. The
// wrapper itself never fails because of weft: LTW returns null on any
// fault, and a woven class the JVM refuses is defined from its original
// bytes (which then fail, or not, exactly as on a stock JVM).

// Arguments of the natives' calls in the wrappers: a parameter index (≥ 0)
// or one of these.
const (
	argWoven       = -1 - iota // (byte[]) r[0]
	argWovenLen                // ((byte[]) r[0]).length
	argSisterName              // (String) r[1]
	argSisterBytes             // (byte[]) r[2]
	argSisterLen               // ((byte[]) r[2]).length
	argZero                    // int 0 or false
	argNull                    // null
	argStrong                  // the flags of an ordinary class of a lookup: STRONG_LOADER_LINK
)

// strongLoaderLink is java.lang.invoke.MethodHandleNatives.Constants's
// STRONG_LOADER_LINK, the flag Lookup.defineClass passes for an ordinary
// (not hidden) class.
const strongLoaderLink = 4

// definer is one native that defines classes and its wrapper.
type definer struct {
	owner, name, desc string
	// instance says the native is an instance method: its wrapper is
	// static all the same, the receiver its first parameter (indexes
	// below count it), and calls of it become invokestatic.
	instance  bool
	weave     rtnames.Ref
	weaveArgs []int // parameters passed to weave
	nameArg   int   // the class name parameter, for LTW.rejected
	// sister and woven are the arguments of the calls defining the sister
	// and the woven class; via, if set, names another native of the same
	// owner (same kind of method) that takes them.
	sister, woven []int
	via           *definer
}

// wrapperName is the wrapper's name: the native's with weft's prefix.
func (d *definer) wrapperName() string { return "weft$" + d.name }

// wrapperDesc is the wrapper's descriptor: the native's, with the receiver
// first for an instance native.
func (d *definer) wrapperDesc() string {
	if d.instance {
		return "(L" + d.owner + ";" + d.desc[1:]
	}
	return d.desc
}

// invoke is the instruction that calls the native.
func (d *definer) invoke() uint16 {
	if d.instance {
		return classfile.OpInvokevirtual
	}
	return classfile.OpInvokestatic
}

var (
	defineClass1 = &definer{owner: "java/lang/ClassLoader", name: "defineClass1",
		desc:  "(Ljava/lang/ClassLoader;Ljava/lang/String;[BIILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/lang/Class;",
		weave: rtnames.LTWWeave, weaveArgs: []int{0, 1, 2, 3, 4, 6}, nameArg: 1,
		sister: []int{0, argSisterName, argSisterBytes, argZero, argSisterLen, 5, 6},
		woven:  []int{0, 1, argWoven, argZero, argWovenLen, 5, 6}}
	defineClass2 = &definer{owner: "java/lang/ClassLoader", name: "defineClass2",
		desc:  "(Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/nio/ByteBuffer;IILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/lang/Class;",
		weave: rtnames.LTWWeaveBuffer, weaveArgs: []int{0, 1, 2, 3, 4, 6}, nameArg: 1,
		sister: []int{0, argSisterName, argSisterBytes, argZero, argSisterLen, 5, 6},
		woven:  []int{0, 1, argWoven, argZero, argWovenLen, 5, 6},
		via:    defineClass1}
	// defineClass0 serves Lookup.defineClass and defineHiddenClass; the
	// sister is an ordinary class of the lookup's loader and package, as
	// Lookup.defineClass defines one.
	defineClass0 = &definer{owner: "java/lang/ClassLoader", name: "defineClass0",
		desc:  "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIILjava/security/ProtectionDomain;ZILjava/lang/Object;)Ljava/lang/Class;",
		weave: rtnames.LTWWeaveLookup, weaveArgs: []int{0, 1, 2, 3, 4, 5, 8}, nameArg: 2,
		sister: []int{0, 1, argSisterName, argSisterBytes, argZero, argSisterLen, 6, argZero, argStrong, argNull},
		woven:  []int{0, 1, 2, argWoven, argZero, argWovenLen, 6, 7, 8, 9}}
	// unsafeDefineClass0 serves jdk.internal.misc.Unsafe.defineClass (no
	// class of the JDK calls it; programs given access to the package
	// and bytecode libraries do). Parameter 0 is the Unsafe.
	unsafeDefineClass0 = &definer{owner: "jdk/internal/misc/Unsafe", name: "defineClass0", instance: true,
		desc:  "(Ljava/lang/String;[BIILjava/lang/ClassLoader;Ljava/security/ProtectionDomain;)Ljava/lang/Class;",
		weave: rtnames.LTWWeave, weaveArgs: []int{5, 1, 2, 3, 4, argNull}, nameArg: 1,
		sister: []int{0, argSisterName, argSisterBytes, argZero, argSisterLen, 5, 6},
		woven:  []int{0, 1, argWoven, argZero, argWovenLen, 5, 6}}
)

// Definers lists the natives the hook wraps, by owner.
var definers = map[string][]*definer{
	"java/lang/ClassLoader":    {defineClass1, defineClass2, defineClass0},
	"jdk/internal/misc/Unsafe": {unsafeDefineClass0},
}

// DefinerCallers returns the classes of java.base in the JDK's image jdk
// that call a wrapped native, whose calls are redirected to the wrappers:
// found in the image, since they differ between releases (JavaLangAccess
// is System$2 in JDK 17, System$1 in JDK 25).
func DefinerCallers(jdk *classpath.ImageSource) ([]string, error) {
	img, err := jdk.Only("java.base")
	if err != nil {
		return nil, err
	}
	var callers []string
	err = img.Walk(func(e classpath.ClassEntry) error {
		b, err := e.Read()
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte("defineClass")) {
			return nil
		}
		c, err := classfile.Parse(e.Path, b)
		if err != nil {
			return err
		}
		for i := 1; i < c.Pool.Len(); i++ {
			if c.Pool.Tag(uint16(i)) != classfile.TagMethodref {
				continue
			}
			if owner, name, desc := c.Pool.MemberRef(uint16(i)); IsDefiner(owner, name, desc) {
				callers = append(callers, c.Name())
				break
			}
		}
		return nil
	})
	sort.Strings(callers)
	return callers, err
}

// IsDefiner reports whether owner.name desc is a native the hook wraps.
func IsDefiner(owner, name, desc string) bool { return findDefiner(owner, name, desc) != nil }

// findDefiner returns the wrapped native owner.name desc, or nil.
func findDefiner(owner, name, desc string) *definer {
	for _, d := range definers[owner] {
		if d.name == name && d.desc == desc {
			return d
		}
	}
	return nil
}

// PatchDefiners redirects the class's calls of the wrapped natives to their
// wrappers and, for the natives' own class, adds the wrappers.
func PatchDefiners(name string, data []byte) ([]byte, error) {
	c, err := classfile.Parse(name, data)
	if err != nil {
		return nil, err
	}
	if c.Name() != name {
		return nil, fmt.Errorf("PatchDefiners: %s is not %s", c.Name(), name)
	}
	n, err := redirectDefiners(c)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no call of a class-defining native: unknown JDK layout", name)
	}
	for _, d := range definers[name] {
		if c.FindMethod(d.name, d.desc) == nil {
			return nil, fmt.Errorf("%s: no native %s%s: unknown JDK layout", name, d.name, d.desc)
		}
		if err := addWrapper(c, d); err != nil {
			return nil, fmt.Errorf("%s.%s: %v", name, d.wrapperName(), err)
		}
	}
	return c.Bytes(), nil
}

// redirectDefiners makes every call of a wrapped native in c call its
// wrapper, and returns how many it changed.
func redirectDefiners(c *classfile.Class) (int, error) {
	total := 0
	for _, m := range c.Methods {
		if c.Attr(m.Attributes, "Code") == nil {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil {
			return 0, fmt.Errorf("%s.%s%s: %v", c.Name(), c.MemberName(m), c.MemberDesc(m), err)
		}
		n := 0
		for i, in := range code.Insns {
			if in.Op != classfile.OpInvokestatic && in.Op != classfile.OpInvokevirtual {
				continue
			}
			owner, name, desc := c.Pool.MemberRef(in.Index)
			if d := findDefiner(owner, name, desc); d != nil && in.Op == d.invoke() {
				// The receiver, if any, is the wrapper's first argument.
				code.Insns[i].Op = classfile.OpInvokestatic
				code.Insns[i].Index = c.Pool.AddMethodref(owner, d.wrapperName(), d.wrapperDesc(), false)
				n++
			}
		}
		if n > 0 {
			if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
				return 0, err
			}
			total += n
		}
	}
	return total, nil
}

// addWrapper adds d's wrapper to c (the natives' class): the code in this
// file's comment, frames written directly.
func addWrapper(c *classfile.Class, d *definer) error {
	p := c.Pool
	mt, err := classfile.ParseMethodDesc(d.wrapperDesc())
	if err != nil {
		return err
	}
	m := &classfile.Member{Access: classfile.AccStatic | classfile.AccSynthetic,
		Name: p.AddUtf8(d.wrapperName()), Desc: p.AddUtf8(d.wrapperDesc())}
	c.Methods = append(c.Methods, m)
	g := &wrapperGen{c: c, params: mt.Params, r: uint16(len(mt.Params))}
	native := p.AddMethodref(d.owner, d.name, d.desc, false)
	// via takes the sister and the woven class: the native itself, or
	// another of its class's (static, as d then is).
	via, viaOp, viaParams := native, d.invoke(), mt.Params
	if d.via != nil {
		via, viaOp = p.AddMethodref(d.via.owner, d.via.name, d.via.desc, false), d.via.invoke()
		vt, err := classfile.ParseMethodDesc(d.via.wrapperDesc())
		if err != nil {
			return err
		}
		viaParams = vt.Params
	}
	orig, woven, main, defined, handler := classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel(), classfile.NewLabel()

	// Object[] r = LTW.weaveX(...); if (r != null) goto woven;
	for _, a := range d.weaveArgs {
		var t classfile.Type
		if a >= 0 {
			t = mt.Params[a]
		}
		g.load(a, t)
	}
	g.idx(classfile.OpInvokestatic, p.AddMethodref(d.weave.Owner, d.weave.Name, d.weave.Desc, false))
	g.idx(classfile.OpAstore, g.r)
	g.idx(classfile.OpAload, g.r)
	g.jump(classfile.OpIfnonnull, woven)
	// orig: return native(parameters);
	g.label(orig)
	for i, t := range mt.Params {
		g.load(i, t)
	}
	g.idx(d.invoke(), native)
	g.op(classfile.OpAreturn)
	// woven: the sister if any, then the woven class.
	g.label(woven)
	g.element(1, "")
	g.jump(classfile.OpIfnull, main)
	for i, a := range d.sister {
		g.load(a, viaParams[i])
	}
	g.idx(viaOp, via)
	g.op(classfile.OpPop)
	g.label(main)
	for i, a := range d.woven {
		g.load(a, viaParams[i])
	}
	g.idx(viaOp, via)
	// defined: LTW.defined(c); return c; (outside the handler: the class
	// is defined)
	g.label(defined)
	g.op(classfile.OpDup)
	g.idx(classfile.OpInvokestatic, p.AddMethodref(rtnames.LTWDefined.Owner, rtnames.LTWDefined.Name, rtnames.LTWDefined.Desc, false))
	g.op(classfile.OpAreturn)
	// handler: LTW.rejected(e, name); goto orig;
	g.label(handler)
	g.idx(classfile.OpAload, uint16(d.nameArg))
	g.idx(classfile.OpInvokestatic, p.AddMethodref(rtnames.LTWRejected.Owner, rtnames.LTWRejected.Name, rtnames.LTWRejected.Desc, false))
	g.jump(classfile.OpGoto, orig)

	locals := append(classfile.InitialLocals(c, m), classfile.VType{Kind: classfile.VObject, Class: "[Ljava/lang/Object;"})
	code := &classfile.Code{MaxStack: uint16(len(mt.Params) + 3), MaxLocals: g.r + 1, Insns: g.insns,
		Handlers: []classfile.Handler{{Start: woven, End: defined, Handler: handler}},
		Frames: []classfile.Frame{
			{At: orig, Locals: locals}, {At: woven, Locals: locals}, {At: main, Locals: locals},
			{At: handler, Locals: locals, Stack: []classfile.VType{{Kind: classfile.VObject, Class: "java/lang/Throwable"}}},
		}}
	return code.Encode(c, m, classfile.EncodeOptions{})
}

// wrapperGen emits a wrapper's instructions.
type wrapperGen struct {
	c      *classfile.Class
	params []classfile.Type
	r      uint16 // the local holding LTW's result
	insns  []classfile.Insn
}

func (g *wrapperGen) op(op uint16) { g.insns = append(g.insns, classfile.Insn{Op: op}) }
func (g *wrapperGen) idx(op uint16, i uint16) {
	g.insns = append(g.insns, classfile.Insn{Op: op, Index: i})
}
func (g *wrapperGen) label(l *classfile.Label) {
	g.insns = append(g.insns, classfile.Insn{Op: classfile.OpLabel, Label: l})
}
func (g *wrapperGen) jump(op uint16, l *classfile.Label) {
	g.insns = append(g.insns, classfile.Insn{Op: op, Label: l})
}

// element pushes r[i], cast to cast unless it is "".
func (g *wrapperGen) element(i int32, cast string) {
	g.idx(classfile.OpAload, g.r)
	g.insns = append(g.insns, classfile.Insn{Op: classfile.OpIconst0 + uint16(i)})
	g.op(classfile.OpAaload)
	if cast != "" {
		g.idx(classfile.OpCheckcast, g.c.Pool.AddClass(cast))
	}
}

// load pushes argument a of a call whose parameter there has type t.
func (g *wrapperGen) load(a int, t classfile.Type) {
	switch a {
	case argWoven:
		g.element(0, "[B")
	case argWovenLen:
		g.element(0, "[B")
		g.op(classfile.OpArraylength)
	case argSisterName:
		g.element(1, "java/lang/String")
	case argSisterBytes:
		g.element(2, "[B")
	case argSisterLen:
		g.element(2, "[B")
		g.op(classfile.OpArraylength)
	case argZero:
		g.op(classfile.OpIconst0)
	case argNull:
		g.op(classfile.OpAconstNull)
	case argStrong:
		g.op(classfile.OpIconst0 + strongLoaderLink)
	default:
		// Parameters are one slot each (no long or double in these
		// natives); the wrapper is static, an instance native's receiver
		// its parameter 0.
		if t.IsReference() {
			g.idx(classfile.OpAload, uint16(a))
		} else {
			g.idx(classfile.OpIload, uint16(a))
		}
	}
}
