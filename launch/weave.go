package launch

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/archive"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver"
)

// Weave weaves o's aspects into o.Inputs (jars, class directories, class
// files), against o.ClassPath, and writes the woven copies to o.Out (with
// one input, its copy; else a directory of them under their base names)
// with weft's runtime beside them, as weft weave does. A declare error
// fails it before anything is written.
func Weave(o Options) error {
	start := time.Now()
	inputs := o.Inputs
	if len(inputs) == 0 {
		return fmt.Errorf("weave: no input")
	}
	if err := CheckWeaveInfo(o.WeaveInfo, inputs); err != nil {
		return err
	}
	// The first input's classes are read on the other core while this
	// one opens the class path and resolves the aspects; the JDK's image
	// is opened (its package index read) beside them too.
	archive.Prefetch(inputs[0])
	home, err := JavaHome(o.JavaHome)
	if err != nil {
		return err
	}
	j := OpenJDK(home)
	defer j.Close()
	go j.Image()

	// The class path: the inputs, -cp, then --advice-cp, each opened
	// once (the advice is looked up in another order), then the JDK.
	var srcs []classpath.Source
	defer func() { closeSources(srcs) }()
	var parts [3][]classpath.Source
	for i, cp := range []string{strings.Join(inputs, string(filepath.ListSeparator)), o.ClassPath, o.AdviceCP} {
		if parts[i], err = classpath.OpenClassPath(cp, home); err != nil {
			return err
		}
		srcs = append(srcs, parts[i]...)
	}
	ins, cp, adv := parts[0], parts[1], parts[2]
	var at *atAspects
	if o.AspectPath != "" {
		// The inputs and -cp resolve the aspects' type names.
		if at, err = aspectPathAspects(o.Stderr, j, o.AspectPath, JoinClassPath(append(slices.Clone(inputs), o.ClassPath)...)); err != nil {
			return err
		}
		o.Aspects = append(o.Aspects, at.Files...)
		more, err := classpath.OpenClassPath(at.AdviceCP, home)
		if err != nil {
			return err
		}
		srcs = append(srcs, more...)
		adv = append(adv, more...)
		o.AdviceCP = JoinClassPath(o.AdviceCP, at.AdviceCP)
	}
	img, err := j.Image()
	if err != nil {
		return err
	}
	h := weaver.HierarchyOf(append(slices.Clip(srcs), img)...)
	adviceLookup := JoinClassPath(append(append([]string{o.AdviceCP}, inputs...), o.ClassPath)...)
	lookup := append(append(append([]classpath.Source{}, adv...), ins...), cp...)
	prog, err := loadAdvice(o.Stderr, o.Aspects, adviceLookup, lookup, h, home)
	if err != nil {
		return err
	}
	sc, err := o.Scope.build()
	if err != nil {
		return err
	}
	w := weaver.New(prog, prog.Advice(), weaver.Options{Hierarchy: h, IDBase: o.IDBase, OmitShadows: o.WeaveInfo == "", Scope: sc})
	checked, err := precheckPaths(o.Stderr, prog, w, inputs)
	if err != nil {
		return err
	}

	// Each input into its output, the shadows advised to --weave-info.
	outs := map[string]string{}
	if len(inputs) == 1 {
		outs[inputs[0]] = o.Out
	} else {
		for _, in := range inputs {
			outs[in] = filepath.Join(o.Out, filepath.Base(in))
		}
	}
	var info *InfoFile
	if o.WeaveInfo != "" {
		if info, err = createInfoFile(o.WeaveInfo, o.Stdout, o.Stderr); err != nil {
			return err
		}
		defer func() {
			if info != nil { // not closed below: the weaving failed
				info.Close()
			}
		}()
	}
	total := &weaver.Stats{}
	applied := Applied{}
	for _, in := range inputs {
		st, err := w.WeavePath(in, outs[in])
		if err != nil {
			return fmt.Errorf("%s: %v", in, err)
		}
		if info != nil {
			for i := range st.Shadows {
				info.Write(st.Shadows[i].String() + "\n")
			}
		}
		for _, warn := range st.Warnings {
			fmt.Fprintln(o.Stderr, "weft: warning:", warn)
		}
		if !checked {
			reportDeclared(o.Stderr, st.Declared)
		}
		total.Classes += st.Classes
		total.Woven += st.Woven
		total.MethodsWoven += st.MethodsWoven
		total.Copied += st.Copied
		total.Advised += st.Advised
		applied.AddAdvice(st.Applied)
	}
	lintAdviceDidNotMatch(o.Stderr, o.IgnoreUnmatched, prog.Advice(), applied)
	reportScope(o.Stderr, sc)
	if info != nil {
		if err := info.Close(); err != nil {
			return fmt.Errorf("--weave-info: %v", err)
		}
		info = nil
	}

	// The runtime: into a directory output, else as weft-rt.jar next to
	// the output (in OUT for a class file woven into the directory OUT).
	rtOut, rtJar := filepath.Join(filepath.Dir(o.Out), "weft-rt.jar"), true
	switch {
	case len(inputs) == 1 && strings.HasSuffix(inputs[0], ".class") && isDir(o.Out):
		rtOut = filepath.Join(o.Out, "weft-rt.jar")
	case isDir(o.Out):
		rtOut, rtJar = o.Out, false
	}
	var extra map[string][]byte
	if at != nil { // the aspects' dispatchers and weft.at, beside the runtime
		if extra, err = rtjava.ReadClasses(at.Classes); err != nil {
			return err
		}
	}
	if err := writeRuntime(home, rtOut, rtJar, extra); err != nil {
		return err
	}
	if !o.Quiet {
		fmt.Fprintf(o.Stderr, "weft: wove %d of %d classes (%d methods, %d advised shadows) in %.2fs; runtime in %s\n",
			total.Woven, total.Classes, total.MethodsWoven, total.Advised, time.Since(start).Seconds(), rtOut)
	}
	return nil
}

// WeaveInfoTakesFile says how --weave-info is spelled since it takes a
// file in every command (it was a bool in weft weave).
const WeaveInfoTakesFile = "weave: --weave-info takes the file to write the lines to: --weave-info - for standard output"

// CheckWeaveInfo refuses a --weave-info file that is a class path entry:
// weft weave's --weave-info was a bool, and "--weave-info app.jar" would
// now write the lines over the input app.jar.
func CheckWeaveInfo(file string, inputs []string) error {
	if file == "" || file == "-" {
		return nil
	}
	ext := strings.ToLower(filepath.Ext(file))
	if ext == ".jar" || ext == ".zip" || ext == ".class" || isDir(file) || slices.Contains(inputs, file) {
		return fmt.Errorf("%s (%s is a class path entry, not a file for the lines)", WeaveInfoTakesFile, file)
	}
	return nil
}

// WriteRuntime writes weft's runtime classes (package weft.rt), built
// with the JDK at home and cached, into out: a jar if jar, else a
// directory.
func WriteRuntime(home, out string, jar bool) error { return writeRuntime(home, out, jar, nil) }

// writeRuntime is WriteRuntime with extra classes beside the runtime's.
func writeRuntime(home, out string, jar bool, extra map[string][]byte) error {
	classes, err := rtjava.Build(home, "")
	if err != nil {
		return err
	}
	if len(extra) > 0 {
		classes = maps.Clone(classes)
		maps.Copy(classes, extra)
	}
	kind := archive.Dir
	if jar {
		kind = archive.Jar
	}
	return archive.WriteClasses(out, kind, classes)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
