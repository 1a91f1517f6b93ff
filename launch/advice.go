package launch

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/pointcut"
)

// Woven code calls the advice methods, so weaving needs the advice
// classes: without them it would write a program that dies with
// NoClassDefFoundError. The class path they are looked up on is
// --advice-cp followed by whatever else is class path for the command
// (weave: its inputs and -cp; run: the program's class path).

// JoinClassPath joins class path parts, skipping empty ones.
func JoinClassPath(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, string(filepath.ListSeparator))
}

// loadAdvice is LoadAspects for weaving: each advice class must be on cp,
// whose entries srcs are, opened (h answers for the JDK's types), and
// with cp empty every advice is an error, as weft check reports a class
// missing from --advice-cp.
func loadAdvice(w io.Writer, paths []string, cp string, srcs []classpath.Source, h classfile.Hierarchy, home string) (*pointcut.Program, error) {
	prog, err := LoadAspects(w, paths, pointcut.Options{AdviceCP: cp, AdviceSources: srcs, Hierarchy: h, JavaHome: home})
	if err != nil || cp != "" || len(prog.Advice()) == 0 {
		return prog, err
	}
	return nil, noAdviceClassPath(prog)
}

// resolveAdvice resolves the aspect files for weaving: their advice
// classes must be on adviceCP or on one of the class path entries (the
// JDK j answers for the JDK's types). It returns besides the entries
// that hold an advice class adviceCP lacks.
func resolveAdvice(w io.Writer, j *JDK, aspects []string, adviceCP string, entries []string) (*pointcut.Program, []string, error) {
	home := j.Home
	var srcs []classpath.Source
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	first, err := classpath.OpenClassPath(adviceCP, home)
	srcs = append(srcs, first...)
	if err != nil {
		return nil, nil, err
	}
	others := make([]classpath.Source, len(entries))
	for i, e := range entries {
		if others[i], err = classpath.OpenSource(e, home); err != nil {
			return nil, nil, err
		}
		srcs = append(srcs, others[i])
	}
	lookup := slices.Clip(srcs) // the advice's class path: adviceCP, then the entries
	srcs = append(srcs, j.Source())
	prog, err := loadAdvice(w, aspects, JoinClassPath(append([]string{adviceCP}, entries...)...), lookup, classpath.NewHierarchy(srcs...), home)
	if err != nil {
		return nil, nil, err
	}
	return prog, adviceHolders(prog.Advice(), first, entries, others), nil
}

// noAdviceClassPath reports, at its call, each advice of prog as missing
// its class.
func noAdviceClassPath(prog *pointcut.Program) error {
	var errs pointcut.ErrorList
	for _, f := range prog.Files {
		lines := strings.Split(string(f.Src), "\n")
		for _, a := range f.Aspects {
			for _, ad := range a.Advice {
				call := ad.Body
				e := &pointcut.Error{
					Pos: call.Pos,
					Msg: fmt.Sprintf("advice at line %d: %s not found: there is no advice class path (--advice-cp)",
						ad.Pos.Line, strings.Join(call.Name[:len(call.Name)-1], ".")),
					Hint: "put the compiled advice class on --advice-cp",
				}
				if n := call.Pos.Line; n >= 1 && n <= len(lines) {
					e.Source = strings.TrimRight(lines[n-1], "\r")
				}
				errs = append(errs, e)
			}
		}
	}
	return errs.Err()
}

// adviceHolders returns the entries (opened as srcs) that hold, first in
// class path order, an advice class none of the sources in first holds.
func adviceHolders(advs []*advice.Advice, first []classpath.Source, entries []string, srcs []classpath.Source) []string {
	holds := func(s classpath.Source, class string) bool {
		_, err := s.Class(class)
		return err == nil
	}
	var missing []string
	for _, a := range advs {
		c := a.Method.Owner
		if !slices.Contains(missing, c) && !slices.ContainsFunc(first, func(s classpath.Source) bool { return holds(s, c) }) {
			missing = append(missing, c)
		}
	}
	var out []string
	for i, s := range srcs {
		n := len(missing)
		missing = slices.DeleteFunc(missing, func(c string) bool { return holds(s, c) })
		if len(missing) < n {
			out = append(out, entries[i])
		}
	}
	return out
}
