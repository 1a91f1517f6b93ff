package javap

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weft-aop/weft/classfile"
)

// DumpOptions control Dump.
type DumpOptions struct {
	// NoPool leaves out the constant-pool listing.
	NoPool bool
	// Method, if set, limits the members listed to methods with this name
	// (or name+descriptor, e.g. "hashCode()I"); fields are left out.
	Method string
}

// Dump writes a readable listing of c, like `javap -c -v`: the header, the
// constant pool, the fields, the methods with their decoded code (label
// offsets, switch tables, exception table, line numbers, local variables,
// stack map frames) and every attribute, decoded where the format is known
// and in hex otherwise. A malformed attribute or Code is reported in the
// listing with its error and its bytes; Dump fails only if w does.
func Dump(w io.Writer, c *classfile.Class, opts DumpOptions) error {
	d := &dumper{w: bufio.NewWriter(w), c: c, p: c.Pool}
	d.header()
	if !opts.NoPool {
		d.pool()
	}
	if opts.Method == "" {
		d.printf("\nFields (%d):\n", len(c.Fields))
		for _, f := range c.Fields {
			d.member(f, false)
		}
	}
	if opts.Method == "" {
		d.printf("\nMethods (%d):\n", len(c.Methods))
	} else {
		d.printf("\nMethods %s (of %d):\n", opts.Method, len(c.Methods))
	}
	for _, m := range c.Methods {
		name, desc := c.MemberName(m), c.MemberDesc(m)
		if opts.Method != "" && opts.Method != name && opts.Method != name+desc {
			continue
		}
		d.member(m, true)
	}
	if opts.Method == "" {
		d.printf("\nClass attributes (%d):\n", len(c.Attributes))
		d.attributes(c.Attributes, "  ")
	}
	return d.w.Flush()
}

type dumper struct {
	w *bufio.Writer
	c *classfile.Class
	p *classfile.Pool
}

func (d *dumper) printf(format string, args ...any) { fmt.Fprintf(d.w, format, args...) }

// flag names by context (JVMS tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A, 4.7.24, 4.7.25).
type flagName struct {
	bit  uint16
	name string
}

var (
	classFlags = []flagName{{classfile.AccPublic, "public"}, {classfile.AccFinal, "final"}, {classfile.AccSuper, "super"},
		{classfile.AccInterface, "interface"}, {classfile.AccAbstract, "abstract"}, {classfile.AccSynthetic, "synthetic"},
		{classfile.AccAnnotation, "annotation"}, {classfile.AccEnum, "enum"}, {classfile.AccModule, "module"}}
	fieldFlags = []flagName{{classfile.AccPublic, "public"}, {classfile.AccPrivate, "private"}, {classfile.AccProtected, "protected"},
		{classfile.AccStatic, "static"}, {classfile.AccFinal, "final"}, {classfile.AccVolatile, "volatile"},
		{classfile.AccTransient, "transient"}, {classfile.AccSynthetic, "synthetic"}, {classfile.AccEnum, "enum"}}
	methodFlags = []flagName{{classfile.AccPublic, "public"}, {classfile.AccPrivate, "private"}, {classfile.AccProtected, "protected"},
		{classfile.AccStatic, "static"}, {classfile.AccFinal, "final"}, {classfile.AccSynchronized, "synchronized"},
		{classfile.AccBridge, "bridge"}, {classfile.AccVarargs, "varargs"}, {classfile.AccNative, "native"},
		{classfile.AccAbstract, "abstract"}, {classfile.AccStrict, "strict"}, {classfile.AccSynthetic, "synthetic"}}
	innerFlags = []flagName{{classfile.AccPublic, "public"}, {classfile.AccPrivate, "private"}, {classfile.AccProtected, "protected"},
		{classfile.AccStatic, "static"}, {classfile.AccFinal, "final"}, {classfile.AccInterface, "interface"},
		{classfile.AccAbstract, "abstract"}, {classfile.AccSynthetic, "synthetic"}, {classfile.AccAnnotation, "annotation"},
		{classfile.AccEnum, "enum"}}
	paramFlags   = []flagName{{classfile.AccFinal, "final"}, {classfile.AccSynthetic, "synthetic"}, {0x8000, "mandated"}}
	moduleFlags  = []flagName{{0x0020, "open"}, {classfile.AccSynthetic, "synthetic"}, {0x8000, "mandated"}}
	requireFlags = []flagName{{0x0020, "transitive"}, {0x0040, "static"}, {classfile.AccSynthetic, "synthetic"},
		{0x8000, "mandated"}}
	exportFlags = []flagName{{classfile.AccSynthetic, "synthetic"}, {0x8000, "mandated"}}
)

