package classfile

// Label marks a position in a Code's instruction list. It is placed by an
// Insn with Op == OpLabel; branches, switches, exception handlers, line
// numbers, local variables and type-annotation ranges refer to labels, never
// to offsets, so inserting or removing instructions needs no arithmetic.
type Label struct {
	// Offset is the bytecode offset of the label after DecodeCode or after
	// the last Encode; -1 for a label not yet encoded.
	Offset int
	gen    uint64 // stamp of the layout that placed it (code_encode.go)
}

// NewLabel returns a fresh, unplaced label.
func NewLabel() *Label { return &Label{Offset: -1} }

// OpLabel is the pseudo-opcode of an Insn that places Insn.Label.
const OpLabel = 0x100

// Insn is one instruction, or a label placement (Op == OpLabel).
//
// The decoder normalizes forms that differ only in encoding, as ASM does:
// xload_n/xstore_n become xload/xstore with Index n, wide prefixes are
// folded, ldc_w becomes ldc (ldc2_w stays distinct), goto_w becomes goto and
// jsr_w becomes jsr. It records the form an instruction was written in
// where that was not the shortest (see Form), so that code decoded and
// encoded again unchanged keeps its bytes. The encoder writes a recorded
// form where it still holds the operands and the shortest valid form
// otherwise, and rewrites conditional branches that no longer fit in 16
// bits.
//
// Fields by opcode:
//
//	OpLabel                      Label
//	ifXX                         Label (target)
//	goto, jsr                    Label (target), Const (form)
//	tableswitch, lookupswitch    Switch
//	ldc                          Index (constant-pool entry), Const (form)
//	ldc2_w                       Index (constant-pool entry)
//	get/putfield, get/putstatic,
//	invoke*, new, anewarray,
//	checkcast, instanceof        Index (constant-pool entry)
//	multianewarray               Index (class), Const (dimensions)
//	xload, xstore, ret           Index (local slot), Const (form)
//	iinc                         Index (local slot), Const (increment, and form)
//	bipush, sipush               Const (value)
//	newarray                     Const (atype: 4 boolean … 11 long)
//
// The form is held in Const's bits above the low 16 (Insn.Form), which the
// instructions that have forms leave unused: iinc's increment is at most a
// signed 16-bit value, read as int16(Const); the others have no Const
// operand. An instruction built with Const 0 (or iinc's increment) has the
// shortest form.
type Insn struct {
	Op     uint16
	Index  uint16
	Const  int32
	Label  *Label
	Switch *Switch
}

// Switch is the operand of tableswitch (Low..High, Targets[i] for Low+i)
// and lookupswitch (Keys[i] → Targets[i], keys ascending).
type Switch struct {
	Default *Label
	Low     int32
	High    int32
	Keys    []int32
	Targets []*Label

	// pad is the decoded switch's padding if it was not all zeros (the
	// JVM ignores it from class version 51 on, and some writers leave
	// bytes there); it is written again while the padding has its length.
	pad []byte
}

// Handler is one exception-table entry: [Start, End) is protected, control
// goes to Handler; CatchType is a Class entry, or 0 for any throwable.
type Handler struct {
	Start, End, Handler *Label
	CatchType           uint16
}

// LineNumber maps the instructions from Start on to a source line.
type LineNumber struct {
	Start *Label
	Line  uint16
}

// LocalVar is a LocalVariableTable or LocalVariableTypeTable entry: the
// variable in Slot is live in [Start, End). Desc is the descriptor (or, in a
// type table, the signature) Utf8 entry.
type LocalVar struct {
	Start, End *Label
	Name, Desc uint16
	Slot       uint16
}

// Code is a decoded Code attribute.
//
// Attributes holds the Code attribute's own attributes other than those the
// model owns (LineNumberTable, LocalVariableTable, LocalVariableTypeTable,
// StackMapTable, and the two type-annotation attributes, whose code offsets
// are held as labels in TypeAnnotations), kept raw. A table the decoded
// attribute had is encoded again even when it is left empty.
type Code struct {
	MaxStack, MaxLocals uint16
	Insns               []Insn
	Handlers            []Handler
	Lines               []LineNumber
	Locals              []LocalVar
	LocalTypes          []LocalVar
	TypeAnnotations     []CodeTypeAnnotations
	Frames              []Frame // the decoded StackMapTable
	Attributes          []Attribute

	gen   uint64      // stamp of the last layout
	attrs codeAttrSet // which attributes the decoded Code had, in order
}

// codeAttrKind is a kind of attribute of a Code attribute.
type codeAttrKind uint8

const (
	attrLines codeAttrKind = iota
	attrLocals
	attrLocalTypes
	attrStackMap
	attrTypeAnnotations // one of Code.TypeAnnotations
	attrOther           // one of Code.Attributes
	nTables             = attrStackMap + 1
)

