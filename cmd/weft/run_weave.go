package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/weaver/scope"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/weaver"
)

// This file is weft run's work, phase by phase: the command line read,
// the advice resolved, the JDK and the class path woven (cached), the
// load-time weaving served and the program run (run_java.go).

// wovenRunExtras are what a tool adds to the program it runs as weft run
// does: JVM options (its own, before the command's) and environment
// variables (after weft's).
type wovenRunExtras struct {
	jvmOptions []string
	env        []string
	// line is the command line already read (commandLine), by a tool
	// that needs it too; nil: runWoven reads it.
	line *javacmd.Line
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
		if line, err = commandLine(launcher, home, javaArgs); err != nil {
			return 0, err
		}
	}
	tool := line.Tool
	entries, present := appEntries(line)
	outs := map[string]string{} // entry → its woven copy, filled below

	// The aspects, with their advice classes on --advice-cp or the class
	// path; the entries holding them go on the boot class path.
	prog, holders, err := resolveAdvice(stderr, home, fl.aspects, fl.adviceCP, present)
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

	// The JDK, once per key. The cache's entries this run uses stay in
	// use until its JVM ends.
	cu, err := useCache(fl.cacheMax, stderr)
	if err != nil {
		return 0, err
	}
	defer cu.Release()
	progress, clear := progressOn(stderr)
	wj, err := cu.WovenJDK(launch.WovenJDKJob{JavaHome: home, Matcher: m, Advice: advs, Aspects: fl.aspects, BootCP: bootCP,
		Modules: modules, Scope: sc, Holders: holders, Image: !fl.patches, Progress: progress})
	clear()
	if err != nil {
		return 0, err
	}
	key, jdkDir, imageDir, sum, wove := wj.Key, wj.Dir, wj.Image, wj.Summary, wj.Wove
	say("woven JDK: %s", jdkDir)
	if imageDir != "" {
		say("woven runtime image: %s", imageDir)
	}

	// The application's class path, once per key. Load-time weaving
	// numbers its join points after the JDK's and the class path's.
	idBase := sum.NextID
	meta := launch.JDKMeta(home, fl.aspects, bootCP, modules)
	ltwKey := key // load-time answers, keyed as the weavings before
	if len(entries) > 0 {
		k := cache.NewHasher().String(key)
		for _, e := range entries {
			k.String(e).Path(e)
		}
		ltwKey, meta.ClassPath = k.Key(), launch.AbsPaths(entries)
		appDir := cu.EntryDir("app", ltwKey)
		for i, e := range entries {
			if st, err := os.Stat(e); err == nil && slices.Contains(present, e) {
				name := fmt.Sprintf("%d-%s", i, filepath.Base(e))
				if !st.IsDir() && !strings.HasSuffix(name, ".jar") {
					name += ".jar"
				}
				outs[e] = filepath.Join(appDir, name)
			}
		}
		if _, err := cu.Acquire("app", ltwKey, meta, func(appDir string, fresh, _ bool) error {
			if !fresh {
				return nil
			}
			fmt.Fprintf(stderr, "weft: weaving the class path into %s (once)\n", appDir)
			wove = true
			next, err := weaveApp(stderr, home, m, advs, fl.adviceCP, entries, outs, sum.NextID, applied, sc)
			if err != nil {
				return err
			}
			if err := jarClassPath(line, outs); err != nil {
				return err
			}
			return writeNextID(appDir, next)
		}); err != nil {
			return 0, err
		}
		say("woven class path: %s", appDir)
		if next, err := readNextID(appDir); err == nil && next > idBase {
			idBase = next
		}
	}
	// Advice that advised nothing, once the JDK and the class path are
	// woven: when this run wove.
	if wove {
		if err := launch.ReadApplied(jdkDir, applied); err != nil {
			return 0, err
		}
		lintAdviceDidNotMatch(stderr, fl.xlint, advs, applied)
		reportScope(stderr, sc) // what the weaving ahead left out
	}

	// What the JVM defines as it runs: served from this process.
	var lt *loadTime
	jvmOpts := append([]string(nil), extra.jvmOptions...)
	if fl.loadTime {
		answers, err := cu.Acquire("ltw", ltwKey, meta, nil)
		if err != nil {
			return 0, err
		}
		if lt, err = startLoadTime(m, advs, loadTimeJob{home: home, classPath: present, adviceCP: bootCP, modules: modules, scope: sc,
			idBase: idBase, cacheDir: answers.Dir, weaveInfo: fl.weaveInfo, infoOut: cmd.OutOrStdout(), timeout: fl.timeout}); err != nil {
			return 0, err
		}
		jvmOpts = append(jvmOpts, lt.properties()...)
		if !tool { // the application's named modules reach weft's runtime and the advice
			jvmOpts = append(jvmOpts, moduleAccessOptions(line.ModulePath)...)
		}
		say("load-time weaving: %s", lt.path)
	}

	// The application's class data sharing archive, on the image.
	var archive *appArchive
	if imageDir != "" && !tool && fl.appCDS {
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
	var cmdArgs []string
	if imageDir != "" {
		launcher = filepath.Join(imageDir, "bin", filepath.Base(launcher))
		cmdArgs = imageArgs(filepath.Base(launcher), tool, jvmOpts, line.Args())
	} else if tool {
		if cmdArgs, err = launcherArgs(jdkDir, filepath.Base(launcher), jvmOpts...); err != nil {
			return 0, err
		}
		cmdArgs = append(cmdArgs, javaArgs...)
	} else {
		cmdArgs = append([]string{"@" + filepath.Join(jdkDir, "weft.args")}, line.WithJVMOptions(jvmOpts...).Args()...)
	}
	say("%s %s", launcher, strings.Join(cmdArgs, " "))
	code := runJava(cmd, launcher, cmdArgs, extra.env)
	if archive != nil {
		archive.finish(code)
	}
	if lt != nil {
		lt.drain()
		if err := reportLoadTime(stderr, lt.stop(stderr), fl.report); err != nil {
			fmt.Fprintln(stderr, "weft:", err)
		}
	}
	return code, nil
}

