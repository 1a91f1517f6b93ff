package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/weaver"
)

var runFlags struct {
	aspects  []string
	adviceCP string
	javaHome string
	modules  string
	verbose  bool
	xlint    lintLevel
	loadTime bool
	ltwFile  string
	ltwInfo  string
	ltwWait  time.Duration
	patches  bool
	appCDS   bool
	cacheMax string
	// jvmOptions are JVM options a tool's runs take (not a flag of weft
	// run: e.g. weft profile's, for the JIT).
	jvmOptions []string
}

var runCmd = &cobra.Command{
	Use:   "run -a ASPECT... [--advice-cp CP] [--Xlint ignore] -- java ARGS...",
	Short: "Weave the JDK and the application (both cached) and run java on them",
	Long: `run weaves the JDK (as "weft jdk" does) and the classes on the application's
-cp / -jar (as "weft weave" does), then runs the java command on the woven
classes. stdin, stdout and stderr are the program's; signals are passed on
and weft exits with the program's exit code.

Both weavings are cached under $WEFT_CACHE (default: the user cache
directory's weft/). The JDK's is keyed by the JDK's release and build, the
aspect files, the advice classes' bytes, the modules chosen and weft itself;
the application's by that and the class path's contents. A second run with
the same inputs starts java at once. The cache is bounded (--cache-max,
$WEFT_CACHE_MAX, else 5G): the entries used least recently are removed,
never those a running JVM uses; "weft cache" lists and prunes it.

The woven JDK runs as a runtime image linked from it (as "weft jdk
--image" links one, cached with it): the command is run from the image's
bin/, which needs no options and maps a class data sharing archive of its
own. From a java program's second run on, the image maps an archive of
the program's classes too, made once from the classes its first run
loaded (docs/jdk.md, "The application's archive"; --app-cds=false: no
archive). --patches runs the stock JDK with --patch-module instead, as
"weft jdk -o" writes it: no linking on the first run, slower start-ups.

Advice classes are put on the boot class path, so the JDK's woven code can
call them; compile them against "weft runtime -o weft-rt.jar" but do not
put that jar on the class path: in JDK mode the runtime is in java.base.
They are looked up on --advice-cp, then on the program's class path: an
entry there that holds one goes on the boot class path too (so all its
classes are loaded from there, unwoven: keep advice in its own directory
or jar). An advice whose class is on neither is an error, as in
"weft check". Advice that advised no join point of the JDK or the class
path is warned of as ajc does ("advice defined in A has not been applied
[Xlint:adviceDidNotMatch]") when run weaves; --Xlint ignore silences it.
So are the aspects' declare warnings and errors, as "weft weave" reports
them; a declare error stops run before java starts.

The command may be any launcher of the JDK's bin/: java gets the woven
JDK's options as @DIR/weft.args, the others (javac, jar, jshell, jdeps,
javadoc...) as -J options (jshell also as -R options, for the JVM that
runs its snippets), and no class path of theirs is woven. By hand, with
DIR from "weft jdk" or "weft run -v":

  java @DIR/weft.args -cp app Main
  javac $(cat DIR/weft.jargs) -d out Hello.java

Examples:

  # the leak tracker of examples/leak, by hand ("weft leak" does all this)
  weft runtime -o /tmp/weft-rt.jar
  javac -cp /tmp/weft-rt.jar -d /tmp/adv examples/leak/leak/*.java
  javac -d /tmp/demo examples/leak/demo/Requests.java
  weft run -a examples/leak/leak.weft --advice-cp /tmp/adv -- \
      java -Xmx32m -cp /tmp/demo Requests

  # the JDK only (no class path to weave), one module
  weft run -a count.weft --advice-cp adv --modules java.base -- java -version

  # javac on the woven JDK (javac lives in jdk.compiler)
  weft run -a count.weft --advice-cp adv -- javac -d out Hello.java`,
	Args: cobra.MinimumNArgs(1),
	RunE: runRun,
}

