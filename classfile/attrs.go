package classfile

import (
	"errors"
	"fmt"
)

// Structured forms of the attributes of JVMS SE 21 §4.7.
//
// Parse keeps every attribute raw; DecodeAttr turns a known one into one of
// the types below and EncodeAttr turns it back into bytes. The decoded forms
// hold constant-pool indices exactly as the class file does, so decoding
// and re-encoding an attribute gives back its identical bytes. Code (with
// the attributes it owns) and StackMapTable are decoded by DecodeCode;
// attributes this file does not model (JDK-private ones such as
// ModuleHashes, or any unknown name) stay raw.

// AttrValue is a decoded attribute.
type AttrValue interface {
	// AttrName returns the attribute's name, e.g. "InnerClasses".
	AttrName() string
	// encode appends the attribute's info (without the 6-byte header).
	encode(w *attrWriter)
}

// AttrError reports a malformed attribute: the class, the attribute and the
// byte offset within the attribute's info where decoding failed.
type AttrError struct {
	Class  string // internal name of the class
	Attr   string // attribute name
	Offset int    // offset within the attribute's info
	Msg    string
}

func (e *AttrError) Error() string {
	return fmt.Sprintf("%s: %s attribute: offset %d: %s", e.Class, e.Attr, e.Offset, e.Msg)
}

// ConstantValue is a field's constant initializer (§4.7.2): an Integer,
// Float, Long, Double or String entry.
type ConstantValue struct{ Index uint16 }

// Exceptions lists the Class entries a method declares it throws (§4.7.5).
type Exceptions struct{ Classes []uint16 }

// InnerClasses lists the nested classes a class refers to (§4.7.6).
type InnerClasses struct{ Classes []InnerClass }

// InnerClass is one InnerClasses entry. Outer and Name are 0 for local and
// anonymous classes.
type InnerClass struct {
	Inner  uint16 // Class entry
	Outer  uint16 // Class entry or 0
	Name   uint16 // Utf8 entry (simple name) or 0
	Access uint16
}

// EnclosingMethod names the class and, if any, the method enclosing a local
// or anonymous class (§4.7.7).
type EnclosingMethod struct {
	Class  uint16 // Class entry
	Method uint16 // NameAndType entry or 0
}

// Synthetic marks a member not present in the source (§4.7.8).
type Synthetic struct{}

// Signature is the generic signature of a class, member or record
// component (§4.7.9): a Utf8 entry.
type Signature struct{ Index uint16 }

// SourceFile names the source file of a class (§4.7.10): a Utf8 entry.
type SourceFile struct{ Index uint16 }

// SourceDebugExtension is a class's extended debugging information
// (§4.7.11), e.g. an SMAP. Its bytes are not a constant-pool string.
type SourceDebugExtension struct{ Data []byte }

// LineNumberTable maps bytecode offsets to source lines (§4.7.12). Within a
// Code attribute DecodeCode holds it as labels; this form is the raw table.
type LineNumberTable struct{ Lines []LineNumberEntry }

// LineNumberEntry maps the code from StartPC on to Line.
type LineNumberEntry struct{ StartPC, Line uint16 }

// LocalVariableTable (§4.7.13) or, with Types set, LocalVariableTypeTable
// (§4.7.14): the raw table; DecodeCode holds it as labels.
type LocalVariableTable struct {
	Types bool // LocalVariableTypeTable: Desc is a field signature
	Vars  []LocalVariableEntry
}

// LocalVariableEntry: the variable in Slot is live in [StartPC, StartPC+Length).
type LocalVariableEntry struct {
	StartPC, Length uint16
	Name, Desc      uint16 // Utf8 entries
	Slot            uint16
}

// Deprecated marks a deprecated class or member (§4.7.15).
type Deprecated struct{}

// Annotations is RuntimeVisibleAnnotations (§4.7.16) or, with Invisible
// set, RuntimeInvisibleAnnotations (§4.7.17).
type Annotations struct {
	Invisible   bool
	Annotations []Annotation
}

// ParameterAnnotations is RuntimeVisibleParameterAnnotations (§4.7.18) or,
// with Invisible set, RuntimeInvisibleParameterAnnotations (§4.7.19).
// Params[i] holds the annotations of the i-th parameter the attribute
// covers (javac may omit synthetic parameters, so len(Params) can be less
// than the descriptor's parameter count).
type ParameterAnnotations struct {
	Invisible bool
	Params    [][]Annotation
}