// flags formats access flags as "0x0011 public final"; unknown bits show
// in the hex value only.
func flags(v uint16, names []flagName) string {
	s := fmt.Sprintf("0x%04x", v)
	for _, f := range names {
		if v&f.bit != 0 {
			s += " " + f.name
		}
	}
	return s
}

// javaVersion names the Java release of a class-file major version.
func javaVersion(major uint16) string {
	switch {
	case major >= 49:
		return fmt.Sprintf("Java %d", major-44)
	case major >= 45:
		return fmt.Sprintf("Java 1.%d", major-44)
	}
	return "unknown"
}

func (d *dumper) header() {
	c := d.c
	kind := "class"
	switch {
	case c.Access&classfile.AccModule != 0:
		kind = "module"
	case c.Access&classfile.AccAnnotation != 0:
		kind = "annotation interface"
	case c.Access&classfile.AccInterface != 0:
		kind = "interface"
	case c.Access&classfile.AccEnum != 0:
		kind = "enum"
	}
	d.printf("%s %s\n", kind, c.Name())
	if sf := c.SourceFile(); sf != "" {
		d.printf("  source file: %s\n", sf)
	}
	d.printf("  version: %d.%d (%s)\n", c.Major, c.Minor, javaVersion(c.Major))
	d.printf("  flags: %s\n", flags(c.Access, classFlags))
	d.printf("  this_class: #%d %s\n", c.This, c.Name())
	if c.Super != 0 {
		d.printf("  super_class: #%d %s\n", c.Super, d.p.ClassName(c.Super))
	} else {
		d.printf("  super_class: none\n")
	}
	for _, i := range c.Interfaces {
		d.printf("  interface: #%d %s\n", i, d.p.ClassName(i))
	}
	d.printf("  constant pool: %d entries, fields: %d, methods: %d, attributes: %d\n",
		d.p.Len(), len(c.Fields), len(c.Methods), len(c.Attributes))
}

var tagNames = [...]string{classfile.TagUtf8: "Utf8", classfile.TagInteger: "Integer", classfile.TagFloat: "Float",
	classfile.TagLong: "Long", classfile.TagDouble: "Double", classfile.TagClass: "Class", classfile.TagString: "String",
	classfile.TagFieldref: "Fieldref", classfile.TagMethodref: "Methodref", classfile.TagInterfaceMethodref: "InterfaceMethodref",
	classfile.TagNameAndType: "NameAndType", classfile.TagMethodHandle: "MethodHandle", classfile.TagMethodType: "MethodType",
	classfile.TagDynamic: "Dynamic", classfile.TagInvokeDynamic: "InvokeDynamic", classfile.TagModule: "Module", classfile.TagPackage: "Package"}

var refKinds = [...]string{1: "REF_getField", 2: "REF_getStatic", 3: "REF_putField",
	4: "REF_putStatic", 5: "REF_invokeVirtual", 6: "REF_invokeStatic", 7: "REF_invokeSpecial",
	8: "REF_newInvokeSpecial", 9: "REF_invokeInterface"}

func (d *dumper) pool() {
	d.printf("\nConstant pool:\n")
	for i := 1; i < d.p.Len(); i++ {
		k := d.p.Get(uint16(i))
		if k.Tag == 0 {
			continue // the slot after a Long or Double
		}
		var raw string
		switch k.Tag {
		case classfile.TagUtf8:
			d.printf("%6s = %-18s %s\n", "#"+strconv.Itoa(i), "Utf8", utf8Text(k.Str))
			continue
		case classfile.TagInteger, classfile.TagFloat, classfile.TagLong, classfile.TagDouble:
			d.printf("%6s = %-18s %s\n", "#"+strconv.Itoa(i), tagNames[k.Tag], d.constValue(uint16(i)))
			continue
		case classfile.TagClass, classfile.TagString, classfile.TagMethodType, classfile.TagModule, classfile.TagPackage:
			raw = fmt.Sprintf("#%d", k.A)
		case classfile.TagMethodHandle:
			raw = fmt.Sprintf("%d:#%d", k.A, k.B)
		case classfile.TagDynamic, classfile.TagInvokeDynamic:
			raw = fmt.Sprintf("#%d:#%d", k.A, k.B)
		default:
			raw = fmt.Sprintf("#%d.#%d", k.A, k.B)
		}
		d.printf("%6s = %-18s %-14s // %s\n", "#"+strconv.Itoa(i), tagNames[k.Tag], raw, d.constText(uint16(i)))
	}
}

