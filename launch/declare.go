package launch

import (
	"fmt"
	"io"
	"sort"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/parallel"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
)

// declare warning and declare error are reported by every command that
// weaves (weave, jdk, run) at the shadows they match, as ajc reports them:
// "p/A.java:12: warning: message", the join point, and the declaration.
// A declare error fails the command before anything is written: when the
// aspects have one, the inputs are checked in a pass of their own first.

// reportDeclared writes the messages and returns how many are errors.
func reportDeclared(w io.Writer, ds []weaver.Declared) int {
	n := 0
	for i := range ds {
		fmt.Fprintln(w, ds[i].String())
		if ds[i].Declare.Error {
			n++
		}
	}
	return n
}

// declaresErrors reports whether weaving with m can fail on a declare
// error (pointcut.Program knows).
func declaresErrors(m advice.Matcher) bool {
	e, ok := m.(interface{ DeclaresErrors() bool })
	return ok && e.DeclaresErrors()
}

// errDeclared is the error of a weaving that a declare error stopped.
func errDeclared(n int) error {
	s := "s"
	if n == 1 {
		s = ""
	}
	return fmt.Errorf("%d declare error%s: nothing written", n, s)
}

// precheckPaths checks the inputs for declare errors before weaving them,
// if m can report any; it reports every message and fails on an error.
// It returns whether it ran (the weaving then need not report the
// messages again).
func precheckPaths(w io.Writer, m advice.Matcher, wv *weaver.Weaver, inputs []string) (bool, error) {
	if !declaresErrors(m) {
		return false, nil
	}
	var all []weaver.Declared
	for _, in := range inputs {
		ds, err := wv.CheckPath(in)
		if err != nil {
			return true, fmt.Errorf("%s: %v", in, err)
		}
		all = append(all, ds...)
	}
	if n := reportDeclared(w, all); n > 0 {
		return true, errDeclared(n)
	}
	return true, nil
}

// checkImage returns the declare warnings and errors at the shadows of the
// classes of img, in image order, as weaving them with wv would find them
// (x learns each class first, as the image driver has it do).
func checkImage(img *classpath.ImageSource, wv *weaver.Weaver, x *jdk.Exclusions) ([]weaver.Declared, error) {
	var entries []classpath.ClassEntry
	if err := img.Walk(func(e classpath.ClassEntry) error {
		entries = append(entries, e)
		return nil
	}); err != nil {
		return nil, err
	}
	found := make([][]weaver.Declared, len(entries))
	err := parallel.Each(len(entries), 0, func(i int) error {
		e := entries[i]
		data, err := e.Read()
		if err != nil {
			return nil // woven as unwoven: no shadows
		}
		name := e.Module + "/" + e.Path
		if jdk.Notable(data) {
			if c, err := classfile.Parse(name, data); err == nil {
				x.Note(c)
			}
		}
		found[i], _ = wv.Check(name, data)
		return nil
	})
	var out []weaver.Declared
	for _, ds := range found {
		out = append(out, ds...)
	}
	return out, err
}

// sortDeclared orders messages gathered from concurrent weaving by class,
// line and message.
func sortDeclared(ds []weaver.Declared) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := &ds[i], &ds[j]
		if a.Within != b.Within {
			return a.Within < b.Within
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Declare.Message < b.Declare.Message
	})
}