// TypeAnnotations is RuntimeVisibleTypeAnnotations (§4.7.20) or, with
// Invisible set, RuntimeInvisibleTypeAnnotations (§4.7.21). Code offsets
// in targets are raw here; DecodeCode holds those of a Code attribute as
// labels.
type TypeAnnotations struct {
	Invisible   bool
	Annotations []TypeAnnotation
}

// Annotation is one annotation (§4.7.16): its type and element values.
type Annotation struct {
	Type     uint16 // Utf8 entry: a field descriptor, e.g. "Ljava/lang/Deprecated;"
	Elements []ElementPair
}

// ElementPair is one element_value_pair.
type ElementPair struct {
	Name  uint16 // Utf8 entry
	Value ElementValue
}

// ElementValue is an element_value (§4.7.16.1). Tag selects the fields:
//
//	B C D F I J S Z   Index: Integer, Long, Float or Double entry
//	s                 Index: Utf8 entry
//	e                 Index: Utf8 type descriptor, EnumConst: Utf8 constant name
//	c                 Index: Utf8 return descriptor, e.g. "Ljava/lang/Object;" or "V"
//	@                 Annotation
//	[                 Values
type ElementValue struct {
	Tag        byte
	Index      uint16
	EnumConst  uint16
	Annotation *Annotation
	Values     []ElementValue
}

// TypeAnnotation is one type_annotation (§4.7.20): where in a declaration
// or expression the annotated type is, and the annotation.
type TypeAnnotation struct {
	TargetType uint8
	Target     TypeTarget
	Path       []TypePathEntry
	Annotation Annotation
}

// TypeTarget is a target_info; TargetType selects the fields:
//
//	0x00 0x01            Index: type_parameter_index
//	0x10                 Index: supertype_index (65535 for the superclass)
//	0x11 0x12            Index: type_parameter_index, Arg: bound_index
//	0x13 0x14 0x15       (empty)
//	0x16                 Index: formal_parameter_index
//	0x17                 Index: throws_type_index
//	0x40 0x41            Ranges: localvar_target table
//	0x42                 Index: exception_table_index
//	0x43-0x46            Index: bytecode offset
//	0x47-0x4B            Index: bytecode offset, Arg: type_argument_index
type TypeTarget struct {
	Index  uint16
	Arg    uint8
	Ranges []LocalVarTarget
}

// LocalVarTarget is one localvar_target entry: the variable in Slot, live
// in [StartPC, StartPC+Length).
type LocalVarTarget struct{ StartPC, Length, Slot uint16 }

// TypePathEntry is one step of a type_path.
type TypePathEntry struct{ Kind, ArgIndex uint8 }

// AnnotationDefault is the default value of an annotation interface
// element (§4.7.22).
type AnnotationDefault struct{ Value ElementValue }

// BootstrapMethods lists the bootstrap methods of invokedynamic and
// dynamic constants (§4.7.23).
type BootstrapMethods struct{ Methods []BootstrapMethod }

// BootstrapMethod is a MethodHandle entry and its static arguments
// (loadable constant-pool entries).
type BootstrapMethod struct {
	Ref  uint16
	Args []uint16
}

// MethodParameters names a method's formal parameters (§4.7.24).
type MethodParameters struct{ Params []MethodParameter }

// MethodParameter is one parameter: Name is a Utf8 entry or 0.
type MethodParameter struct{ Name, Access uint16 }

// Module describes a module in module-info.class (§4.7.25). All indices
// refer to Module, Package, Class and Utf8 entries; Version fields may be 0.
type Module struct {
	Name, Flags, Version uint16
	Requires             []ModuleRequire
	Exports              []ModuleExport
	Opens                []ModuleExport
	Uses                 []uint16 // Class entries
	Provides             []ModuleProvide
}

// ModuleRequire is one requires entry.
type ModuleRequire struct{ Module, Flags, Version uint16 }

// ModuleExport is one exports or opens entry; To lists Module entries
// (empty: to everyone).
type ModuleExport struct {
	Package, Flags uint16
	To             []uint16
}

// ModuleProvide is one provides entry: a service and its implementations
// (Class entries).
type ModuleProvide struct {
	Service uint16
	With    []uint16
}

