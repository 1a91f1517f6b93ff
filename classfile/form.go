package classfile

// Form is the encoding of an instruction that has more than one: xload,
// xstore and ret (short xload_n, operand byte, wide), iinc (short, wide),
// ldc (ldc, ldc_w), goto and jsr (16-bit, 32-bit offset).
//
// The decoder records the form of such an instruction when it is not the
// shortest that holds the operands (Groovy's compiler writes aload 0 with
// an operand byte, for one), and the encoder writes a recorded form again
// where it still holds them: code decoded and encoded unchanged keeps its
// bytes. A form never makes the encoder write less than the operands need
// (an index that grew past 255 is written wide whatever the form), so a
// recorded form stays valid whatever is done to the instruction.
type Form uint8

const (
	// FormShortest lets the encoder choose the shortest form that holds
	// the operands (and, for goto and jsr, the offset): what instructions
	// built by hand have.
	FormShortest Form = iota
	// FormOperandByte is xload or xstore of slot 0 to 3 written with an
	// operand byte (aload 0) instead of as xload_n (aload_0).
	FormOperandByte
	// FormWide is the longest form: the wide prefix (xload, xstore, ret,
	// iinc), ldc_w, goto_w, jsr_w. The decoder records it for every goto_w
	// and jsr_w: whether a 16-bit offset would do depends on the layout.
	FormWide
)

// formShift is where Const holds the form: above the low 16 bits, which
// hold iinc's increment and are zero for the other instructions with
// forms.
const formShift = 16

// hasForms reports whether instructions of opcode op have forms (and hold
// one in Const).
func hasForms(op uint16) bool {
	return op >= OpIload && op <= OpAload || op >= OpIstore && op <= OpAstore ||
		op == OpRet || op == OpIinc || op == OpLdc || op == OpGoto || op == OpJsr
}

// Form returns the form recorded for in (FormShortest for instructions
// without forms).
func (in *Insn) Form() Form {
	if !hasForms(in.Op) {
		return FormShortest
	}
	return in.form()
}

// form is Form for an instruction known to have forms.
func (in *Insn) form() Form {
	return Form((in.Const - int32(int16(in.Const))) >> formShift)
}

// SetForm records the form in is to be written in; it does nothing to
// instructions without forms. iinc's increment is kept.
func (in *Insn) SetForm(f Form) {
	if hasForms(in.Op) {
		in.Const = int32(int16(in.Const)) + int32(f)<<formShift
	}
}

// increment returns the increment of an iinc.
func (in *Insn) increment() int32 { return int32(int16(in.Const)) }
