package jdk

import (
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// This file weaves one class of the image, and keeps the JVM's intrinsics
// as they are.

// entryResult is what one class contributes.
type entryResult struct {
	class      []byte
	extra      map[string][]byte
	methods    int
	unwoven    string
	intrinsics []string
	warnings   []string
	parts      idEntry // Sister "" if none
}

// pendingEntry is an entry between beginEntry and finishEntry: either
// begun by a Sequencer (pending) or already woven (result).
type pendingEntry struct {
	entry   classpath.ClassEntry
	data    []byte
	pending Pending
	result  entryResult
}

func beginEntry(opts Options, e classpath.ClassEntry) *pendingEntry {
	p := &pendingEntry{entry: e}
	name := e.Module + "/" + e.Path
	data, err := e.Read()
	if err != nil {
		p.result.unwoven = err.Error()
		return p
	}
	if opts.Exclusions != nil && Notable(data) {
		if c, err := classfile.Parse(name, data); err == nil {
			opts.Exclusions.Note(c)
		}
	}
	p.data = data
	if seq, ok := opts.Weaver.(Sequencer); ok {
		if p.pending, err = seq.Begin(name, data); err != nil {
			p.result.unwoven = err.Error()
			p.pending = nil
		}
		return p
	}
	res, err := opts.Weaver.WeaveClass(name, data)
	p.result = wovenResult(data, res, err)
	return p
}

func finishEntry(p *pendingEntry) entryResult {
	if p.pending == nil {
		return p.result
	}
	res, err := p.pending.Finish()
	return wovenResult(p.data, res, err)
}

func wovenResult(data []byte, res *Woven, err error) (r entryResult) {
	if err != nil {
		r.unwoven = err.Error()
		return
	}
	r.class, r.extra, r.methods, r.warnings = res.Class, res.Extra, res.MethodsWoven, res.Warnings
	r.parts = idEntry{Base: res.PartsBase, Sister: res.PartsSister}
	if res.Class != nil && len(res.Methods) > 0 {
		// Methods is nil for classes without any intrinsic candidate:
		// no need to parse those again.
		r.intrinsics = intrinsics(data, res.Methods)
	}
	return
}

// IntrinsicAnnotation marks the methods HotSpot may replace by intrinsics.
const IntrinsicAnnotation = "Ljdk/internal/vm/annotation/IntrinsicCandidate;"

// intrinsics returns "class.name(desc)" for each of the woven methods
// (name+desc) of the class file data annotated @IntrinsicCandidate.
func intrinsics(data []byte, woven []string) []string {
	c, err := classfile.Parse("", data)
	if err != nil {
		return nil
	}
	set := map[string]bool{}
	for _, m := range woven {
		set[m] = true
	}
	var out []string
	for _, m := range c.Methods {
		nd := c.MemberName(m) + c.MemberDesc(m)
		if set[nd] && isIntrinsic(c, m) {
			out = append(out, c.Name()+"."+nd)
		}
	}
	return out
}

func isIntrinsic(c *classfile.Class, m *classfile.Member) bool {
	a := c.Attr(m.Attributes, "RuntimeVisibleAnnotations")
	if a == nil {
		return false
	}
	v, err := classfile.DecodeAttr(c, a)
	if err != nil {
		return false
	}
	if anns, ok := v.(*classfile.Annotations); ok {
		for _, an := range anns.Annotations {
			if c.Pool.Utf8(an.Type) == IntrinsicAnnotation {
				return true
			}
		}
	}
	return false
}