// utf8Text shows a Utf8 constant as is when it is printable, else quoted.
func utf8Text(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// constValue formats a numeric constant as Java source would.
func (d *dumper) constValue(i uint16) string {
	switch d.p.Tag(i) {
	case classfile.TagInteger:
		return strconv.Itoa(int(d.p.Int(i)))
	case classfile.TagFloat:
		f := d.p.Float(i)
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return fmt.Sprintf("%vf (0x%08x)", f, uint32(d.p.Get(i).Num))
		}
		return strconv.FormatFloat(float64(f), 'g', -1, 32) + "f"
	case classfile.TagLong:
		return strconv.FormatInt(d.p.Long(i), 10) + "l"
	case classfile.TagDouble:
		f := d.p.Double(i)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("%vd (0x%016x)", f, d.p.Get(i).Num)
		}
		return strconv.FormatFloat(f, 'g', -1, 64) + "d"
	}
	return "?"
}

// constText describes constant i in the words of an instruction comment,
// e.g. "Method java/lang/Object.<init>:()V" or `String "hi"`.
func (d *dumper) constText(i uint16) string {
	if int(i) >= d.p.Len() || i == 0 {
		return fmt.Sprintf("invalid constant #%d", i)
	}
	k := d.p.Get(i)
	switch k.Tag {
	case classfile.TagUtf8:
		return utf8Text(k.Str)
	case classfile.TagInteger, classfile.TagFloat, classfile.TagLong, classfile.TagDouble:
		return strings.ToLower(tagNames[k.Tag][:1]) + tagNames[k.Tag][1:] + " " + d.constValue(i)
	case classfile.TagClass:
		return "class " + d.p.ClassName(i)
	case classfile.TagString:
		return "String " + strconv.Quote(d.p.Utf8(k.A))
	case classfile.TagMethodType:
		return "MethodType " + d.p.Utf8(k.A)
	case classfile.TagModule:
		return "module " + d.p.Utf8(k.A)
	case classfile.TagPackage:
		return "package " + d.p.Utf8(k.A)
	case classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref:
		owner, name, desc := d.p.MemberRef(i)
		kind := map[uint8]string{classfile.TagFieldref: "Field", classfile.TagMethodref: "Method", classfile.TagInterfaceMethodref: "InterfaceMethod"}[k.Tag]
		return kind + " " + owner + "." + name + ":" + desc
	case classfile.TagNameAndType:
		name, desc := d.p.NameAndType(i)
		return name + ":" + desc
	case classfile.TagMethodHandle:
		kind := "REF_?"
		if int(k.A) < len(refKinds) && refKinds[k.A] != "" {
			kind = refKinds[k.A]
		}
		owner, name, desc := d.p.MemberRef(k.B)
		return "MethodHandle " + kind + " " + owner + "." + name + ":" + desc
	case classfile.TagDynamic, classfile.TagInvokeDynamic:
		name, desc := d.p.DynamicNameAndType(i)
		return fmt.Sprintf("%s #%d:%s:%s", tagNames[k.Tag], k.A, name, desc)
	}
	return fmt.Sprintf("constant #%d with tag %d", i, k.Tag)
}

func (d *dumper) member(m *classfile.Member, isMethod bool) {
	c := d.c
	fl := fieldFlags
	if isMethod {
		fl = methodFlags
	}
	if isMethod {
		d.printf("\n  %s%s\n", c.MemberName(m), c.MemberDesc(m))
	} else {
		d.printf("\n  %s %s\n", c.MemberName(m), c.MemberDesc(m))
	}
	d.printf("    flags: %s\n", flags(m.Access, fl))
	for i := range m.Attributes {
		a := &m.Attributes[i]
		// classfile.DecodeCode reads the first Code attribute; a second one (a
		// malformed class) is listed raw.
		if isMethod && a == d.c.Attr(m.Attributes, "Code") {
			d.code(m, a)
			continue
		}
		d.attribute(a, "    ")
	}
}

// attributes lists attrs, decoded where known, at indentation ind.
func (d *dumper) attributes(attrs []classfile.Attribute, ind string) {
	for i := range attrs {
		d.attribute(&attrs[i], ind)
	}
}