// ModulePackages lists the Package entries of a module (§4.7.26).
type ModulePackages struct{ Packages []uint16 }

// ModuleMainClass names a module's main class (§4.7.27).
type ModuleMainClass struct{ Class uint16 }

// NestHost names the nest host of a class (§4.7.28).
type NestHost struct{ Class uint16 }

// NestMembers lists the Class entries of a nest host's members (§4.7.29).
type NestMembers struct{ Classes []uint16 }

// Record lists the components of a record class (§4.7.30).
type Record struct{ Components []RecordComponent }

// RecordComponent is one record component. Its attributes (Signature,
// annotations, type annotations) are kept raw; decode them with DecodeAttr.
type RecordComponent struct {
	Name, Desc uint16 // Utf8 entries
	Attributes []Attribute
}

// PermittedSubclasses lists the Class entries of a sealed class's permitted
// direct subclasses (§4.7.31).
type PermittedSubclasses struct{ Classes []uint16 }

func (ConstantValue) AttrName() string        { return "ConstantValue" }
func (Exceptions) AttrName() string           { return "Exceptions" }
func (InnerClasses) AttrName() string         { return "InnerClasses" }
func (EnclosingMethod) AttrName() string      { return "EnclosingMethod" }
func (Synthetic) AttrName() string            { return "Synthetic" }
func (Signature) AttrName() string            { return "Signature" }
func (SourceFile) AttrName() string           { return "SourceFile" }
func (SourceDebugExtension) AttrName() string { return "SourceDebugExtension" }
func (LineNumberTable) AttrName() string      { return "LineNumberTable" }
func (Deprecated) AttrName() string           { return "Deprecated" }
func (AnnotationDefault) AttrName() string    { return "AnnotationDefault" }
func (BootstrapMethods) AttrName() string     { return "BootstrapMethods" }
func (MethodParameters) AttrName() string     { return "MethodParameters" }
func (Module) AttrName() string               { return "Module" }
func (ModulePackages) AttrName() string       { return "ModulePackages" }
func (ModuleMainClass) AttrName() string      { return "ModuleMainClass" }
func (NestHost) AttrName() string             { return "NestHost" }
func (NestMembers) AttrName() string          { return "NestMembers" }
func (Record) AttrName() string               { return "Record" }
func (PermittedSubclasses) AttrName() string  { return "PermittedSubclasses" }

func (a LocalVariableTable) AttrName() string {
	if a.Types {
		return "LocalVariableTypeTable"
	}
	return "LocalVariableTable"
}

func (a Annotations) AttrName() string {
	if a.Invisible {
		return "RuntimeInvisibleAnnotations"
	}
	return "RuntimeVisibleAnnotations"
}

func (a ParameterAnnotations) AttrName() string {
	if a.Invisible {
		return "RuntimeInvisibleParameterAnnotations"
	}
	return "RuntimeVisibleParameterAnnotations"
}

func (a TypeAnnotations) AttrName() string {
	if a.Invisible {
		return "RuntimeInvisibleTypeAnnotations"
	}
	return "RuntimeVisibleTypeAnnotations"
}

// attrDecoders maps the modelled attribute names to their decoders.
var attrDecoders map[string]func(r *reader) AttrValue

