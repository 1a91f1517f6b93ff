package weaver

import (
	"fmt"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/archive"
)

// Stats sums up weaving a jar, directory or class file.
type Stats struct {
	Classes      int // class files seen
	Woven        int // class files changed
	MethodsWoven int
	Copied       int         // other entries copied unchanged
	Shadows      []WeaveInfo // empty with Options.OmitShadows
	Advised      int         // the number of Shadows, even when omitted
	// Applied lists the advice that advised some shadow, each once, in the
	// order of Shadows.
	Applied  []*advice.Advice
	Warnings []string // unwoven classes and methods, with the reason
	// Declared lists the declare warnings and errors at the classes'
	// shadows, in input order.
	Declared []Declared
}

// WeavePath weaves the jar, directory or class file in into out (a jar
// or directory of the same kind; for a class file, out or a class file in
// the directory out), on all cores. Everything that is not a class, and
// every class that is unchanged or cannot be woven, is copied unchanged;
// sister classes are added next to the classes they serve. Nothing is
// dropped. Classes are woven in parallel and their join points numbered
// in input order, so the output does not depend on scheduling; the
// archive package writes it (see there: a jar is written while later
// classes are still woven, changed entries stored by their weaver).
func (w *Weaver) WeavePath(in, out string) (*Stats, error) {
	src, err := archive.Open(in)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	pw := &pathWeaving{w: w, classes: make([]*pendingClass, len(src.Entries))}
	// Woven classes are stored, not deflated: see archive.Options.Store.
	rep, err := archive.Run(src, out, pw, archive.Options{Store: true})
	if err != nil {
		return nil, err
	}
	return pw.stats(rep), nil
}

// pathWeaving is the archive.Transform of WeavePath.
type pathWeaving struct {
	w       *Weaver
	classes []*pendingClass // by entry index; nil for entries not woven
}

// pendingClass is a class between Prepare and FinishAt.
type pendingClass struct {
	w     *Weaver
	name  string
	prep  *Prepared
	base  int32
	res   *Result // its statistics once finished (the class bytes dropped)
	woven bool
	err   error // copied unwoven
}

// Begin implements archive.Transform.
func (pw *pathWeaving) Begin(e *archive.Entry, data []byte) archive.Pending {
	pc := &pendingClass{w: pw.w, name: e.Name}
	pw.classes[e.Index] = pc
	pc.prep, pc.err = pw.w.Prepare(e.Name, data)
	if pc.err == nil {
		pc.res = pc.prep.Result
	}
	return pc
}

// Number reserves the class's join point ids, in input order.
func (pc *pendingClass) Number() {
	if pc.prep != nil && pc.prep.IDs() > 0 {
		pc.base = pc.w.ReserveIDs(pc.prep.IDs())
	}
}

// Finish numbers the join points and builds the sister class.
func (pc *pendingClass) Finish() *archive.Output {
	if pc.prep == nil {
		return nil
	}
	err := pc.w.FinishAt(pc.prep, pc.base)
	pc.prep = nil
	if err != nil {
		pc.err, pc.res = err, nil // copied unwoven
		return nil
	}
	if pc.res.Class == nil {
		return nil
	}
	pc.woven = true
	out := &archive.Output{Class: pc.res.Class, Extra: pc.res.Extra}
	pc.res.Class, pc.res.Extra = nil, nil // the output holds them until written
	return out
}

// stats sums up the classes in input order, then the archive's report.
func (pw *pathWeaving) stats(rep *archive.Report) *Stats {
	st := &Stats{Classes: rep.Classes, Woven: rep.Changed, Copied: rep.Copied}
	for _, pc := range pw.classes {
		if pc != nil && pc.woven {
			st.Advised += pc.res.advised
		}
	}
	if !pw.w.opts.OmitShadows {
		st.Shadows = make([]WeaveInfo, 0, st.Advised)
	}
	applied := map[*advice.Advice]bool{}
	var again []string // classes already woven
	for _, pc := range pw.classes {
		if pc == nil {
			continue
		}
		if pc.err != nil {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: copied unwoven: %v", pc.name, pc.err))
			continue
		}
		if pc.res.AlreadyWoven {
			again = append(again, pc.name)
		}
		for _, warn := range pc.res.Warnings {
			st.Warnings = append(st.Warnings, pc.name+": "+warn)
		}
		st.Declared = append(st.Declared, pc.res.Declared...)
		if !pc.woven {
			continue
		}
		st.MethodsWoven += pc.res.MethodsWoven
		for _, a := range pc.res.applied {
			if !applied[a] {
				applied[a] = true
				st.Applied = append(st.Applied, a)
			}
		}
		st.Shadows = append(st.Shadows, pc.res.Shadows...) // none with OmitShadows
	}
	if len(again) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%d classes already woven by weft (%s first) copied as they are: weave the unwoven input instead",
			len(again), again[0]))
	}
	st.Warnings = append(st.Warnings, rep.Warnings...)
	return st
}
