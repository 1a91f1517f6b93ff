package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
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
the same inputs starts java at once.

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

	// The JDK, once per key.
	wj, err := cachedJDK(home, m, advs, fl.aspects, bootCP, fl.modules, holders)
	if err != nil {
		return 0, err
	}
	key, jdkDir, sum, wove := wj.key, wj.dir, wj.sum, wj.wove
	say("woven JDK: %s", jdkDir)
	imageDir := ""
	if !fl.patches {
		if imageDir, err = cachedImage(home, jdkDir, bootCP); err != nil {
			return 0, err
		} else if imageDir != "" {
			say("woven runtime image: %s", imageDir)
		}
	}

	// The application's class path, once per key. Load-time weaving
	// numbers its join points after the JDK's and the class path's.
	idBase := sum.NextID
	ltwDir := filepath.Join(cacheRoot(), "ltw-"+key) // load-time answers, keyed as the weavings before
	if len(entries) > 0 {
		h := sha256.New()
		h.Write([]byte(key))
		for _, e := range entries {
			fmt.Fprintf(h, "\x00%s\x00", e)
			hashPath(h, e)
		}
		appDir := filepath.Join(cacheRoot(), "app-"+hex.EncodeToString(h.Sum(nil))[:20])
		ltwDir = filepath.Join(cacheRoot(), "ltw-"+hex.EncodeToString(h.Sum(nil))[:20])
		for i, e := range entries {
			if st, err := os.Stat(e); err == nil && slices.Contains(present, e) {
				name := fmt.Sprintf("%d-%s", i, filepath.Base(e))
				if !st.IsDir() && !strings.HasSuffix(name, ".jar") {
					name += ".jar"
				}
				outs[e] = filepath.Join(appDir, name)
			}
		}
		if _, err := cached(appDir, func() error {
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
		if lt, err = startLoadTime(m, advs, loadTimeJob{home: home, classPath: present, adviceCP: bootCP, modules: fl.modules,
			idBase: idBase, cacheDir: ltwDir, weaveInfo: fl.ltwInfo, timeout: fl.ltwWait}); err != nil {
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
			jvmOpts = append(jvmOpts, archive.runOptions(say)...)
		}
	}

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

// A cachedWovenJDK is the JDK woven for a run's aspects, in the cache.
type cachedWovenJDK struct {
	key, dir string
	sum      *jdk.Summary
	wove     bool // woven by this call, not found in the cache
}

// cachedJDK weaves the JDK for the aspects once per key (jdkKey, cached),
// for weft run and weft serve. holders are class-path entries holding
// advice classes, which bootCP includes. The advice applied is written in
// the cache directory (appliedFile) for the caller's lint.
func cachedJDK(home string, m advice.Matcher, advs []*advice.Advice, aspects []string, bootCP, modules string,
	holders []string) (cachedWovenJDK, error) {
	var w cachedWovenJDK
	key, err := jdkKey(home, aspects, bootCP, modules)
	if err != nil {
		return w, err
	}
	w.key, w.dir = key, filepath.Join(cacheRoot(), "jdk-"+key)
	w.sum, err = cached(w.dir, func() error {
		fmt.Fprintf(os.Stderr, "weft: weaving the JDK into %s (once)\n", w.dir)
		if len(holders) > 0 {
			fmt.Fprintf(os.Stderr, "weft: advice classes found on the class path in %s: on the boot class path too\n",
				strings.Join(holders, ", "))
		}
		s, applied, err := weaveJDK(jdkJob{matcher: m, advice: advs, adviceCP: bootCP, javaHome: home,
			modules: modules, out: w.dir, progress: true})
		if err != nil {
			return err
		}
		if len(s.Intrinsics) > 0 {
			fmt.Fprintf(os.Stderr, "weft: %d advised JDK methods are intrinsic candidates (see %s): counts there can be partial\n",
				len(s.Intrinsics), filepath.Join(w.dir, "summary.json"))
		}
		w.wove = true
		return writeAppliedAdvice(w.dir, applied)
	})
	return w, err
}

// jdkKey hashes what the woven JDK depends on.
// weftDigest is the SHA-256 of the running weft executable (of its version
// string if it cannot be read), computed once: cached weavings depend on it.
var weftDigest = sync.OnceValue(func() []byte {
	h := sha256.New()
	h.Write([]byte(version))
	if exe, err := os.Executable(); err == nil {
		hashPath(h, exe)
	}
	return h.Sum(nil)
})

func jdkKey(home string, aspects []string, adviceCP, modules string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "weft %s\x00%s\x00%s\x00%s\x00", version, jdk.Release(home), home, modules)
	// weft itself: a rebuilt weft may weave differently.
	h.Write(weftDigest())
	for _, a := range aspects {
		b, err := os.ReadFile(a)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "aspect\x00%d\x00", len(b))
		h.Write(b)
	}
	for _, p := range filepath.SplitList(adviceCP) {
		fmt.Fprintf(h, "advice\x00%s\x00", p)
		hashPath(h, p)
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// hashPath writes a file's bytes, or a directory's files' names and bytes
// in name order, to h.
func hashPath(h hash.Hash, p string) {
	filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		f, err := os.Open(q)
		if err != nil {
			return nil
		}
		defer f.Close()
		rel, _ := filepath.Rel(p, q)
		fmt.Fprintf(h, "file\x00%s\x00", rel)
		io.Copy(h, f)
		return nil
	})
}

// cached runs make to fill dir unless a previous run completed it, under
// an exclusive lock so concurrent runs weave once. It returns the JDK
// summary if dir holds one.
func cached(dir string, make func() error) (*jdk.Summary, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); errors.Is(err, fs.ErrNotExist) {
		os.RemoveAll(dir) // a run that died half way
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := make(); err != nil {
			return nil, err
		}
		if err := os.WriteFile(done, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	sum := &jdk.Summary{}
	if b, err := os.ReadFile(filepath.Join(dir, "summary.json")); err == nil {
		if err := json.Unmarshal(b, sum); err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
	}
	return sum, nil
}

// lockFile takes an exclusive lock on the file (created if need be) and
// returns its release.
func lockFile(name string) (func(), error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
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