func init() {
	f := runCmd.Flags()
	f.StringArrayVarP(&runFlags.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&runFlags.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	f.StringVar(&runFlags.javaHome, "java-home", "", "the JDK (default: the one of the java command)")
	f.StringVar(&runFlags.modules, "modules", "all", `JDK modules to weave: "all" or a comma-separated list`)
	f.BoolVarP(&runFlags.verbose, "verbose", "v", false, "say what is woven and what comes from the cache")
	f.BoolVar(&runFlags.loadTime, "load-time", true, "weave the classes the JVM defines at run time too (docs/ltw.md)")
	f.BoolVar(&runFlags.patches, "patches", false, "run the stock JDK with the woven modules as --patch-module patches, not a woven runtime image")
	addAppCDSFlag(f)
	addCacheMaxFlag(f, &runFlags.cacheMax)
	f.StringVar(&runFlags.ltwFile, "ltw-report", "", "write the load-time weaving summary (classes left unwoven and why) to this JSON file")
	f.DurationVar(&runFlags.ltwWait, "ltw-timeout", 10*time.Second, "the longest weaving one class at load time may take; past it the class is defined unwoven and reported")
	f.StringVar(&runFlags.ltwInfo, "weave-info", "", "write one line per shadow advised at load time to this file, as ajc -showWeaveInfo")
	addLintFlag(f, &runFlags.xlint)
	// weft's flags end at the java command: what follows is java's, and
	// a missing -- is reported as such rather than as java's flags.
	f.SetInterspersed(false)
	runCmd.MarkFlagRequired("aspect")
	rootCmd.AddCommand(runCmd)
}

func runRun(cmd *cobra.Command, args []string) error {
	code, err := runWoven(cmd, args, nil)
	if err != nil {
		return err
	}
	return exitCode(code)
}

// runWoven weaves as runFlags say and runs the command in args on the
// woven JDK and class path, with env added to its environment; it returns
// the command's exit code.
func runWoven(cmd *cobra.Command, args []string, env []string) (int, error) {
	fl := &runFlags
	if cmd.ArgsLenAtDash() != 0 {
		return 0, fmt.Errorf("run: put -- before the java command: %s", withDash(cmd, args))
	}
	launcher, err := exec.LookPath(args[0])
	if err != nil {
		return 0, err
	}
	// The JDK woven must be the java command's, unless named.
	home := fl.javaHome
	if home == "" {
		if home, err = classfile.JavaHomeOf(launcher); err != nil {
			return 0, fmt.Errorf("%v (use --java-home)", err)
		}
	}
	if home, err = jdkHome(home); err != nil {
		return 0, err
	}
	say := func(format string, a ...any) {
		if fl.verbose {
			fmt.Fprintf(os.Stderr, "weft: "+format+"\n", a...)
		}
	}

	// The command line, read once as the launcher reads it; the
	// application's class path is java's only (javac's -cp is not code it
	// runs).
	javaArgs := args[1:]
	tool := isOtherJDKLauncher(launcher, home)
	line := javacmd.ParseTool(launcher, javaArgs)
	if !tool {
		if line, err = javacmd.ParseJava(launcher, javaArgs, os.Getenv); err != nil {
			return 0, err
		}
	}
	entries, present := appEntries(line)
	outs := map[string]string{} // entry → its woven copy, filled below

	// The aspects, with their advice classes on --advice-cp or the class
	// path; the entries holding them go on the boot class path.
	prog, holders, err := resolveAdvice(os.Stderr, home, fl.aspects, fl.adviceCP, present)
	if err != nil {
		return 0, err
	}
	m, advs := prog, prog.Advice()
	bootCP := joinClassPath(append([]string{fl.adviceCP}, holders...)...)
	applied := appliedAdvice{}

	// The JDK, once per key. The cache's entries this run uses stay in
	// use until its JVM ends.
	cu, err := useCache(fl.cacheMax)
	if err != nil {
		return 0, err
	}
	defer cu.release()
	wj, err := cachedJDK(cu, home, m, advs, fl.aspects, bootCP, fl.modules, holders, !fl.patches)
	if err != nil {
		return 0, err
	}
	key, jdkDir, imageDir, sum, wove := wj.key, wj.dir, wj.image, wj.sum, wj.wove
	say("woven JDK: %s", jdkDir)
	if imageDir != "" {
		say("woven runtime image: %s", imageDir)
	}

	// The application's class path, once per key. Load-time weaving
	// numbers its join points after the JDK's and the class path's.
	idBase := sum.NextID
	meta := jdkMeta(home, fl.aspects, bootCP, fl.modules)
	ltwKey := key // load-time answers, keyed as the weavings before
	if len(entries) > 0 {
		k := cache.NewHasher().String(key)
		for _, e := range entries {
			k.String(e).Path(e)
		}
		ltwKey, meta.ClassPath = k.Key(), absPaths(entries)
		appDir := cu.store.EntryDir("app", ltwKey)
		for i, e := range entries {
			if st, err := os.Stat(e); err == nil && slices.Contains(present, e) {
				name := fmt.Sprintf("%d-%s", i, filepath.Base(e))
				if !st.IsDir() && !strings.HasSuffix(name, ".jar") {
					name += ".jar"
				}
				outs[e] = filepath.Join(appDir, name)
			}
		}
		if _, err := cu.acquire("app", ltwKey, meta, func(appDir string, fresh, _ bool) error {
			if !fresh {
				return nil
			}
			fmt.Fprintf(os.Stderr, "weft: weaving the class path into %s (once)\n", appDir)
			wove = true
			next, err := weaveApp(home, m, advs, fl.adviceCP, entries, outs, sum.NextID, applied)
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
		if err := readAppliedAdvice(jdkDir, applied); err != nil {
			return 0, err
		}
		lintAdviceDidNotMatch(os.Stderr, fl.xlint, advs, applied)
	}

	// What the JVM defines as it runs: served from this process.
	var lt *loadTime
	jvmOpts := append([]string(nil), fl.jvmOptions...)
	if fl.loadTime {
		answers, err := cu.acquire("ltw", ltwKey, meta, nil)
		if err != nil {
			return 0, err
		}
		if lt, err = startLoadTime(m, advs, loadTimeJob{home: home, classPath: present, adviceCP: bootCP, modules: fl.modules,
			idBase: idBase, cacheDir: answers.Dir, weaveInfo: fl.ltwInfo, timeout: fl.ltwWait}); err != nil {
			return 0, err
		}
		jvmOpts = append(jvmOpts, lt.property())
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
	cu.trim() // the entries made, and those this run uses in use

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
	code := runJava(launcher, cmdArgs, env)
	if archive != nil {
		archive.finish(code)
	}
	if lt != nil {
		lt.drain()
		if err := reportLoadTime(os.Stderr, lt.stop(), fl.ltwFile); err != nil {
			fmt.Fprintln(os.Stderr, "weft:", err)
		}
	}
	return code, nil
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

// launcherArgs returns the woven JDK's options for one of its launchers
// other than java: DIR/weft.jargs and extra JVM options, one -J option each, and for jshell,
// whose snippets run in a JVM of their own, the same as -R options.
func launcherArgs(jdkDir, name string, extra ...string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(jdkDir, "weft.jargs"))
	if err != nil {
		return nil, err
	}
	jargs := strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
	for _, x := range extra {
		jargs = append(jargs, "-J"+x)
	}
	out := append([]string(nil), jargs...)
	if name == "jshell" {
		for _, j := range jargs {
			out = append(out, "-R"+strings.TrimPrefix(j, "-J"))
		}
	}
	return out, nil
}

// withDash is the command line the user meant: weft's flags as given, --,
// then the java command.
func withDash(cmd *cobra.Command, args []string) string {
	words := []string{"weft", cmd.Name()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand
		}
		vals := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vals = sv.GetSlice()
		}
		for _, v := range vals {
			switch {
			case f.Value.Type() != "bool":
				words = append(words, name, v)
			case v == "true":
				words = append(words, name)
			}
		}
	})
	return strings.Join(append(append(words, "--"), args...), " ")
}

// isOtherJDKLauncher reports whether the command is a launcher of the JDK's
// bin/ other than java (javac, jar, jshell...): those take JVM options
// only as -J arguments.
func isOtherJDKLauncher(launcher, home string) bool {
	if filepath.Base(launcher) == "java" {
		return false
	}
	real, err1 := filepath.EvalSymlinks(launcher)
	bin, err2 := filepath.EvalSymlinks(filepath.Join(home, "bin"))
	return err1 == nil && err2 == nil && filepath.Dir(real) == bin
}

// appliedFile lists, in a woven JDK's cache directory, the advice that
// advised a join point there (adviceKey, one a line), for the lint of a
// later run that weaves only the class path.
const appliedFile = "advice-applied"

func writeAppliedAdvice(dir string, applied appliedAdvice) error {
	var ks []string
	for k := range applied {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k + "\n")
	}
	return os.WriteFile(filepath.Join(dir, appliedFile), []byte(b.String()), 0o644)
}

