package weaver

import (
	"strconv"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// An annotation bound to an advice formal is read by reflection, in the
// helper, after DIB.begin (so that advice never runs inside the reflection
// code of a woven JDK):
//
//   - @this, @target, @args: value.getClass().getAnnotation(A.class), after
//     the HasAnnotation residue tested it is there;
//   - @annotation, @within, @withincode (the site is known statically): a
//     dynamic constant whose bootstrap method, a private method of the
//     sister class, looks the class and member up by name
//     (Class.forName with the sister's loader, getDeclaredMethod with the
//     parameter classes of the descriptor) and returns its annotation: read
//     once, at the first advice call, then cached by the JVM.

// valueSource is the join point value an advice value is read from: the
// object whose class @this, @target and @args read, else the kind itself.
func valueSource(k advice.ValueKind) advice.ValueKind {
	switch k {
	case advice.ThisAnnotation:
		return advice.This
	case advice.TargetAnnotation:
		return advice.Target
	case advice.ArgAnnotation:
		return advice.Arg
	}
	return k
}

// appendAnnotationKey appends to a helper's shape key its annotation values:
// their type and, for the static ones, their site.
func (h *helperSpec) appendAnnotationKey(b []byte) []byte {
	for _, v := range h.args {
		if v.Annotation == "" {
			continue
		}
		b = append(b, "|@"...)
		b = strconv.AppendInt(b, int64(v.Kind), 10)
		b = append(b, v.Annotation...)
		if v.Site != nil {
			b = append(b, ' ')
			b = append(b, v.Site.Class...)
			b = append(b, '.')
			b = append(b, v.Site.Name...)
			b = append(b, v.Site.Desc...)
		}
	}
	return b
}

const (
	annotationDesc = "Ljava/lang/annotation/Annotation;"
	classDesc      = "Ljava/lang/Class;"
)

// hasAnnotation jumps to fail unless a value is not null and its class has
// an annotation of type typ (Class.isAnnotationPresent).
func (hg *helperGen) hasAnnotation(kind advice.ValueKind, index int, typ string, fail *classfile.Label) {
	g := hg.g
	for pass := 0; pass < 2; pass++ {
		if t := hg.load(kind, index); t.IsPrimitive() {
			g.box(t)
		}
		if pass == 0 {
			g.add(classfile.Insn{Op: classfile.OpIfnull, Label: fail})
		}
	}
	g.invoke(classfile.OpInvokevirtual, "java/lang/Object", "getClass", "()"+classDesc)
	g.idx(classfile.OpLdc, g.c.Pool.AddClass(typ))
	g.invoke(classfile.OpInvokevirtual, "java/lang/Class", "isAnnotationPresent", "("+classDesc+")Z")
	g.add(classfile.Insn{Op: classfile.OpIfeq, Label: fail})
	hg.skips = true
}

// pushAnnotation pushes the annotation value v as type want.
func (hg *helperGen) pushAnnotation(v advice.Value, want classfile.Type) {
	g := hg.g
	if v.Site != nil {
		g.idx(classfile.OpLdc, g.annotationConstant(v))
	} else {
		if t := hg.load(valueSource(v.Kind), v.Index); t.IsPrimitive() {
			g.box(t)
		}
		g.invoke(classfile.OpInvokevirtual, "java/lang/Object", "getClass", "()"+classDesc)
		g.idx(classfile.OpLdc, g.c.Pool.AddClass(v.Annotation))
		g.invoke(classfile.OpInvokevirtual, "java/lang/Class", "getAnnotation", "("+classDesc+")"+annotationDesc)
	}
	g.convert(annotationDesc, want)
}

// annotationConstant returns the dynamic constant holding the annotation
// of type v.Annotation at v.Site, adding it and its bootstrap method
//
//	private static Object rN(Lookup l, String name, Class type) {
//	    Class c = Class.forName("Site", false, Sister.class.getClassLoader());
//	    return c.getDeclaredMethod("m", MethodType.fromMethodDescriptorString("(…)…",
//	        Sister.class.getClassLoader()).parameterArray()).getAnnotation(A.class);
//	}
//
// (getDeclaredConstructor for a constructor, getDeclaredField for a field,
// the class itself for @within) the first time.
func (g *sisterGen) annotationConstant(v advice.Value) uint16 {
	site := v.Site
	key := v.Annotation + " " + site.Class + "." + site.Name + site.Desc
	if i, ok := g.annots[key]; ok {
		return i
	}
	p := g.c.Pool
	var code []classfile.Insn
	ldc := func(i uint16) { code = append(code, classfile.Insn{Op: classfile.OpLdc, Index: i}) }
	call := func(op uint16, owner, name, desc string) {
		code = append(code, classfile.Insn{Op: op, Index: p.AddMethodref(owner, name, desc, false)})
	}
	loader := func() {
		ldc(p.AddClass(g.sister))
		call(classfile.OpInvokevirtual, "java/lang/Class", "getClassLoader", "()Ljava/lang/ClassLoader;")
	}
	params := func() {
		ldc(p.AddString(site.Desc))
		loader()
		call(classfile.OpInvokestatic, "java/lang/invoke/MethodType", "fromMethodDescriptorString",
			"(Ljava/lang/String;Ljava/lang/ClassLoader;)Ljava/lang/invoke/MethodType;")
		call(classfile.OpInvokevirtual, "java/lang/invoke/MethodType", "parameterArray", "()[Ljava/lang/Class;")
	}
	ldc(p.AddString(classfile.ObjectType(site.Class).JavaName()))
	code = append(code, classfile.Insn{Op: classfile.OpIconst0})
	loader()
	call(classfile.OpInvokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;ZLjava/lang/ClassLoader;)"+classDesc)
	owner := "java/lang/Class"
	switch {
	case site.Name == "":
	case site.Name == "<init>":
		params()
		owner = "java/lang/reflect/Constructor"
		call(classfile.OpInvokevirtual, "java/lang/Class", "getDeclaredConstructor", "([Ljava/lang/Class;)L"+owner+";")
	case len(site.Desc) > 0 && site.Desc[0] == '(':
		ldc(p.AddString(site.Name))
		params()
		owner = "java/lang/reflect/Method"
		call(classfile.OpInvokevirtual, "java/lang/Class", "getDeclaredMethod", "(Ljava/lang/String;[Ljava/lang/Class;)L"+owner+";")
	default:
		ldc(p.AddString(site.Name))
		owner = "java/lang/reflect/Field"
		call(classfile.OpInvokevirtual, "java/lang/Class", "getDeclaredField", "(Ljava/lang/String;)L"+owner+";")
	}
	ldc(p.AddClass(v.Annotation))
	call(classfile.OpInvokevirtual, owner, "getAnnotation", "("+classDesc+")"+annotationDesc)
	code = append(code, classfile.Insn{Op: classfile.OpAreturn})

	name := "r" + strconv.Itoa(len(g.annots))
	const bsmDesc = "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Object;"
	m := &classfile.Member{Access: classfile.AccPrivate | classfile.AccStatic | classfile.AccSynthetic,
		Name: p.AddUtf8(name), Desc: p.AddUtf8(bsmDesc)}
	g.c.Methods = append(g.c.Methods, m)
	c := &classfile.Code{MaxStack: 6, MaxLocals: 3, Insns: code}
	if err := c.Encode(g.c, m, classfile.EncodeOptions{}); err != nil {
		panic("weaver: annotation bootstrap method: " + err.Error()) // straight-line code of fixed shape
	}
	handle := p.Add(classfile.Constant{Tag: classfile.TagMethodHandle, A: 6, B: p.AddMethodref(g.sister, name, bsmDesc, false)})
	g.bsms = append(g.bsms, nil)
	g.bsmHandles = append(g.bsmHandles, handle)
	i := p.Add(classfile.Constant{Tag: classfile.TagDynamic, A: uint16(len(g.bsms) - 1), B: p.AddNameAndType("annotation", annotationDesc)})
	if g.annots == nil {
		g.annots = map[string]uint16{}
	}
	g.annots[key] = i
	return i
}