func (d *dumper) attribute(a *classfile.Attribute, ind string) {
	name := d.p.Utf8(a.Name)
	v, err := classfile.DecodeAttr(d.c, a)
	if err != nil {
		d.printf("%s%s: malformed: %v\n", ind, name, err)
		d.hex(a.Info, ind+"  ")
		return
	}
	if v == nil {
		if name == "" {
			name = fmt.Sprintf("#%d (not a Utf8 constant)", a.Name)
		}
		d.printf("%s%s: %d bytes\n", ind, name, len(a.Info))
		d.hex(a.Info, ind+"  ")
		return
	}
	d.attrValue(v, ind)
}

func (d *dumper) hex(b []byte, ind string) {
	for len(b) > 0 {
		n := min(len(b), 32)
		d.printf("%s%x\n", ind, b[:n])
		b = b[n:]
	}
}

func (d *dumper) attrValue(v classfile.AttrValue, ind string) {
	p := d.p
	name := v.AttrName()
	switch a := v.(type) {
	case *classfile.ConstantValue:
		d.printf("%s%s: #%d %s\n", ind, name, a.Index, d.constText(a.Index))
	case *classfile.Signature:
		d.printf("%s%s: #%d %s\n", ind, name, a.Index, utf8Text(p.Utf8(a.Index)))
	case *classfile.SourceFile:
		d.printf("%s%s: #%d %s\n", ind, name, a.Index, utf8Text(p.Utf8(a.Index)))
	case *classfile.Synthetic, *classfile.Deprecated:
		d.printf("%s%s\n", ind, name)
	case *classfile.SourceDebugExtension:
		d.printf("%s%s: %d bytes\n", ind, name, len(a.Data))
		for _, line := range strings.Split(strings.TrimRight(string(a.Data), "\n"), "\n") {
			d.printf("%s  %s\n", ind, utf8Text(line))
		}
	case *classfile.Exceptions:
		d.printf("%s%s:\n", ind, name)
		for _, x := range a.Classes {
			d.printf("%s  #%d %s\n", ind, x, p.ClassName(x))
		}
	case *classfile.NestMembers:
		d.classList(ind, name, a.Classes)
	case *classfile.PermittedSubclasses:
		d.classList(ind, name, a.Classes)
	case *classfile.NestHost:
		d.printf("%s%s: #%d %s\n", ind, name, a.Class, p.ClassName(a.Class))
	case *classfile.ModuleMainClass:
		d.printf("%s%s: #%d %s\n", ind, name, a.Class, p.ClassName(a.Class))
	case *classfile.ModulePackages:
		d.printf("%s%s:\n", ind, name)
		for _, x := range a.Packages {
			d.printf("%s  #%d %s\n", ind, x, p.Utf8(p.Get(x).A))
		}
	case *classfile.InnerClasses:
		d.printf("%s%s:\n", ind, name)
		for _, ic := range a.Classes {
			outer, simple := "(local)", "(anonymous)"
			if ic.Outer != 0 {
				outer = p.ClassName(ic.Outer)
			}
			if ic.Name != 0 {
				simple = p.Utf8(ic.Name)
			}
			d.printf("%s  #%d %s: outer #%d %s, name #%d %s, flags %s\n", ind, ic.Inner, p.ClassName(ic.Inner),
				ic.Outer, outer, ic.Name, simple, flags(ic.Access, innerFlags))
		}
	case *classfile.EnclosingMethod:
		method := "(none)"
		if a.Method != 0 {
			n, t := p.NameAndType(a.Method)
			method = n + t
		}
		d.printf("%s%s: #%d %s, method #%d %s\n", ind, name, a.Class, p.ClassName(a.Class), a.Method, method)
	case *classfile.LineNumberTable:
		d.printf("%s%s:\n", ind, name)
		for _, l := range a.Lines {
			d.printf("%s  line %d: %d\n", ind, l.Line, l.StartPC)
		}
	case *classfile.LocalVariableTable:
		d.printf("%s%s:\n%s  %5s %6s %4s  %s\n", ind, name, ind, "start", "length", "slot", "name and type")
		for _, l := range a.Vars {
			d.printf("%s  %5d %6d %4d  %s %s\n", ind, l.StartPC, l.Length, l.Slot, p.Utf8(l.Name), p.Utf8(l.Desc))
		}
	case *classfile.Annotations:
		d.printf("%s%s:\n", ind, name)
		for i := range a.Annotations {
			d.printf("%s  %s\n", ind, d.annotation(&a.Annotations[i]))
		}
	case *classfile.ParameterAnnotations:
		d.printf("%s%s: %d parameters\n", ind, name, len(a.Params))
		for i, ps := range a.Params {
			for j := range ps {
				d.printf("%s  parameter %d: %s\n", ind, i, d.annotation(&ps[j]))
			}
		}
	case *classfile.TypeAnnotations:
		d.printf("%s%s:\n", ind, name)
		for i := range a.Annotations {
			d.printf("%s  %s\n", ind, d.typeAnnotation(&a.Annotations[i]))
		}
	case *classfile.AnnotationDefault:
		d.printf("%s%s: %s\n", ind, name, d.elementValue(&a.Value))
	case *classfile.BootstrapMethods:
		d.printf("%s%s:\n", ind, name)
		for i, m := range a.Methods {
			d.printf("%s  %d: #%d %s\n", ind, i, m.Ref, d.constText(m.Ref))
			for _, x := range m.Args {
				d.printf("%s       #%d %s\n", ind, x, d.constText(x))
			}
		}
	case *classfile.MethodParameters:
		d.printf("%s%s:\n", ind, name)
		for _, m := range a.Params {
			n := "(unnamed)"
			if m.Name != 0 {
				n = p.Utf8(m.Name)
			}
			d.printf("%s  %s %s\n", ind, n, flags(m.Access, paramFlags))
		}
	case *classfile.Module:
		d.module(a, ind)
	case *classfile.Record:
		d.printf("%s%s:\n", ind, name)
		for _, rc := range a.Components {
			d.printf("%s  %s %s\n", ind, p.Utf8(rc.Name), p.Utf8(rc.Desc))
			d.attributes(rc.Attributes, ind+"    ")
		}
	default:
		d.printf("%s%s\n", ind, name)
	}
}