func init() {
	attrDecoders = map[string]func(r *reader) AttrValue{
		"ConstantValue":        func(r *reader) AttrValue { return &ConstantValue{r.u2()} },
		"Exceptions":           func(r *reader) AttrValue { return &Exceptions{r.u2s()} },
		"InnerClasses":         decodeInnerClasses,
		"EnclosingMethod":      func(r *reader) AttrValue { return &EnclosingMethod{r.u2(), r.u2()} },
		"Synthetic":            func(r *reader) AttrValue { return &Synthetic{} },
		"Signature":            func(r *reader) AttrValue { return &Signature{r.u2()} },
		"SourceFile":           func(r *reader) AttrValue { return &SourceFile{r.u2()} },
		"SourceDebugExtension": func(r *reader) AttrValue { return &SourceDebugExtension{r.bytes(len(r.b))} },
		"LineNumberTable":      decodeLineNumberTable,
		"LocalVariableTable":   func(r *reader) AttrValue { return decodeLocalVariableTable(r, false) },
		"LocalVariableTypeTable": func(r *reader) AttrValue {
			return decodeLocalVariableTable(r, true)
		},
		"Deprecated": func(r *reader) AttrValue { return &Deprecated{} },
		"RuntimeVisibleAnnotations": func(r *reader) AttrValue {
			return &Annotations{false, r.annotations(0)}
		},
		"RuntimeInvisibleAnnotations": func(r *reader) AttrValue {
			return &Annotations{true, r.annotations(0)}
		},
		"RuntimeVisibleParameterAnnotations": func(r *reader) AttrValue {
			return &ParameterAnnotations{false, r.paramAnnotations()}
		},
		"RuntimeInvisibleParameterAnnotations": func(r *reader) AttrValue {
			return &ParameterAnnotations{true, r.paramAnnotations()}
		},
		"RuntimeVisibleTypeAnnotations": func(r *reader) AttrValue {
			return &TypeAnnotations{false, r.typeAnnotations()}
		},
		"RuntimeInvisibleTypeAnnotations": func(r *reader) AttrValue {
			return &TypeAnnotations{true, r.typeAnnotations()}
		},
		"AnnotationDefault":   func(r *reader) AttrValue { return &AnnotationDefault{r.elementValue(0)} },
		"BootstrapMethods":    decodeBootstrapMethods,
		"MethodParameters":    decodeMethodParameters,
		"Module":              decodeModule,
		"ModulePackages":      func(r *reader) AttrValue { return &ModulePackages{r.u2s()} },
		"ModuleMainClass":     func(r *reader) AttrValue { return &ModuleMainClass{r.u2()} },
		"NestHost":            func(r *reader) AttrValue { return &NestHost{r.u2()} },
		"NestMembers":         func(r *reader) AttrValue { return &NestMembers{r.u2s()} },
		"Record":              decodeRecord,
		"PermittedSubclasses": func(r *reader) AttrValue { return &PermittedSubclasses{r.u2s()} },
	}
}

// IsModelledAttr reports whether DecodeAttr decodes attributes named name.
func IsModelledAttr(name string) bool { return attrDecoders[name] != nil }

// DecodeAttr decodes a known attribute of c. It returns nil, nil for
// attributes it does not model (see IsModelledAttr): those stay raw. It
// never panics; a malformed attribute gives an *AttrError. The result may
// alias a.Info (SourceDebugExtension's Data).
func DecodeAttr(c *Class, a *Attribute) (AttrValue, error) {
	name := c.Pool.Utf8(a.Name)
	dec := attrDecoders[name]
	if dec == nil {
		return nil, nil
	}
	r := &reader{b: a.Info}
	v := dec(r)
	if r.err == nil && r.off != len(r.b) {
		r.fail("%d bytes of trailing data", len(r.b)-r.off)
	}
	if r.err != nil {
		var fe *FormatError
		if errors.As(r.err, &fe) {
			return nil, &AttrError{Class: c.Name(), Attr: name, Offset: fe.Offset, Msg: fe.Msg}
		}
		return nil, r.err
	}
	return v, nil
}

// EncodeAttr encodes v as an attribute of c, adding its name to c's pool if
// needed. It fails if a table is too long for its count field.
func EncodeAttr(c *Class, v AttrValue) (Attribute, error) {
	w := &attrWriter{}
	v.encode(w)
	if w.err != nil {
		return Attribute{}, fmt.Errorf("%s: encoding %s attribute: %w", c.Name(), v.AttrName(), w.err)
	}
	return Attribute{Name: c.Pool.AddUtf8(v.AttrName()), Info: w.b}, nil
}

// FindAttr decodes the first attribute named name in attrs (which belong to
// c, one of its members, a Code attribute or a record component). It returns
// nil, nil if there is none or the name is not modelled.
func (c *Class) FindAttr(attrs []Attribute, name string) (AttrValue, error) {
	a := c.Attr(attrs, name)
	if a == nil {
		return nil, nil
	}
	return DecodeAttr(c, a)
}

// SourceFile returns the class's source file name, "" if it has none (or a
// malformed SourceFile attribute).
func (c *Class) SourceFile() string {
	if v, _ := c.FindAttr(c.Attributes, "SourceFile"); v != nil {
		return c.Pool.Utf8(v.(*SourceFile).Index)
	}
	return ""
}