// commandLine reads the arguments of the launcher of JDK home as it does:
// a tool's (javac, jar... in the JDK's bin) or java's, whose class path is
// the application's (javac's -cp is not code it runs).
func commandLine(launcher, home string, args []string) (*javacmd.Line, error) {
	if isOtherJDKLauncher(launcher, home) {
		return javacmd.ParseTool(launcher, args), nil
	}
	return javacmd.ParseJava(launcher, args, os.Getenv)
}

// appEntries returns the entries of a java command's class path that weft
// weaves ahead of time, and of those the directories and jars, once each:
// the class path given (-cp, -jar with its manifest's Class-Path, or
// $CLASSPATH), not the current directory the launcher takes when none is
// (which may be anything: its classes are woven at load time).
func appEntries(line *javacmd.Line) (entries, present []string) {
	if line.Tool || line.ClassPathFrom == javacmd.FromDefault {
		return nil, nil
	}
	entries = line.ClassPath
	for _, e := range entries {
		if _, err := os.Stat(e); err == nil && e != "" && !slices.Contains(present, e) {
			present = append(present, e)
		}
	}
	return entries, present
}

// jarClassPath points the woven copy of a -jar file's manifest Class-Path
// at the woven copies of its entries (the others where they are): its
// relative entries would name nothing next to the copy.
func jarClassPath(line *javacmd.Line, outs map[string]string) error {
	woven, ok := outs[line.Target]
	if line.Mode != javacmd.Jar || !ok || len(line.ClassPath) < 2 {
		return nil
	}
	var cp []string
	for _, e := range line.ClassPath[1:] {
		if w, ok := outs[e]; ok {
			e = w
		}
		cp = append(cp, e)
	}
	return archive.SetManifestClassPath(woven, cp)
}

// weaveApp weaves the class path entries into outs (entry → output), with
// join point ids after the JDK's, adds the advice that advised a join
// point to applied, and returns the first join point id after them.
func weaveApp(stderr io.Writer, home string, m advice.Matcher, advs []*advice.Advice, adviceCP string, entries []string, outs map[string]string,
	idBase int32, applied launch.Applied, sc *scope.Scope) (int32, error) {
	srcs, err := classfile.OpenClassPath(strings.Join(append(append([]string{}, keys(outs)...), adviceCP), string(filepath.ListSeparator)), home)
	if err != nil {
		return 0, err
	}
	img, err := classfile.OpenJDK(home)
	if err != nil {
		return 0, err
	}
	srcs = append(srcs, img)
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	h := weaver.NewMethodHierarchy(classfile.NewHierarchy(srcs...), srcs...)
	w := weaver.New(m, advs, weaver.Options{Hierarchy: h, IDBase: idBase, OmitShadows: true, Scope: sc})
	var woven []string
	for _, e := range entries {
		if _, ok := outs[e]; ok {
			woven = append(woven, e)
		}
	}
	checked, err := launch.PrecheckPaths(stderr, m, w, woven)
	if err != nil {
		return 0, err
	}
	for _, e := range woven {
		st, err := w.WeavePath(e, outs[e])
		if err != nil {
			return 0, fmt.Errorf("%s: %v", e, err)
		}
		for _, warn := range st.Warnings {
			fmt.Fprintln(stderr, "weft: warning:", warn)
		}
		if !checked {
			launch.ReportDeclared(stderr, st.Declared)
		}
		applied.AddAdvice(st.Applied)
	}
	return w.NextID(), nil
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