func (d *dumper) classList(ind, name string, xs []uint16) {
	d.printf("%s%s:\n", ind, name)
	for _, x := range xs {
		d.printf("%s  #%d %s\n", ind, x, d.p.ClassName(x))
	}
}

func (d *dumper) module(m *classfile.Module, ind string) {
	p := d.p
	utf := func(i uint16) string { // of a Module or Package entry
		return p.Utf8(p.Get(i).A)
	}
	version := func(i uint16) string {
		if i == 0 {
			return ""
		}
		return " @" + p.Utf8(i)
	}
	// Most entries have no flags: show them only when set.
	optFlags := func(v uint16, names []flagName) string {
		if v == 0 {
			return ""
		}
		return ", flags " + flags(v, names)
	}
	d.printf("%sModule: %s%s%s\n", ind, utf(m.Name), version(m.Version), optFlags(m.Flags, moduleFlags))
	for _, r := range m.Requires {
		d.printf("%s  requires %s%s%s\n", ind, utf(r.Module), version(r.Version), optFlags(r.Flags, requireFlags))
	}
	for i, list := range [][]classfile.ModuleExport{m.Exports, m.Opens} {
		verb := [...]string{"exports", "opens"}[i]
		for _, e := range list {
			to := ""
			for j, x := range e.To {
				if j == 0 {
					to = " to"
				}
				to += " " + utf(x)
			}
			d.printf("%s  %s %s%s%s\n", ind, verb, utf(e.Package), to, optFlags(e.Flags, exportFlags))
		}
	}
	for _, u := range m.Uses {
		d.printf("%s  uses %s\n", ind, p.ClassName(u))
	}
	for _, pr := range m.Provides {
		var with []string
		for _, x := range pr.With {
			with = append(with, p.ClassName(x))
		}
		d.printf("%s  provides %s with %s\n", ind, p.ClassName(pr.Service), strings.Join(with, ", "))
	}
}

// annotation formats an annotation as @Type(name=value, ...), with the
// type as its descriptor.
func (d *dumper) annotation(a *classfile.Annotation) string {
	var b strings.Builder
	b.WriteString("@" + d.p.Utf8(a.Type))
	if len(a.Elements) > 0 {
		b.WriteByte('(')
		for i := range a.Elements {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(d.p.Utf8(a.Elements[i].Name) + "=" + d.elementValue(&a.Elements[i].Value))
		}
		b.WriteByte(')')
	}
	return b.String()
}

