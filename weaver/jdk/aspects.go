package jdk

import (
	"bytes"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/weaver"
)

// Aspects adapts the aspect weaver to the image driver.
type Aspects struct {
	W *weaver.Weaver
	// OnResult, if set, sees each class's result (concurrently).
	OnResult func(res *weaver.Result)
}

// WeaveClass implements ClassWeaver.
func (a Aspects) WeaveClass(name string, data []byte) (*Woven, error) {
	res, err := a.W.WeaveClass(name, data)
	if err != nil {
		return nil, err
	}
	return a.woven(data, res), nil
}

// Begin implements Sequencer: the weaving is done now, the join point
// numbering and the sister class when the driver says.
func (a Aspects) Begin(name string, data []byte) (Pending, error) {
	p, err := a.W.Prepare(name, data)
	if err != nil {
		return nil, err
	}
	return &pendingClass{a: a, p: p, data: data}, nil
}

// SharedClasses implements SharedWeaver: the entry helpers shared by the
// weaving (weaver.Options.SharedEntries), if any.
func (a Aspects) SharedClasses() (map[string][]byte, error) {
	b, err := a.W.SharedClass()
	if b == nil || err != nil {
		return nil, err
	}
	return map[string][]byte{weaver.SharedClass: b}, nil
}

type pendingClass struct {
	a    Aspects
	p    *weaver.Prepared
	data []byte
	base int32
}

func (pc *pendingClass) Number() { pc.base = pc.a.W.ReserveIDs(pc.p.IDs()) }

func (pc *pendingClass) Finish() (*Woven, error) {
	if err := pc.a.W.FinishAt(pc.p, pc.base); err != nil {
		return nil, err
	}
	return pc.a.woven(pc.data, pc.p.Result), nil
}

func (a Aspects) woven(data []byte, res *weaver.Result) *Woven {
	if a.OnResult != nil {
		a.OnResult(res)
	}
	w := &Woven{Class: res.Class, Extra: res.Extra, MethodsWoven: res.MethodsWoven, Warnings: res.Warnings,
		PartsSister: res.PartsSister, PartsBase: res.PartsBase}
	// Only the woven methods' names are needed, to report intrinsics:
	// skip the comparison for classes without any.
	if res.Class != nil && bytes.Contains(data, []byte("IntrinsicCandidate")) {
		w.Methods = changedMethods(data, res.Class)
	}
	return w
}

// changedMethods lists (name+desc) the methods whose Code differs between
// two versions of a class.
func changedMethods(before, after []byte) []string {
	b, err1 := classfile.Parse("", before)
	a, err2 := classfile.Parse("", after)
	if err1 != nil || err2 != nil {
		return nil
	}
	var out []string
	for _, m := range a.Methods {
		name, desc := a.MemberName(m), a.MemberDesc(m)
		old := b.FindMethod(name, desc)
		ca := a.Attr(m.Attributes, "Code")
		if old == nil || ca == nil {
			continue
		}
		if cb := b.Attr(old.Attributes, "Code"); cb == nil || !bytes.Equal(ca.Info, cb.Info) {
			out = append(out, name+desc)
		}
	}
	return out
}
