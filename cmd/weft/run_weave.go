package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/launch/jvmopts"
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
// the order of docs/design.md's "How weft run runs a program". A signal
// before the program starts (the JDK's weave takes minutes) stops weft at
// once, with exit status 128 plus its number: the weave is abandoned,
// weft's helpers end with it (internal/proc), and the cache records
// nothing unfinished as complete.
func runWoven(cmd *cobra.Command, opts *runOptions, args []string, extra wovenRunExtras) (int, error) {
	stderr := cmd.ErrOrStderr()
	r, err := interruptible(stderr, "the program started", func() (*wovenRun, error) { return prepareWoven(cmd, opts, args, extra) })
	if err != nil {
		return 0, err
	}
	defer r.close()
	// A tool watches the JVM's standard error for the heap running out.
	jvmErr, watch := stderr, (*jvmopts.OOMWatch)(nil)
	if extra.toolMemory {
		watch = jvmopts.NewOOMWatch(stderr)
		jvmErr = watch
	}
	exit := launch.Run(launch.Process{Path: r.launcher, Args: r.args, Env: extra.env,
		Stdin: cmd.InOrStdin(), Stdout: cmd.OutOrStdout(), Stderr: jvmErr})
	code := exit.Code
	if r.archive != nil {
		r.archive.Finish(code)
	}
	if watch != nil && watch.Seen() {
		fmt.Fprintf(stderr, "weft: the program's JVM ran out of memory (%s, above): the tool's data shares the heap; "+
			"give it more with --tool-heap where the command bounds the heap (%s), or raise the command's bound\n", jvmopts.OutOfMemory, jvmopts.HeapBoundSaid(r.line))
		if extra.end != nil {
			extra.end.outOfMemory = true
		}
	}
	if r.lt != nil {
		r.lt.Drain()
		if err := reportLoadTime(stderr, r.lt.Stop(stderr), opts.report); err != nil {
			fmt.Fprintln(stderr, "weft:", err)
		}
	}
	return code, jvmCrash(exit)
}

// wovenRun is a program ready to run on its woven JDK and class path.
type wovenRun struct {
	launcher string
	args     []string
	line     *javacmd.Line      // the command line as run
	archive  *launch.AppArchive // the application's class data sharing archive, or nil
	lt       *launch.LoadTime
	closers  []func() // the JDK's image, the cache entries in use
}

func (r *wovenRun) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// interruptible runs prepare, or stops at the first SIGINT, SIGTERM or
// SIGHUP before it is done, saying it stopped before what prepare
// prepares, with the error that makes weft exit with 128 plus the
// signal's number; prepare then goes on until weft exits. Catching them
// from the start also keeps a signal from being lost in a weft started
// with SIGINT ignored (a script's background job), whose later handler
// (launch.Run's, weft serve's) would then take the next one.
func interruptible[T any](stderr io.Writer, before string, prepare func() (T, error)) (T, error) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	type prepared struct {
		v   T
		err error
	}
	ready := make(chan prepared, 1)
	go func() {
		v, err := prepare()
		ready <- prepared{v, err}
	}()
	select {
	case sig := <-sigs:
		fmt.Fprintf(stderr, "weft: %v: stopped before %s\n", sig, before)
		var zero T
		return zero, exitError{code: 128 + int(sig.(syscall.Signal))}
	case p := <-ready:
		return p.v, p.err
	}
}

// prepareWoven weaves as opts say (the JDK, the class path), starts the
// load-time weaving and returns the command to run; r.close releases what
// it holds.
func prepareWoven(cmd *cobra.Command, opts *runOptions, args []string, extra wovenRunExtras) (r *wovenRun, err error) {
	w := &wovenRun{}
	defer func() {
		if err != nil {
			w.close() // r is nil then
		}
	}()
	fl := opts
	stderr := cmd.ErrOrStderr()
	launcher, home, err := commandJDK(fl.javaHome, args[0])
	if err != nil {
		return nil, err
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
			return nil, err
		}
	}
	tool := line.Tool
	entries, present := launch.AppEntries(line)

	// The aspects, with their advice classes on --advice-cp or the class
	// path; the entries holding them go on the boot class path.
	j := launch.OpenJDK(home) // its image shared by every step that reads it
	w.closers = append(w.closers, func() { j.Close() })
	prog, holders, err := resolveAdvice(stderr, j, fl.aspects, fl.adviceCP, present)
	if err != nil {
		return nil, err
	}
	m, advs := prog, prog.Advice()
	bootCP := joinClassPath(append([]string{fl.adviceCP}, holders...)...)
	applied := launch.Applied{}
	// The scope: which classes and JDK modules may be woven.
	sc, err := fl.scope.build()
	if err != nil {
		return nil, err
	}
	modules, err := expandModules(j, fl.modules)
	if err != nil {
		return nil, err
	}

	// The JDK, woven once per key. The cache's entries this run uses stay
	// in use until its JVM ends.
	cu, err := useCache(fl.cacheMax, stderr)
	if err != nil {
		return nil, err
	}
	w.closers = append(w.closers, cu.Release)
	progress, clear := progressOn(stderr)
	wj, err := cu.WovenJDK(launch.WovenJDKJob{JDK: j, Matcher: m, Advice: advs, Aspects: fl.aspects, BootCP: bootCP,
		Modules: modules, Scope: sc, Holders: holders, Image: !fl.patches, Progress: progress})
	clear()
	if err != nil {
		return nil, err
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
		return nil, err
	}
	if wc.Dir != "" {
		say("woven class path: %s", wc.Dir)
	}
	outs := wc.Outs
	// Advice that advised nothing, once the JDK and the class path are
	// woven: when this run wove.
	if wj.Wove || wc.Wove {
		if err := launch.ReadApplied(jdkDir, applied); err != nil {
			return nil, err
		}
		lintAdviceDidNotMatch(stderr, fl.xlint, advs, applied)
		reportScope(stderr, sc) // what the weaving ahead left out
	}

	// What the JVM defines as it runs: served from this process.
	var lt *launch.LoadTime
	var jvmOpts []string
	if extra.toolMemory {
		jvmOpts = jvmopts.ToolMemory(line)
		after, note := jvmopts.ToolHeap(line, extra.toolHeap)
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
			return nil, err
		}
		if lt, err = launch.StartLoadTime(m, advs, launch.LoadTimeJob{JDK: j, ClassPath: present, AdviceCP: bootCP, Modules: modules,
			Scope: sc, IDBase: wc.NextID, CacheDir: answers.Dir, WeaveInfo: fl.weaveInfo, InfoOut: cmd.OutOrStdout(),
			Timeout: fl.timeout}); err != nil {
			return nil, err
		}
		jvmOpts = append(jvmOpts, lt.Properties()...)
		if !tool { // the application's named modules reach weft's runtime and the advice
			jvmOpts = append(jvmOpts, jvmopts.ModuleAccess(line.ModulePath)...)
		}
		say("load-time weaving: %s", lt.Path())
	}

	// The application's class data sharing archive, on the image.
	var archive *launch.AppArchive
	if imageDir != "" && fl.appCDS {
		if archive = launch.NewAppArchive(imageDir, line, entries, outs); archive != nil {
			jvmOpts = append(jvmOpts, archive.RunOptions(cu, say)...)
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
		return nil, err
	}
	say("%s %s", launcher, strings.Join(cmdArgs, " "))
	w.launcher, w.args, w.line, w.archive, w.lt = launcher, cmdArgs, line, archive, lt
	return w, nil
}
