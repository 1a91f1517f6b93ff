package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/classfile"
	profile "github.com/weft-aop/weft/examples/profile"
	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver"
)

var profileFlags struct {
	out      string
	cpu      bool
	maxNodes int
	top      int
}

// profileMetrics are the profiler's folded files, in the order the flame
// graph offers them.
var profileMetrics = []string{"calls", "wall-ns", "wall-raw-ns", "cpu-ns", "objects", "arrays", "elements"}

var profileCmd = &cobra.Command{
	Use:   "profile [-o DIR] [--cpu] [--modules M] -- java ARGS...",
	Short: "Profile a program, the JDK included: calling contexts, calls, time, allocations; a flame graph",
	Long: `profile weaves the calling-context profiler of examples/profile into the
JDK and the program (as "weft run" does, cached), runs the command, and
writes to DIR (default ./weft-profile):

  profile.html            an interactive flame graph (open it in a browser)
  profile.speedscope.json the same for speedscope
  calls.folded ...        one folded-stack file per metric, for weft flame,
                          flamegraph.pl or speedscope
  summary.txt             threads, contexts, the calibrated cost

Per calling context: calls; wall time with the profiler's own cost
calibrated and subtracted (wall-ns; wall-raw-ns as measured); thread CPU
time with --cpu (costly: a system call per entry and exit); objects,
arrays and array elements allocated, as frames "new T" below the context
that allocates them. docs/profile.md explains the metrics and what the
compensation cannot remove.

The command may be java or another launcher of the JDK (javac, jshell...).

Examples:

  weft profile -- java -cp app.jar Main
  weft profile -o /tmp/javac-prof -- javac -d /tmp/out Hello.java
  weft profile --modules java.base -- java -cp . Fib`,
	Args: cobra.MinimumNArgs(1),
	RunE: runProfile,
}

func init() {
	f := profileCmd.Flags()
	f.StringVarP(&profileFlags.out, "out", "o", "weft-profile", "output directory")
	f.BoolVar(&profileFlags.cpu, "cpu", false, "also measure thread CPU time per context (slower)")
	f.IntVar(&profileFlags.maxNodes, "max-nodes", 2000000, "contexts kept before new ones are folded into [folded]")
	f.IntVar(&profileFlags.top, "top", 10, "print the N frames with the most exclusive time")
	f.StringVar(&runFlags.javaHome, "java-home", "", "the JDK (default: the one of the java command)")
	f.StringVar(&runFlags.modules, "modules", "all", `JDK modules to weave: "all" or a comma-separated list`)
	f.BoolVarP(&runFlags.verbose, "verbose", "v", false, "say what is woven and what comes from the cache")
	f.SetInterspersed(false)
	rootCmd.AddCommand(profileCmd)
}

func runProfile(cmd *cobra.Command, args []string) error {
	fl := &profileFlags
	home, err := jdkHome(runFlags.javaHome)
	if err != nil {
		return err
	}
	aspect, adv, err := buildProfiler(home)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(fl.out)
	if err != nil {
		return err
	}
	for _, m := range profileMetrics { // no stale metrics from an earlier run
		os.Remove(filepath.Join(out, m+".folded"))
	}
	runFlags.aspects, runFlags.adviceCP, runFlags.xlint = []string{aspect}, adv, "ignore"
	env := []string{"WEFT_PROFILE_OUT=" + out, "WEFT_PROFILE_MAX_NODES=" + strconv.Itoa(fl.maxNodes)}
	if fl.cpu {
		env = append(env, "WEFT_PROFILE_CPU=true")
	}
	code, err := runWoven(cmd, args, env)
	if err != nil {
		return err
	}
	if err := writeProfile(cmd.ErrOrStderr(), out, fl.top); err != nil {
		return err
	}
	os.Exit(code)
	return nil
}

// buildProfiler writes the profiler's aspect and compiled advice into the
// cache (both named by their content) and returns their paths.
func buildProfiler(home string) (aspect, adv string, err error) {
	classes, err := profile.Build(home, cacheRoot())
	if err != nil {
		return "", "", fmt.Errorf("building the profiler: %v", err)
	}
	key := rtjava.SourcesHash(profile.Sources(), profile.Aspect())
	aspect = filepath.Join(cacheRoot(), "profile-"+key+".weft")
	adv = filepath.Join(cacheRoot(), "profile-"+key+"-advice")
	if _, err := os.Stat(aspect); err != nil {
		if err := os.WriteFile(aspect, profile.Aspect(), 0o644); err != nil {
			return "", "", err
		}
	}
	if _, err := os.Stat(adv); err != nil {
		tmp := adv + ".tmp" + strconv.Itoa(os.Getpid())
		defer os.RemoveAll(tmp)
		if err := archive.WriteClasses(tmp, archive.Dir, classes); err != nil {
			return "", "", err
		}
		if err := weaveCalibration(home, aspect, tmp, adv); err != nil {
			return "", "", fmt.Errorf("weaving the profiler's calibration class: %v", err)
		}
	}
	return aspect, adv, nil
}

// calibrationIDBase starts the join point ids of the calibration class,
// far above those of the JDK and the program (the ids only need to be
// unique among the executions the profiler times while calibrating).
const calibrationIDBase = 1 << 30

// weaveCalibration weaves the advice directory in with the profile aspect
// into out: the aspect leaves package profile out, so only the calibration
// class (profile.calibrate) is woven, and the profiler can time its own
// whole cost per execution on it.
func weaveCalibration(home, aspect, in, out string) error {
	srcs, err := classfile.OpenClassPath(in, home)
	if err != nil {
		return err
	}
	img, err := classfile.OpenJDK(home)
	if err != nil {
		return err
	}
	srcs = append(srcs, img)
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	h := weaver.NewMethodHierarchy(classfile.NewHierarchy(srcs...), srcs...)
	prog, err := loadAspects(io.Discard, []string{aspect}, pointcut.Options{AdviceCP: in, Hierarchy: h, JavaHome: home})
	if err != nil {
		return err
	}
	w := weaver.New(prog, prog.Advice(), weaver.Options{Hierarchy: h, IDBase: calibrationIDBase})
	tmp := out + ".woven" + strconv.Itoa(os.Getpid())
	if _, err := w.WeavePath(in, tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.RemoveAll(tmp)
		if !fileExists(out) { // another weft made it first
			return err
		}
	}
	return nil
}

// writeProfile renders the folded files the profiler wrote into the flame
// graph and speedscope JSON, and prints where they are with the top frames.
func writeProfile(w io.Writer, dir string, top int) error {
	var args []string
	for _, m := range profileMetrics {
		if p := filepath.Join(dir, m+".folded"); fileExists(p) {
			args = append(args, m+"="+p)
		}
	}
	if len(args) == 0 {
		return fmt.Errorf("the profiler wrote nothing to %s (did the program run on the woven JDK?)", dir)
	}
	p, err := readFolded(args)
	if err != nil {
		return err
	}
	html := filepath.Join(dir, "profile.html")
	if err := writeFileWith(html, func(w io.Writer) error { return flame.WriteHTML(w, p, "weft profile") }); err != nil {
		return err
	}
	ss := filepath.Join(dir, "profile.speedscope.json")
	if err := writeFileWith(ss, func(w io.Writer) error { return flame.WriteSpeedscope(w, p, "weft profile") }); err != nil {
		return err
	}
	if top > 0 {
		for m, name := range p.Metrics {
			if name == "wall-ns" {
				fmt.Fprintln(w)
				flame.WriteTop(w, p, m, top)
			}
		}
	}
	fmt.Fprintf(w, "\nweft: profile in %s: open %s\n", dir, html)
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
