package weaver

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/parallel"
)

// Declared is a declare warning or declare error reported at a shadow.
type Declared struct {
	Declare *advice.Declare
	Kind    advice.ShadowKind
	Member  advice.Member
	Within  string // internal name of the class holding the shadow
	Source  string // the class's source file, under its package: "p/A.java" (its class file, "p/A.class", without a SourceFile attribute)
	Line    int    // source line, 0 if the method has no line table
}

// String formats the message as ajc does, on weft's terms:
//
//	p/A.java:10: warning: do not call n
//		method-call(void p.A.n())
//		see also: rules.weft:4:5
func (d *Declared) String() string {
	loc := d.Source
	if d.Line > 0 {
		loc += fmt.Sprintf(":%d", d.Line)
	}
	level := "warning"
	if d.Declare.Error {
		level = "error"
	}
	kind := d.Kind.String()
	if d.Kind == advice.ArrayConstruction {
		kind = "constructor-call"
	}
	return fmt.Sprintf("%s: %s: %s\n\t%s(%s)\n\tsee also: %s:%d:%d", loc, level, d.Declare.Message,
		kind, Signature(d.Kind, d.Member), d.Declare.File, d.Declare.Line, d.Declare.Column)
}

// shadowKinds returns the kinds of shadows the class weaver looks for:
// those advice or declarations can match (declarations only, to check).
func (cw *classWeaver) shadowKinds() advice.KindSet {
	if cw.checkOnly {
		return cw.w.declKinds
	}
	return cw.w.adviceKinds | cw.w.declKinds
}

// declare adds the declarations that apply at shadow s.
func (cw *classWeaver) declare(s *shadow) {
	ds := cw.w.checker.Declared(&s.Shadow, cw.w.opts.Hierarchy)
	if len(ds) == 0 {
		return
	}
	src := cw.file
	if src == "" {
		src = path.Base(cw.name) + ".class"
	}
	if i := strings.LastIndexByte(cw.name, '/'); i >= 0 {
		src = cw.name[:i+1] + src
	}
	for _, d := range ds {
		cw.declared = append(cw.declared, Declared{Declare: d, Kind: s.Kind, Member: s.Member, Within: cw.name,
			Source: src, Line: s.line})
	}
}

// Check returns the declare warnings and errors at the shadows of one
// class file, without weaving it: the classes WeaveClass would weave, the
// shadows it would find. name labels errors.
func (w *Weaver) Check(name string, data []byte) (out []Declared, err error) {
	if w.checker == nil {
		return nil, nil
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%s: checking failed: %v", name, r)
		}
	}()
	c, err := classfile.Parse(name, data)
	if err != nil {
		return nil, err
	}
	cname := c.Name()
	if c.Access&classfile.AccModule != 0 || w.own(cname) ||
		strings.HasSuffix(cname, SisterSuffix) || w.skip[cname] || alreadyWoven(c) {
		return nil, nil
	}
	cw := &classWeaver{w: w, c: c, name: cname, file: sourceFile(c), checkOnly: true}
	if _, err := w.addStaticInit(c); err != nil { // as weave does: c is a copy
		return nil, fmt.Errorf("%s: adding <clinit>: %v", name, err)
	}
	for _, m := range c.Methods {
		if w.opts.Exclude != nil && w.opts.Exclude(cname, c.MemberName(m), c.MemberDesc(m)) {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil || code == nil || m.Access&classfile.AccBridge != 0 || cw.anyAdvice() && hasSubroutines(code) {
			continue // as weaveMethod: no join points, or left unwoven
		}
		cw.findShadows(m, code, firstLine(code))
	}
	return cw.declared, nil
}

// CheckPath returns the declare warnings and errors at the shadows of the
// classes of a jar, directory or class file, in input order, without
// weaving them: a driver runs it first when a declare error must leave
// nothing written. Classes that cannot be parsed are skipped (weaving
// copies them unchanged).
func (w *Weaver) CheckPath(in string) ([]Declared, error) {
	if w.checker == nil {
		return nil, nil
	}
	src, err := archive.Open(in)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	found := make([][]Declared, len(src.Entries))
	err = parallel.Each(len(src.Entries), 0, func(i int) error {
		e := src.Entries[i]
		if !e.IsClass() {
			return nil
		}
		data, err := e.Read()
		if err != nil {
			return nil
		}
		found[i], _ = w.Check(filepath.ToSlash(e.Name), data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Declared
	for _, ds := range found {
		out = append(out, ds...)
	}
	return out, nil
}

// hasSubroutines reports whether code uses jsr/ret, which weaveMethod does
// not weave.
func hasSubroutines(code *classfile.Code) bool {
	for _, in := range code.Insns {
		if in.Op == classfile.OpJsr || in.Op == classfile.OpRet {
			return true
		}
	}
	return false
}
