package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-aop/weft/launch"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/internal/javacmd"
)

// This file is weft run's work, phase by phase: the command line read,
// the advice resolved, then launch's steps: the JDK and the class path
// woven (cached), the load-time weaving served and the program run.

// wovenRunExtras are what a tool adds to the program it runs as weft run
// does: JVM options (its own, before the command's) and environment
// variables (after weft's).
type wovenRunExtras struct {
	jvmOptions []string
	env        []string
	// line is the command line already read (launch.CommandLine), by a tool
	// that needs it too; nil: runWoven reads it.
	line *javacmd.Line
	// toolMemory adds the tools' memory options (toolMemoryOptions) before
	// jvmOptions, raises a heap bound the command sets by toolHeap bytes
	// (toolHeapOptions), and watches for the JVM running out of memory.
	toolMemory bool
	toolHeap   uint64
	// end, if set, gets what runWoven learned of the JVM's end.
	end *jvmEnd
}

// jvmEnd is what weft learned of how a program's JVM ended, beyond its
// exit code.
type jvmEnd struct {
	// outOfMemory is set when an OutOfMemoryError escaped a thread of the
	// JVM (oomWatch).
	outOfMemory bool
}

// runWoven weaves as opts say and runs the command in args on the woven
// JDK and class path, with extra's JVM options and environment, with
// cmd's streams; it returns the command's exit code. The phases are in
// the order of the README's "How weft run runs a program".
func runWoven(cmd *cobra.Command, opts *runOptions, args []string, extra wovenRunExtras) (int, error) {
	fl := opts
	stderr := cmd.ErrOrStderr()
	launcher, home, err := commandJDK(fl.javaHome, args[0])
	if err != nil {
		return 0, err
	}
	say := func(format string, a ...any) {
		if fl.verbose {
			fmt.Fprintf(stderr, "weft: "+format+"\n", a...)
		}
	}

	// The command line, read once as the launcher reads it.
	javaArgs := args[1:]
	line := extra.line
	if line == nil {
		if line, err = launch.CommandLine(launcher, home, javaArgs); err != nil {
			return 0, err
		}
	}
	tool := line.Tool
	entries, present := launch.AppEntries(line)

	// The aspects, with their advice classes on --advice-cp or the class
	// path; the entries holding them go on the boot class path.
	j := launch.OpenJDK(home) // its image shared by every step that reads it
	defer j.Close()
	prog, holders, err := resolveAdvice(stderr, j, fl.aspects, fl.adviceCP, present)
	if err != nil {
		return 0, err
	}
	m, advs := prog, prog.Advice()
	bootCP := joinClassPath(append([]string{fl.adviceCP}, holders...)...)
	applied := launch.Applied{}
	// The scope: which classes and JDK modules may be woven.
	sc, err := fl.scope.build()
	if err != nil {
		return 0, err
	}
	modules, err := expandModules(home, fl.modules)
	if err != nil {
		return 0, err
	}

	// The JDK, woven once per key. The cache's entries this run uses stay
	// in use until its JVM ends.
	cu, err := useCache(fl.cacheMax, stderr)
	if err != nil {
		return 0, err
	}
	defer cu.Release()
	progress, clear := progressOn(stderr)
	wj, err := cu.WovenJDK(launch.WovenJDKJob{JDK: j, Matcher: m, Advice: advs, Aspects: fl.aspects, BootCP: bootCP,
		Modules: modules, Scope: sc, Holders: holders, Image: !fl.patches, Progress: progress})
	clear()
	if err != nil {
		return 0, err
	}
	jdkDir, imageDir := wj.Dir, wj.Image
	say("woven JDK: %s", jdkDir)
	if imageDir != "" {
		say("woven runtime image: %s", imageDir)
	}

	// The application's class path, once per key. Load-time weaving
	// numbers its join points after the JDK's and the class path's.
	meta := launch.JDKMeta(home, fl.aspects, bootCP, modules)
	wc, err := cu.WovenClassPath(launch.ClassPathJob{JDK: j, Woven: wj, Meta: meta, Matcher: m, Advice: advs,
		AdviceCP: fl.adviceCP, Line: line, Entries: entries, Present: present, Scope: sc, Applied: applied})
	if err != nil {
		return 0, err
	}
	if wc.Dir != "" {
		say("woven class path: %s", wc.Dir)
	}
	outs := wc.Outs
	// Advice that advised nothing, once the JDK and the class path are
	// woven: when this run wove.
	if wj.Wove || wc.Wove {
		if err := launch.ReadApplied(jdkDir, applied); err != nil {
			return 0, err
		}
		lintAdviceDidNotMatch(stderr, fl.xlint, advs, applied)
		reportScope(stderr, sc) // what the weaving ahead left out
	}

	// What the JVM defines as it runs: served from this process.
	var lt *launch.LoadTime
	var jvmOpts []string
	if extra.toolMemory {
		jvmOpts = toolMemoryOptions(line)
		after, note := toolHeapOptions(line, extra.toolHeap)
		switch {
		case note != "" && len(after) == 0:
			fmt.Fprintln(stderr, "weft: warning:", note)
		case note != "":
			say("%s", note)
		}
		if len(after) > 0 {
			line = line.WithJVMOptionsAfter(after...)
			if line.Tool {
				javaArgs = slices.Clone(javaArgs)
				for _, o := range after {
					javaArgs = append(javaArgs, "-J"+o)
				}
			}
		}
	}
	jvmOpts = append(jvmOpts, extra.jvmOptions...)
	if fl.loadTime {
		answers, err := cu.Acquire("ltw", wc.Key, meta, nil)
		if err != nil {
			return 0, err
		}
		if lt, err = launch.StartLoadTime(m, advs, launch.LoadTimeJob{JDK: j, ClassPath: present, AdviceCP: bootCP, Modules: modules,
			Scope: sc, IDBase: wc.NextID, CacheDir: answers.Dir, WeaveInfo: fl.weaveInfo, InfoOut: cmd.OutOrStdout(),
			Timeout: fl.timeout}); err != nil {
			return 0, err
		}
		jvmOpts = append(jvmOpts, lt.Properties()...)
		if !tool { // the application's named modules reach weft's runtime and the advice
			jvmOpts = append(jvmOpts, moduleAccessOptions(line.ModulePath)...)
		}
		say("load-time weaving: %s", lt.Path())
	}

	// The application's class data sharing archive, on the image.
	var archive *appArchive
	if imageDir != "" && fl.appCDS {
		if archive = newAppArchive(imageDir, line, entries, outs); archive != nil {
			jvmOpts = append(jvmOpts, archive.runOptions(cu, say)...)
		}
	}
	cu.Trim() // the entries made, and those this run uses in use

	// Run the command on both, the class path's entries replaced by their
	// woven copies.
	line = line.WithClassPath(func(e string) string {
		if w, ok := outs[e]; ok {
			return w
		}
		return e
	})
	launcher, cmdArgs, err := wj.Command(launcher, line, javaArgs, jvmOpts)
	if err != nil {
		return 0, err
	}
	say("%s %s", launcher, strings.Join(cmdArgs, " "))
	// A tool watches the JVM's standard error for the heap running out.
	jvmErr, watch := stderr, (*oomWatch)(nil)
	if extra.toolMemory {
		watch = &oomWatch{w: stderr}
		jvmErr = watch
	}
	exit := launch.Run(launch.Process{Path: launcher, Args: cmdArgs, Env: extra.env,
		Stdin: cmd.InOrStdin(), Stdout: cmd.OutOrStdout(), Stderr: jvmErr})
	code := exit.Code
	if archive != nil {
		archive.finish(code)
	}
	if watch != nil && watch.seen {
		fmt.Fprintf(stderr, "weft: the program's JVM ran out of memory (%s, above): the tool's data shares the heap; "+
			"give it more with --tool-heap where the command bounds the heap (%s), or raise the command's bound\n", outOfMemory, heapBoundSaid(line))
		if extra.end != nil {
			extra.end.outOfMemory = true
		}
	}
	if lt != nil {
		lt.Drain()
		if err := reportLoadTime(stderr, lt.Stop(stderr), fl.report); err != nil {
			fmt.Fprintln(stderr, "weft:", err)
		}
	}
	return code, jvmCrash(exit)
}
