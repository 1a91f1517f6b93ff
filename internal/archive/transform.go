package archive

// A Transform changes the class entries of an input, in three steps per
// class: Begin, on many goroutines at once and in no order; Number, one
// class at a time in input order; Finish, on many goroutines again. A
// transform whose output depends on the order of the classes (the weaver
// numbers join points in Number) is reproducible whatever the scheduling.
type Transform interface {
	// Begin starts on a class entry whose bytes are data (owned by the
	// transform from then on).
	Begin(e *Entry, data []byte) Pending
}

// Pending is a class entry a Transform has begun.
type Pending interface {
	// Number is called in input order, one class at a time.
	Number()
	// Finish is called once, after Number, on any goroutine. It returns
	// the class's new form, or nil to copy the entry unchanged.
	Finish() *Output
}

// Output is a changed class entry.
type Output struct {
	Class []byte // the new class file
	// Extra holds classes to add next to it (e.g. the weaver's sister
	// class), by internal name; they are written after it, in name order.
	Extra map[string][]byte
}

// Func is a Transform that does all its work in Begin: f returns the
// entry's new form, or nil to copy it unchanged.
type Func func(e *Entry, data []byte) *Output

// Begin implements Transform.
func (f Func) Begin(e *Entry, data []byte) Pending { return done{f(e, data)} }

// done is a Pending whose output is known.
type done struct{ out *Output }

func (d done) Number()         {}
func (d done) Finish() *Output { return d.out }