func (d *dumper) elementValue(v *classfile.ElementValue) string {
	p := d.p
	switch v.Tag {
	case 'B', 'S', 'I':
		return strconv.Itoa(int(p.Int(v.Index)))
	case 'C':
		return strconv.QuoteRune(rune(p.Int(v.Index)))
	case 'Z':
		return strconv.FormatBool(p.Int(v.Index) != 0)
	case 'D', 'F', 'J':
		return d.constValue(v.Index)
	case 's':
		return strconv.Quote(p.Utf8(v.Index))
	case 'e':
		return p.Utf8(v.Index) + "." + p.Utf8(v.EnumConst)
	case 'c':
		return p.Utf8(v.Index) + ".class"
	case '@':
		return d.annotation(v.Annotation)
	case '[':
		parts := make([]string, len(v.Values))
		for i := range v.Values {
			parts[i] = d.elementValue(&v.Values[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("?%q", v.Tag)
}

var targetNames = map[uint8]string{0x00: "class type parameter", 0x01: "method type parameter",
	0x10: "supertype", 0x11: "class type parameter bound", 0x12: "method type parameter bound",
	0x13: "field or record component", 0x14: "return or new object", 0x15: "receiver",
	0x16: "formal parameter", 0x17: "throws", 0x40: "local variable", 0x41: "resource variable",
	0x42: "exception parameter", 0x43: "instanceof", 0x44: "new", 0x45: "::new", 0x46: "::method",
	0x47: "cast", 0x48: "constructor invocation type argument", 0x49: "method invocation type argument",
	0x4A: "::new type argument", 0x4B: "::method type argument"}

func (d *dumper) typeAnnotation(ta *classfile.TypeAnnotation) string {
	t := &ta.Target
	s := fmt.Sprintf("0x%02x %s", ta.TargetType, targetNames[ta.TargetType])
	switch ta.TargetType {
	case 0x00, 0x01, 0x16, 0x10, 0x17, 0x42:
		s += fmt.Sprintf(" %d", t.Index)
	case 0x11, 0x12:
		s += fmt.Sprintf(" %d bound %d", t.Index, t.Arg)
	case 0x40, 0x41:
		for _, r := range t.Ranges {
			s += fmt.Sprintf(" [%d, %d) slot %d", r.StartPC, int(r.StartPC)+int(r.Length), r.Slot)
		}
	case 0x43, 0x44, 0x45, 0x46:
		s += fmt.Sprintf(" at %d", t.Index)
	case 0x47, 0x48, 0x49, 0x4A, 0x4B:
		s += fmt.Sprintf(" at %d argument %d", t.Index, t.Arg)
	}
	return s + typePath(ta.Path) + " " + d.annotation(&ta.Annotation)
}

func typePath(path []classfile.TypePathEntry) string {
	if len(path) == 0 {
		return ""
	}
	s := " path"
	for _, e := range path {
		switch e.Kind {
		case 0:
			s += " ["
		case 1:
			s += " ."
		case 2:
			s += " *"
		case 3:
			s += fmt.Sprintf(" <%d>", e.ArgIndex)
		default:
			s += fmt.Sprintf(" ?%d,%d", e.Kind, e.ArgIndex)
		}
	}
	return s
}

// code lists a method's Code attribute: decoded by classfile.DecodeCode, with the
// original bytes consulted for instruction offsets and forms.
func (d *dumper) code(m *classfile.Member, a *classfile.Attribute) {
	code, err := classfile.DecodeCode(d.c, m)
	if err != nil {
		d.printf("    Code: malformed: %v\n", err)
		d.hex(a.Info, "      ")
		return
	}
	bc := rawBytecode(a.Info)
	d.printf("    Code: max_stack %d, max_locals %d, code_length %d\n", code.MaxStack, code.MaxLocals, len(bc))
	pc := 0
	for i := range code.Insns {
		in := &code.Insns[i]
		if in.Op == classfile.OpLabel {
			continue
		}
		n := rawInsnLen(bc, pc)
		if n <= 0 || normalOp(bc, pc) != in.Op {
			// Cannot happen for code classfile.DecodeCode accepted; never guess.
			d.printf("      (listing stops: the instruction at %d does not match the decoded code)\n", pc)
			break
		}
		d.printf("      %5d: %s\n", pc, d.insn(in, bc, pc))
		pc += n
	}
	if len(code.Handlers) > 0 {
		d.printf("    Exception table:\n      %5s %5s %7s  %s\n", "from", "to", "handler", "type")
		for _, h := range code.Handlers {
			t := "any"
			if h.CatchType != 0 {
				t = fmt.Sprintf("#%d %s", h.CatchType, d.p.ClassName(h.CatchType))
			}
			d.printf("      %5d %5d %7d  %s\n", h.Start.Offset, h.End.Offset, h.Handler.Offset, t)
		}
	}
	if len(code.Lines) > 0 {
		d.printf("    LineNumberTable:\n")
		for _, l := range code.Lines {
			d.printf("      line %d: %d\n", l.Line, l.Start.Offset)
		}
	}
	for i, vars := range [][]classfile.LocalVar{code.Locals, code.LocalTypes} {
		if len(vars) == 0 {
			continue
		}
		d.printf("    %s:\n      %5s %6s %4s  %s\n", [...]string{"LocalVariableTable", "LocalVariableTypeTable"}[i],
			"start", "length", "slot", "name and type")
		for _, v := range vars {
			d.printf("      %5d %6d %4d  %s %s\n", v.Start.Offset, v.End.Offset-v.Start.Offset, v.Slot,
				d.p.Utf8(v.Name), d.p.Utf8(v.Desc))
		}
	}
	if len(code.Frames) > 0 {
		d.printf("    StackMapTable: %d frames\n", len(code.Frames))
		for _, f := range code.Frames {
			d.printf("      %5d: locals [%s] stack [%s]\n", f.At.Offset, vtypes(f.Locals), vtypes(f.Stack))
		}
	}
	for _, cta := range code.TypeAnnotations {
		d.printf("    %s:\n", d.p.Utf8(cta.Name))
		for _, ta := range cta.Annotations {
			d.printf("      %s\n", d.codeTypeAnnotation(&ta))
		}
	}
	d.attributes(code.Attributes, "    ")
}

// rawBytecode returns the code array of a Code attribute's info (which
// classfile.DecodeCode has validated).
func rawBytecode(info []byte) []byte {
	if len(info) < 8 {
		return nil
	}
	n := int(binary.BigEndian.Uint32(info[4:]))
	if n > len(info)-8 || n < 0 {
		return nil
	}
	return info[8 : 8+n]
}

// rawInsnLen returns the size of the instruction at pc, 0 if it cannot
// be sized or runs past the end of bc.
func rawInsnLen(bc []byte, pc int) int {
	if pc < 0 || pc >= len(bc) {
		return 0
	}
	s4 := func(i int) int64 {
		if i+4 > len(bc) {
			return -1
		}
		return int64(int32(binary.BigEndian.Uint32(bc[i:])))
	}
	var n int64
	switch op := bc[pc]; op {
	case classfile.OpWide:
		n = 4
		if pc+1 < len(bc) && bc[pc+1] == classfile.OpIinc {
			n = 6
		}
	case classfile.OpTableswitch:
		p := (pc + 4) &^ 3
		if p+12 > len(bc) {
			return 0
		}
		n = int64(p-pc) + 12 + 4*(s4(p+8)-s4(p+4)+1)
	case classfile.OpLookupswitch:
		p := (pc + 4) &^ 3
		if p+8 > len(bc) {
			return 0
		}
		n = int64(p-pc) + 8 + 8*s4(p+4)
	default:
		n = int64(classfile.OpSize(op))
	}
	if n <= 0 || int64(pc)+n > int64(len(bc)) {
		return 0
	}
	return int(n)
}

// normalOp returns the opcode classfile.DecodeCode gives the instruction at pc
// (see classfile.Insn): short and wide forms folded.
func normalOp(bc []byte, pc int) uint16 {
	op := bc[pc]
	switch {
	case op >= classfile.OpIload0 && op <= classfile.OpAload3:
		return uint16(classfile.OpIload + (op-classfile.OpIload0)/4)
	case op >= classfile.OpIstore0 && op <= classfile.OpAstore3:
		return uint16(classfile.OpIstore + (op-classfile.OpIstore0)/4)
	case op == classfile.OpLdcW:
		return classfile.OpLdc
	case op == classfile.OpGotoW:
		return classfile.OpGoto
	case op == classfile.OpJsrW:
		return classfile.OpJsr
	case op == classfile.OpWide && pc+1 < len(bc):
		return uint16(bc[pc+1])
	}
	return uint16(op)
}

// insn formats one instruction: the mnemonic of its original form at pc
// and its operands from the decoded classfile.Insn.
func (d *dumper) insn(in *classfile.Insn, bc []byte, pc int) string {
	raw := bc[pc]
	mn := classfile.OpNames[raw]
	if raw == classfile.OpWide {
		mn = "wide " + classfile.OpNames[in.Op]
	}
	switch {
	case raw >= classfile.OpIload0 && raw <= classfile.OpAload3, raw >= classfile.OpIstore0 && raw <= classfile.OpAstore3:
		return mn
	}
	pad := func(s string) string { return fmt.Sprintf("%-15s %s", mn, s) }
	switch in.Op {
	case classfile.OpIload, classfile.OpLload, classfile.OpFload, classfile.OpDload, classfile.OpAload, classfile.OpIstore, classfile.OpLstore, classfile.OpFstore, classfile.OpDstore, classfile.OpAstore, classfile.OpRet:
		return pad(strconv.Itoa(int(in.Index)))
	case classfile.OpIinc:
		return pad(fmt.Sprintf("%d, %d", in.Index, int16(in.Const)))
	case classfile.OpBipush, classfile.OpSipush:
		return pad(strconv.Itoa(int(in.Const)))
	case classfile.OpNewarray:
		if t, ok := classfile.NewarrayType(in.Const); ok {
			return pad(t.JavaName())
		}
		return pad("?")
	case classfile.OpMultianewarray:
		return pad(fmt.Sprintf("#%d, %d // %s", in.Index, in.Const, d.constText(in.Index)))
	case classfile.OpInvokeinterface:
		return pad(fmt.Sprintf("#%d, %d // %s", in.Index, bc[pc+3], d.constText(in.Index)))
	case classfile.OpLdc, classfile.OpLdc2W, classfile.OpGetstatic, classfile.OpPutstatic, classfile.OpGetfield, classfile.OpPutfield, classfile.OpInvokevirtual,
		classfile.OpInvokespecial, classfile.OpInvokestatic, classfile.OpInvokedynamic, classfile.OpNew, classfile.OpAnewarray, classfile.OpCheckcast, classfile.OpInstanceof:
		return pad(fmt.Sprintf("#%d // %s", in.Index, d.constText(in.Index)))
	case classfile.OpTableswitch, classfile.OpLookupswitch:
		sw := in.Switch
		var b strings.Builder
		if in.Op == classfile.OpTableswitch {
			fmt.Fprintf(&b, "%s { // %d to %d\n", mn, sw.Low, sw.High)
			for i, t := range sw.Targets {
				fmt.Fprintf(&b, "      %12d: %d\n", int64(sw.Low)+int64(i), t.Offset)
			}
		} else {
			fmt.Fprintf(&b, "%s { // %d\n", mn, len(sw.Keys))
			for i, t := range sw.Targets {
				fmt.Fprintf(&b, "      %12d: %d\n", sw.Keys[i], t.Offset)
			}
		}
		fmt.Fprintf(&b, "      %12s: %d\n             }", "default", sw.Default.Offset)
		return b.String()
	}
	if in.Label != nil {
		return pad(strconv.Itoa(in.Label.Offset))
	}
	return mn
}

func vtypes(ts []classfile.VType) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		switch t.Kind {
		case classfile.VTop:
			parts[i] = "top"
		case classfile.VInteger:
			parts[i] = "int"
		case classfile.VFloat:
			parts[i] = "float"
		case classfile.VDouble:
			parts[i] = "double"
		case classfile.VLong:
			parts[i] = "long"
		case classfile.VNull:
			parts[i] = "null"
		case classfile.VUninitializedThis:
			parts[i] = "uninitialized_this"
		case classfile.VObject:
			parts[i] = t.Class
		case classfile.VUninitialized:
			at := -1
			if t.New != nil {
				at = t.New.Offset
			}
			parts[i] = fmt.Sprintf("uninitialized(%d)", at)
		default:
			parts[i] = fmt.Sprintf("?%d", t.Kind)
		}
	}
	return strings.Join(parts, ", ")
}

// codeTypeAnnotation formats a type annotation of a Code attribute, whose
// target_path and annotation classfile.DecodeCode keeps raw.
func (d *dumper) codeTypeAnnotation(ta *classfile.CodeTypeAnnotation) string {
	s := fmt.Sprintf("0x%02x %s", ta.TargetType, targetNames[ta.TargetType])
	switch {
	case len(ta.Ranges) > 0:
		for _, r := range ta.Ranges {
			s += fmt.Sprintf(" [%d, %d) slot %d", r.Start.Offset, r.End.Offset, r.Slot)
		}
	case ta.At != nil && ta.TargetType >= 0x47:
		s += fmt.Sprintf(" at %d argument %d", ta.At.Offset, ta.TypeArg)
	case ta.At != nil:
		s += fmt.Sprintf(" at %d", ta.At.Offset)
	case len(ta.Target) == 2:
		s += fmt.Sprintf(" %d", binary.BigEndian.Uint16(ta.Target))
	}
	path, an, err := ta.DecodeRest()
	if err != nil {
		return s + fmt.Sprintf(" (malformed: %v) %x", err, ta.Rest)
	}
	return s + typePath(path) + " " + d.annotation(&an)
}