// Signature returns the generic signature in attrs (those of c, a member or
// a record component), "" if there is none.
func (c *Class) Signature(attrs []Attribute) string {
	if v, _ := c.FindAttr(attrs, "Signature"); v != nil {
		return c.Pool.Utf8(v.(*Signature).Index)
	}
	return ""
}

// BootstrapMethods returns the class's bootstrap methods (nil if none).
func (c *Class) BootstrapMethods() ([]BootstrapMethod, error) {
	v, err := c.FindAttr(c.Attributes, "BootstrapMethods")
	if v == nil {
		return nil, err
	}
	return v.(*BootstrapMethods).Methods, nil
}

// InnerClasses returns the class's InnerClasses entries (nil if none).
func (c *Class) InnerClasses() ([]InnerClass, error) {
	v, err := c.FindAttr(c.Attributes, "InnerClasses")
	if v == nil {
		return nil, err
	}
	return v.(*InnerClasses).Classes, nil
}

// Exceptions returns the internal names of the exceptions method m
// declares (its throws clause).
func (c *Class) Exceptions(m *Member) ([]string, error) {
	v, err := c.FindAttr(m.Attributes, "Exceptions")
	if v == nil {
		return nil, err
	}
	idx := v.(*Exceptions).Classes
	names := make([]string, len(idx))
	for i, x := range idx {
		names[i] = c.Pool.ClassName(x)
	}
	return names, nil
}