func readAppliedAdvice(dir string, into appliedAdvice) error {
	b, err := os.ReadFile(filepath.Join(dir, appliedFile))
	if err != nil {
		return err
	}
	for _, k := range strings.Fields(string(b)) {
		into[k] = true
	}
	return nil
}

// weaveApp weaves the class path entries into outs (entry → output), with
// join point ids after the JDK's, adds the advice that advised a join
// point to applied, and returns the first join point id after them.
func weaveApp(home string, m advice.Matcher, advs []*advice.Advice, adviceCP string, entries []string, outs map[string]string,
	idBase int32, applied appliedAdvice) (int32, error) {
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
	w := weaver.New(m, advs, weaver.Options{Hierarchy: h, IDBase: idBase, OmitShadows: true})
	var woven []string
	for _, e := range entries {
		if _, ok := outs[e]; ok {
			woven = append(woven, e)
		}
	}
	checked, err := precheckPaths(os.Stderr, m, w, woven)
	if err != nil {
		return 0, err
	}
	for _, e := range woven {
		st, err := w.WeavePath(e, outs[e])
		if err != nil {
			return 0, fmt.Errorf("%s: %v", e, err)
		}
		for _, warn := range st.Warnings {
			fmt.Fprintln(os.Stderr, "weft: warning:", warn)
		}
		if !checked {
			reportDeclared(os.Stderr, st.Declared)
		}
		applied.addAdvice(st.Applied)
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

// runJava runs java with the terminal's streams, passes signals on, and
// returns its exit code (128+signal when a signal killed it).
func runJava(java string, args []string, env []string) int {
	c := exec.Command(java, args...)
	if env != nil {
		c.Env = append(os.Environ(), env...)
	}
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	defer signal.Stop(sigs)
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "weft:", err)
		return 127
	}
	go func() {
		for s := range sigs {
			c.Process.Signal(s)
		}
	}()
	err := c.Wait()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "weft:", err)
	return 1
}