// codeAttrSet remembers which attributes a decoded Code had, in their
// order, and the Utf8 indices of the names of its tables. Encoding writes
// them back in that order, each table even when it has no entries (javac
// emits empty LocalVariableTables), so that decoding and encoding is
// lossless; tables and attributes added since follow them.
type codeAttrSet struct {
	order []codeAttrKind
	names [nTables]uint16 // by kind; 0: the decoded Code had no such table
}

// add records an attribute of the kind, named by the Utf8 entry name.
func (s *codeAttrSet) add(kind codeAttrKind, name uint16) {
	s.order = append(s.order, kind)
	if kind < nTables && s.names[kind] == 0 {
		s.names[kind] = name
	}
}

// CodeTypeAnnotations is a RuntimeVisibleTypeAnnotations or
// RuntimeInvisibleTypeAnnotations attribute of a Code attribute.
type CodeTypeAnnotations struct {
	Name        uint16 // Utf8 entry: which of the two attributes
	Annotations []CodeTypeAnnotation
}

// CodeTypeAnnotation is one type_annotation whose target may hold code
// offsets. Offset-bearing targets are decoded into labels; the rest of the
// structure (target_path, type_index, element-value pairs) is kept raw.
type CodeTypeAnnotation struct {
	TargetType uint8
	// Target is the raw target_info for targets without code offsets.
	Target []byte
	// Ranges is the localvar_target table (target types 0x40, 0x41).
	Ranges []LocalVarRange
	// At is the offset label of offset_target and type_argument_target
	// (0x43-0x4B); TypeArg is the type_argument_index of the latter.
	At      *Label
	TypeArg uint8
	// Rest is target_path followed by the annotation structure, raw.
	Rest []byte
}

// DecodeRest decodes Rest, which the code model keeps raw: the
// type_path and the annotation (§4.7.20). On a malformed Rest it returns
// what it decoded before the error, which is a *FormatError.
func (a *CodeTypeAnnotation) DecodeRest() ([]TypePathEntry, Annotation, error) {
	r := &reader{b: a.Rest}
	var path []TypePathEntry
	for i, n := 0, int(r.u1()); i < n && r.err == nil; i++ {
		path = append(path, TypePathEntry{r.u1(), r.u1()})
	}
	an := r.annotation(0)
	return path, an, r.err
}

// LocalVarRange is one entry of a localvar_target.
type LocalVarRange struct {
	Start, End *Label
	Slot       uint16
}

// Verification type kinds (JVMS §4.10.1.2), numbered as StackMapTable tags.
const (
	VTop               = 0
	VInteger           = 1
	VFloat             = 2
	VDouble            = 3
	VLong              = 4
	VNull              = 5
	VUninitializedThis = 6
	VObject            = 7
	VUninitialized     = 8
)

// VType is a verification type.
type VType struct {
	Kind uint8
	// index is the Class entry a decoded VObject named: a pool may hold
	// several for one name, and the type is written with its own while
	// that entry still names Class.
	index uint16
	// Class is the internal name (or array descriptor) of a VObject.
	Class string
	// New labels the `new` instruction that created a VUninitialized value:
	// the label is placed immediately before that instruction.
	New *Label
}

// Frame is one StackMapTable entry, expanded: the full state at At.
// As in the class file, a long or double takes one entry in Locals and
// Stack (its second slot is implied), so len(Locals) may be less than the
// number of slots.
type Frame struct {
	At     *Label
	Locals []VType
	Stack  []VType

	form frameForm // the decoded frame's encoding, kept where still valid
}

// frameForm is the encoding a StackMapTable entry had. Writers differ in
// how far they compress frames (ecj writes full frames where a chop frame
// would do); the encoder writes a decoded frame in its own form again when
// that form still fits the frame, and the shortest form otherwise.
type frameForm uint8

const (
	formShortest      frameForm = iota // not decoded: the shortest form
	formSameExtended                   // same_frame_extended
	formSame1Extended                  // same_locals_1_stack_item_frame_extended
	formFull                           // full_frame
)

// EncodeOptions control Code.Encode.
type EncodeOptions struct {
	// Frames recomputes MaxStack, MaxLocals and, for class files of version
	// 50 and later, the StackMapTable by data-flow analysis (see frames.go).
	// Without it the Code's own MaxStack, MaxLocals and Frames are written.
	Frames bool
	// Hierarchy resolves the common superclass of reference types when
	// frames are merged. Required with Frames. Where it does not know a
	// class a merge needs, Encode fails with an *UnknownTypeError rather
	// than guess (a local the code never reads again is Top instead).
	Hierarchy Hierarchy
	// KeepFrames, with Frames, keeps the Code's Frames as they were
	// decoded: each stays the state at its label for the locals below
	// KeptLocals and the stack, and only the rest is computed (frames at
	// labels with none, locals from KeptLocals on). It is for code
	// inserted into a decoded method that leaves the method's own locals
	// and stack as they were wherever a frame of it stands, as the weaver
	// does with locals past the body's max_locals: then the merges of the
	// program's own types, which need its class hierarchy, were the
	// compiler's, as in ASM's COMPUTE_INSERTED_FRAMES.
	KeepFrames bool
	KeptLocals int
}