// HasAnnotation reports whether attrs (those of c, a member or a record
// component) hold a RuntimeVisibleAnnotations or RuntimeInvisibleAnnotations
// attribute with an annotation of type desc, a field descriptor such as
// "Ljdk/internal/vm/annotation/IntrinsicCandidate;".
func (c *Class) HasAnnotation(attrs []Attribute, desc string) (bool, error) {
	for i := range attrs {
		switch c.Pool.Utf8(attrs[i].Name) {
		case "RuntimeVisibleAnnotations", "RuntimeInvisibleAnnotations":
			v, err := DecodeAttr(c, &attrs[i])
			if err != nil {
				return false, err
			}
			for _, an := range v.(*Annotations).Annotations {
				if c.Pool.Utf8(an.Type) == desc {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// Decoders. Each reads from a reader over the attribute's info; counts are
// checked against the remaining bytes (reader.count) before allocating.

// maxElementDepth bounds the nesting of element values and annotations, so
// crafted input cannot exhaust the stack; javac output nests a few levels.
const maxElementDepth = 256

// u2s reads a u2 count and that many u2 values.
func (r *reader) u2s() []uint16 {
	n := r.count(2)
	if n == 0 {
		return nil
	}
	v := make([]uint16, n)
	for i := range v {
		v[i] = r.u2()
	}
	return v
}

func decodeInnerClasses(r *reader) AttrValue {
	n := r.count(8)
	a := &InnerClasses{Classes: make([]InnerClass, n)}
	for i := range a.Classes {
		a.Classes[i] = InnerClass{r.u2(), r.u2(), r.u2(), r.u2()}
	}
	return a
}

func decodeLineNumberTable(r *reader) AttrValue {
	n := r.count(4)
	a := &LineNumberTable{Lines: make([]LineNumberEntry, n)}
	for i := range a.Lines {
		a.Lines[i] = LineNumberEntry{r.u2(), r.u2()}
	}
	return a
}

func decodeLocalVariableTable(r *reader, types bool) AttrValue {
	n := r.count(10)
	a := &LocalVariableTable{Types: types, Vars: make([]LocalVariableEntry, n)}
	for i := range a.Vars {
		a.Vars[i] = LocalVariableEntry{r.u2(), r.u2(), r.u2(), r.u2(), r.u2()}
	}
	return a
}

func (r *reader) annotations(depth int) []Annotation {
	n := r.count(4)
	if n == 0 {
		return nil
	}
	as := make([]Annotation, n)
	for i := range as {
		as[i] = r.annotation(depth)
		if r.err != nil {
			return nil
		}
	}
	return as
}

func (r *reader) annotation(depth int) Annotation {
	a := Annotation{Type: r.u2()}
	if n := r.count(3); n > 0 {
		a.Elements = make([]ElementPair, n)
		for i := range a.Elements {
			a.Elements[i].Name = r.u2()
			a.Elements[i].Value = r.elementValue(depth)
			if r.err != nil {
				break
			}
		}
	}
	return a
}

func (r *reader) elementValue(depth int) ElementValue {
	if depth > maxElementDepth {
		r.fail("element values nested deeper than %d", maxElementDepth)
		return ElementValue{}
	}
	at := r.off
	v := ElementValue{Tag: r.u1()}
	switch v.Tag {
	case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z', 's', 'c':
		v.Index = r.u2()
	case 'e':
		v.Index = r.u2()
		v.EnumConst = r.u2()
	case '@':
		an := r.annotation(depth + 1)
		v.Annotation = &an
	case '[':
		if n := r.count(3); n > 0 {
			v.Values = make([]ElementValue, n)
			for i := range v.Values {
				v.Values[i] = r.elementValue(depth + 1)
				if r.err != nil {
					break
				}
			}
		}
	default:
		if r.err == nil {
			r.off = at
			r.fail("unknown element_value tag %q", v.Tag)
		}
	}
	return v
}

// paramAnnotations reads the body of a parameter-annotations attribute,
// whose parameter count is a u1.
func (r *reader) paramAnnotations() [][]Annotation {
	n := int(r.u1())
	if r.err == nil && n*2 > len(r.b)-r.off {
		r.off--
		r.fail("parameter count %d exceeds the remaining %d bytes", n, len(r.b)-r.off-1)
	}
	if r.err != nil || n == 0 {
		return nil
	}
	ps := make([][]Annotation, n)
	for i := range ps {
		ps[i] = r.annotations(0)
	}
	return ps
}

func (r *reader) typeAnnotations() []TypeAnnotation {
	n := r.count(6)
	if n == 0 {
		return nil
	}
	as := make([]TypeAnnotation, n)
	for i := range as {
		as[i] = r.typeAnnotation()
		if r.err != nil {
			return nil
		}
	}
	return as
}

func (r *reader) typeAnnotation() TypeAnnotation {
	at := r.off
	ta := TypeAnnotation{TargetType: r.u1()}
	t := &ta.Target
	switch ta.TargetType {
	case 0x00, 0x01, 0x16:
		t.Index = uint16(r.u1())
	case 0x10, 0x17, 0x42, 0x43, 0x44, 0x45, 0x46:
		t.Index = r.u2()
	case 0x11, 0x12:
		t.Index = uint16(r.u1())
		t.Arg = r.u1()
	case 0x13, 0x14, 0x15:
	case 0x40, 0x41:
		if n := r.count(6); n > 0 {
			t.Ranges = make([]LocalVarTarget, n)
			for i := range t.Ranges {
				t.Ranges[i] = LocalVarTarget{r.u2(), r.u2(), r.u2()}
			}
		}
	case 0x47, 0x48, 0x49, 0x4A, 0x4B:
		t.Index = r.u2()
		t.Arg = r.u1()
	default:
		if r.err == nil {
			r.off = at
			r.fail("unknown type annotation target_type 0x%02x", ta.TargetType)
		}
		return ta
	}
	n := int(r.u1())
	if r.err == nil && n*2 > len(r.b)-r.off {
		r.off--
		r.fail("type_path length %d exceeds the remaining %d bytes", n, len(r.b)-r.off-1)
		return ta
	}
	if n > 0 {
		ta.Path = make([]TypePathEntry, n)
		for i := range ta.Path {
			ta.Path[i] = TypePathEntry{r.u1(), r.u1()}
		}
	}
	ta.Annotation = r.annotation(0)
	return ta
}

func decodeBootstrapMethods(r *reader) AttrValue {
	n := r.count(4)
	a := &BootstrapMethods{Methods: make([]BootstrapMethod, n)}
	for i := range a.Methods {
		a.Methods[i] = BootstrapMethod{Ref: r.u2(), Args: r.u2s()}
	}
	return a
}

func decodeMethodParameters(r *reader) AttrValue {
	n := int(r.u1())
	if r.err == nil && n*4 > len(r.b)-r.off {
		r.off--
		r.fail("parameter count %d exceeds the remaining %d bytes", n, len(r.b)-r.off-1)
		return nil
	}
	a := &MethodParameters{Params: make([]MethodParameter, n)}
	for i := range a.Params {
		a.Params[i] = MethodParameter{r.u2(), r.u2()}
	}
	return a
}

func decodeModule(r *reader) AttrValue {
	m := &Module{Name: r.u2(), Flags: r.u2(), Version: r.u2()}
	if n := r.count(6); n > 0 {
		m.Requires = make([]ModuleRequire, n)
		for i := range m.Requires {
			m.Requires[i] = ModuleRequire{r.u2(), r.u2(), r.u2()}
		}
	}
	m.Exports = r.moduleExports()
	m.Opens = r.moduleExports()
	m.Uses = r.u2s()
	if n := r.count(4); n > 0 {
		m.Provides = make([]ModuleProvide, n)
		for i := range m.Provides {
			m.Provides[i] = ModuleProvide{Service: r.u2(), With: r.u2s()}
		}
	}
	return m
}

func (r *reader) moduleExports() []ModuleExport {
	n := r.count(6)
	if n == 0 {
		return nil
	}
	es := make([]ModuleExport, n)
	for i := range es {
		es[i] = ModuleExport{Package: r.u2(), Flags: r.u2(), To: r.u2s()}
	}
	return es
}

func decodeRecord(r *reader) AttrValue {
	n := r.count(6)
	a := &Record{Components: make([]RecordComponent, n)}
	for i := range a.Components {
		a.Components[i] = RecordComponent{Name: r.u2(), Desc: r.u2(), Attributes: r.attributes()}
	}
	return a
}

// attrWriter appends big-endian values and records the first count overflow.
type attrWriter struct {
	b   []byte
	err error
}

func (w *attrWriter) u1(v uint8)  { w.b = append(w.b, v) }
func (w *attrWriter) u2(v uint16) { w.b = be16(w.b, v) }

// count writes a table length n as a u2 (or, if small, a u1).
func (w *attrWriter) count(n int, small bool) {
	max := 0xFFFF
	if small {
		max = 0xFF
	}
	if n > max && w.err == nil {
		w.err = fmt.Errorf("table of %d entries exceeds the limit of %d", n, max)
	}
	if small {
		w.u1(uint8(n))
	} else {
		w.u2(uint16(n))
	}
}

func (w *attrWriter) u2s(v []uint16) {
	w.count(len(v), false)
	for _, x := range v {
		w.u2(x)
	}
}

func (a *ConstantValue) encode(w *attrWriter)   { w.u2(a.Index) }
func (a *Exceptions) encode(w *attrWriter)      { w.u2s(a.Classes) }
func (a *EnclosingMethod) encode(w *attrWriter) { w.u2(a.Class); w.u2(a.Method) }
func (a *Synthetic) encode(w *attrWriter)       {}
func (a *Signature) encode(w *attrWriter)       { w.u2(a.Index) }
func (a *SourceFile) encode(w *attrWriter)      { w.u2(a.Index) }
func (a *Deprecated) encode(w *attrWriter)      {}
func (a *ModulePackages) encode(w *attrWriter)  { w.u2s(a.Packages) }
func (a *ModuleMainClass) encode(w *attrWriter) { w.u2(a.Class) }
func (a *NestHost) encode(w *attrWriter)        { w.u2(a.Class) }
func (a *NestMembers) encode(w *attrWriter)     { w.u2s(a.Classes) }

func (a *PermittedSubclasses) encode(w *attrWriter) { w.u2s(a.Classes) }

func (a *SourceDebugExtension) encode(w *attrWriter) { w.b = append(w.b, a.Data...) }

func (a *InnerClasses) encode(w *attrWriter) {
	w.count(len(a.Classes), false)
	for _, c := range a.Classes {
		w.u2(c.Inner)
		w.u2(c.Outer)
		w.u2(c.Name)
		w.u2(c.Access)
	}
}

func (a *LineNumberTable) encode(w *attrWriter) {
	w.count(len(a.Lines), false)
	for _, l := range a.Lines {
		w.u2(l.StartPC)
		w.u2(l.Line)
	}
}

func (a *LocalVariableTable) encode(w *attrWriter) {
	w.count(len(a.Vars), false)
	for _, v := range a.Vars {
		w.u2(v.StartPC)
		w.u2(v.Length)
		w.u2(v.Name)
		w.u2(v.Desc)
		w.u2(v.Slot)
	}
}

func (a *Annotations) encode(w *attrWriter) { w.annotations(a.Annotations) }

func (a *ParameterAnnotations) encode(w *attrWriter) {
	w.count(len(a.Params), true)
	for _, p := range a.Params {
		w.annotations(p)
	}
}

func (a *TypeAnnotations) encode(w *attrWriter) {
	w.count(len(a.Annotations), false)
	for i := range a.Annotations {
		w.typeAnnotation(&a.Annotations[i])
	}
}

func (a *AnnotationDefault) encode(w *attrWriter) { w.elementValue(&a.Value) }

func (w *attrWriter) annotations(as []Annotation) {
	w.count(len(as), false)
	for i := range as {
		w.annotation(&as[i])
	}
}

func (w *attrWriter) annotation(a *Annotation) {
	w.u2(a.Type)
	w.count(len(a.Elements), false)
	for i := range a.Elements {
		w.u2(a.Elements[i].Name)
		w.elementValue(&a.Elements[i].Value)
	}
}

func (w *attrWriter) elementValue(v *ElementValue) {
	w.u1(v.Tag)
	switch v.Tag {
	case 'e':
		w.u2(v.Index)
		w.u2(v.EnumConst)
	case '@':
		if v.Annotation == nil {
			if w.err == nil {
				w.err = errors.New("element value '@' without an annotation")
			}
			return
		}
		w.annotation(v.Annotation)
	case '[':
		w.count(len(v.Values), false)
		for i := range v.Values {
			w.elementValue(&v.Values[i])
		}
	default:
		w.u2(v.Index)
	}
}

func (w *attrWriter) typeAnnotation(ta *TypeAnnotation) {
	w.u1(ta.TargetType)
	t := &ta.Target
	switch ta.TargetType {
	case 0x00, 0x01, 0x16:
		w.u1(uint8(t.Index))
	case 0x11, 0x12:
		w.u1(uint8(t.Index))
		w.u1(t.Arg)
	case 0x13, 0x14, 0x15:
	case 0x40, 0x41:
		w.count(len(t.Ranges), false)
		for _, r := range t.Ranges {
			w.u2(r.StartPC)
			w.u2(r.Length)
			w.u2(r.Slot)
		}
	case 0x47, 0x48, 0x49, 0x4A, 0x4B:
		w.u2(t.Index)
		w.u1(t.Arg)
	default: // 0x10, 0x17, 0x42, 0x43-0x46
		w.u2(t.Index)
	}
	w.count(len(ta.Path), true)
	for _, p := range ta.Path {
		w.u1(p.Kind)
		w.u1(p.ArgIndex)
	}
	w.annotation(&ta.Annotation)
}

func (a *BootstrapMethods) encode(w *attrWriter) {
	w.count(len(a.Methods), false)
	for _, m := range a.Methods {
		w.u2(m.Ref)
		w.u2s(m.Args)
	}
}

func (a *MethodParameters) encode(w *attrWriter) {
	w.count(len(a.Params), true)
	for _, p := range a.Params {
		w.u2(p.Name)
		w.u2(p.Access)
	}
}

func (a *Module) encode(w *attrWriter) {
	w.u2(a.Name)
	w.u2(a.Flags)
	w.u2(a.Version)
	w.count(len(a.Requires), false)
	for _, r := range a.Requires {
		w.u2(r.Module)
		w.u2(r.Flags)
		w.u2(r.Version)
	}
	w.moduleExports(a.Exports)
	w.moduleExports(a.Opens)
	w.u2s(a.Uses)
	w.count(len(a.Provides), false)
	for _, p := range a.Provides {
		w.u2(p.Service)
		w.u2s(p.With)
	}
}

func (w *attrWriter) moduleExports(es []ModuleExport) {
	w.count(len(es), false)
	for _, e := range es {
		w.u2(e.Package)
		w.u2(e.Flags)
		w.u2s(e.To)
	}
}

func (a *Record) encode(w *attrWriter) {
	w.count(len(a.Components), false)
	for _, c := range a.Components {
		w.u2(c.Name)
		w.u2(c.Desc)
		w.count(len(c.Attributes), false)
		for _, at := range c.Attributes {
			if uint64(len(at.Info)) > 0xFFFFFFFF && w.err == nil {
				w.err = fmt.Errorf("record component attribute of %d bytes", len(at.Info))
			}
			w.u2(at.Name)
			w.b = be32(w.b, uint32(len(at.Info)))
			w.b = append(w.b, at.Info...)
		}
	}
}
