package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/weft-aop/weft/weaver/scope"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
)

// jdkOptions are weft jdk's flags.
type jdkOptions struct {
	aspects  []string
	adviceCP string
	javaHome string
	modules  string
	out      string
	image    string
	quiet    bool
	dirs     bool
	xlint    lintLevel
	scope    scopeOptions
}

func newJDKCmd() *cobra.Command {
	opts := &jdkOptions{}
	cmd := &cobra.Command{
		Use:   "jdk -a ASPECT... --advice-cp CP [--java-home H] [--modules all|M,...] [--Xlint ignore] (-o DIR | --image IMG)",
		Short: "Weave the JDK's own modules (java.base included) into a runtime image or patches for java",
		Long: `jdk weaves the classes of the JDK's modules, read from its modules image,
on all cores, and writes what the JVM needs to run them in place of the
originals:

  DIR/patch/<module>.jar  woven classes and their sister classes (with
                          --patch-dirs: a class tree DIR/patch/<module>/); java.base
                          also gets weft's JDK-mode runtime (package weft.rt),
                          a java.lang.Thread with the per-thread bypass field
                          and a java.lang.System that ends bootstrap
  DIR/weft.args           options for java @DIR/weft.args: --patch-module per
                          module, the advice on -Xbootclasspath/a, the
                          --add-reads/--add-exports the woven code needs
  DIR/weft.jargs          the same options for the JDK's other launchers
                          (javac, jar, jshell...), one -J option a line:
                          javac $(cat DIR/weft.jargs) ...
  DIR/summary.json        classes and methods woven per module, classes left
                          unwoven and why, advised intrinsic methods

Each "declare warning" and "declare error" of the aspects is reported at
every join point of the JDK its pointcut selects; a declare error fails the
command before anything is written.

The advice classes must be on --advice-cp: the woven JDK calls them from
the boot class path. Advice that advised no join point of the modules
woven is warned of as ajc does ("advice defined in A has not been applied
[Xlint:adviceDidNotMatch]"); --Xlint ignore silences it.

Woven code runs the original bodies until System.initPhase3 returns (the
bootstrap flag) and inside advice (the per-thread flag, inherited by threads
the advice starts), so advice may use the whole class library.

Methods annotated @IntrinsicCandidate may be replaced by the VM with
intrinsics that skip their woven body: jdk lists those it advised, since
counts there can be partial. Empty finalize() methods are never woven
(docs/jdk.md lists the exclusions and why).

Patching the JDK disables class data sharing: start-up is slower. With
--image IMG, jdk links a complete runtime image instead (with jlink, from
the JDK's jmods/ or, for a JDK without them such as JDK 25, from jmods
rebuilt from its image): IMG/bin/java and the image's other launchers run the
woven JDK with no options, read every class from one modules image and
map a class data sharing archive made for it. The advice classes are
copied into IMG/lib/weft/advice.jar, the summary to
IMG/lib/weft/summary.json; with -o too, the patches are kept there.

Examples:

  # count every method execution of the JDK
  weft jdk -a count.weft --advice-cp build/advice -o /tmp/wjdk
  java @/tmp/wjdk/weft.args -cp app.jar Main
  javac $(cat /tmp/wjdk/weft.jargs) -d out Hello.java

  # a woven runtime image
  weft jdk -a count.weft --advice-cp build/advice --image /tmp/wimg
  /tmp/wimg/bin/java -cp app.jar Main
  /tmp/wimg/bin/javac -d out Hello.java

  # only java.base, with a given JDK
  weft jdk -a alloc.weft --advice-cp adv.jar --modules java.base \
      --java-home /usr/lib/jvm/java-17-openjdk-amd64 -o /tmp/wbase`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl := opts
			if fl.out == "" && fl.image == "" {
				return fmt.Errorf("jdk: -o DIR or --image IMG is required")
			}
			home, err := jdkHome(fl.javaHome)
			if err != nil {
				return err
			}
			if ents, err := os.ReadDir(fl.image); fl.image != "" && err == nil && len(ents) > 0 {
				return fmt.Errorf("jdk: --image %s: not empty: the image directory must be new", fl.image)
			}
			out := fl.out
			if out == "" { // the patches are the image's input only
				if out, err = os.MkdirTemp("", "weft-jdk-"); err != nil {
					return err
				}
				defer os.RemoveAll(out)
			}
			prog, _, err := resolveAdvice(cmd.ErrOrStderr(), home, fl.aspects, fl.adviceCP, nil)
			if err != nil {
				return err
			}
			sc, err := fl.scope.build()
			if err != nil {
				return err
			}
			modules, err := expandModules(home, fl.modules)
			if err != nil {
				return err
			}
			sum, applied, err := weaveJDK(jdkJob{matcher: prog, advice: prog.Advice(), adviceCP: fl.adviceCP, javaHome: home,
				modules: modules, scope: sc, out: out, progress: !fl.quiet, dirs: fl.dirs, diag: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			if fl.image != "" {
				if err := buildImage(cmd.ErrOrStderr(), home, out, fl.image, fl.adviceCP, !fl.quiet); err != nil {
					return err
				}
			}
			if !fl.quiet {
				printJDKSummary(cmd.ErrOrStderr(), fl.out, fl.image, sum)
			}
			lintAdviceDidNotMatch(cmd.ErrOrStderr(), fl.xlint, prog.Advice(), applied)
			reportScope(cmd.ErrOrStderr(), sc)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK to weave")
	f.StringVar(&opts.modules, "modules", "all", `modules to weave: "all" or a comma-separated list of names or globs (java.*, !jdk.jfr)`)
	addScopeFlags(f, &opts.scope)
	f.StringVarP(&opts.out, "out", "o", "", "output directory (patches and @argfile)")
	f.StringVar(&opts.image, "image", "", "link a woven runtime image into this new directory")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar nor summary")
	f.BoolVar(&opts.dirs, "patch-dirs", false, "write DIR/patch/<module>/ class trees instead of DIR/patch/<module>.jar")
	addLintFlag(f, &opts.xlint)
	cmd.MarkFlagRequired("aspect")
	return cmd
}

// jdkHeapLimit is the soft limit of the Go heap while weaving the JDK.
const jdkHeapLimit = 320 << 20

// jdkJob is one weaving of the JDK.
type jdkJob struct {
	matcher  advice.Matcher // the aspects, resolved (resolveAdvice)
	advice   []*advice.Advice
	adviceCP string // put on the boot class path
	javaHome string
	modules  string       // "all" or M,M...
	scope    *scope.Scope // the classes that may be woven, nil for all
	out      string
	progress bool      // a progress bar when stderr is a terminal
	dirs     bool      // class trees instead of jars
	diag     io.Writer // declare warnings and errors; nil: stderr
}

// weaveJDK weaves the JDK as the job says into job.out, and tells which
// advice advised a join point there.
func weaveJDK(job jdkJob) (*jdk.Summary, appliedAdvice, error) {
	home := job.javaHome
	// Weaving the JDK allocates a lot of short-lived garbage: letting the
	// heap grow further between collections saves about a sixth of the CPU
	// time. Its live heap stays near 100 MB (modules are written as they
	// complete): the limit keeps the heap, and the process's resident set,
	// under half a gigabyte, which GC percent 400 alone overshot (0.75 GB).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(jdkHeapLimit))
	var mods []string
	if job.modules != "" && job.modules != "all" {
		mods = strings.Split(job.modules, ",")
	}
	srcs, err := classfile.OpenClassPath(job.adviceCP, home)
	if err != nil {
		return nil, nil, err
	}
	img, err := classfile.OpenJDK(home)
	if err != nil {
		return nil, nil, err
	}
	srcs = append(srcs, img)
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	h := weaver.NewMethodHierarchy(classfile.NewHierarchy(srcs...), srcs...)
	x := &jdk.Exclusions{}
	w := weaver.New(job.matcher, job.advice, weaver.Options{Hierarchy: h, Mode: weaver.JDK, Exclude: x.Excluded,
		SharedEntries: true, Scope: job.scope})
	diag := job.diag
	if diag == nil {
		diag = os.Stderr
	}
	checked := declaresErrors(job.matcher)
	if checked {
		// A declare error must leave nothing written: check first.
		woven, err := classfile.OpenJDK(home, mods...)
		if err != nil {
			return nil, nil, err
		}
		ds, err := checkImage(woven, w, x)
		woven.Close()
		if err != nil {
			return nil, nil, err
		}
		if n := reportDeclared(diag, ds); n > 0 {
			return nil, nil, errDeclared(n)
		}
	}
	if err := os.MkdirAll(job.out, 0o755); err != nil {
		return nil, nil, err
	}
	out, err := filepath.Abs(job.out)
	if err != nil {
		return nil, nil, err
	}
	rt, err := jdk.BuildRuntime(home, rtCache())
	if err != nil {
		return nil, nil, err
	}
	var boot []string
	for _, p := range filepath.SplitList(job.adviceCP) {
		if p != "" {
			a, err := filepath.Abs(p)
			if err != nil {
				return nil, nil, err
			}
			boot = append(boot, a)
		}
	}
	applied := appliedAdvice{}
	var declared []weaver.Declared
	var mu sync.Mutex
	onResult := func(res *weaver.Result) {
		if len(res.Shadows) > 0 || len(res.Declared) > 0 {
			mu.Lock()
			applied.add(res.Shadows)
			declared = append(declared, res.Declared...)
			mu.Unlock()
		}
	}
	opts := jdk.Options{JavaHome: home, Modules: mods, Out: out, Weaver: jdk.Aspects{W: w, OnResult: onResult},
		Exclusions: x, Runtime: rt, BootAppend: boot, NextID: w.NextID, Jars: !job.dirs, CacheDir: rtCache()}
	// The bar redraws its line: on a terminal only.
	if term, ok := diag.(*os.File); ok && job.progress && isTerminal(term) {
		bar := &progressBar{w: term, start: time.Now()}
		opts.Progress = bar.update
		defer bar.done()
	}
	sum, err := jdk.WeaveModules(opts)
	if err == nil && !checked {
		sortDeclared(declared)
		reportDeclared(diag, declared)
	}
	return sum, applied, err
}

// printJDKSummary tells what was woven, what not, and where counts can be
// partial.
func printJDKSummary(w io.Writer, dir, image string, sum *jdk.Summary) {
	classes, woven, methods := sum.Totals()
	fmt.Fprintf(w, "weft: wove %d of %d classes (%d methods) in %d module%s in %.1fs\n",
		woven, classes, methods, len(sum.Modules), plural(len(sum.Modules)), sum.Seconds)
	if n := len(sum.Warnings); n > 0 {
		fmt.Fprintf(w, "weft: %d methods left unwoven (e.g. over 64 KB once woven): see \"warnings\" in %s\n",
			n, summaryPath(dir, image))
	}
	for _, u := range sum.Unwoven {
		fmt.Fprintf(w, "weft: warning: %s: %s left unwoven: %s\n", u.Module, u.Class, u.Reason)
	}
	if n := len(sum.Intrinsics); n > 0 {
		fmt.Fprintf(w, "weft: %d advised methods are intrinsic candidates: the VM may skip their woven body, so advice there can miss calls:\n", n)
		for _, m := range sum.Intrinsics {
			fmt.Fprintf(w, "  %s\n", m)
		}
	}
	if image != "" {
		fmt.Fprintf(w, "weft: run with: %s ...   (other launchers: %s ...)\n",
			filepath.Join(image, "bin", "java"), filepath.Join(image, "bin", "javac"))
	}
	if dir != "" {
		fmt.Fprintf(w, "weft: run with: java @%s ...   (other launchers: javac $(cat %s) ...)\n",
			filepath.Join(dir, "weft.args"), filepath.Join(dir, "weft.jargs"))
	}
}

// summaryPath is where weft jdk wrote the summary: in the output
// directory, else in the image.
func summaryPath(dir, image string) string {
	if dir == "" {
		return filepath.Join(image, imageSummary)
	}
	return filepath.Join(dir, "summary.json")
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "[=====>    ] 12345/26588 classes" on one line.
type progressBar struct {
	w     io.Writer
	start time.Time
	drawn bool
}

func (p *progressBar) update(done, total int) {
	const width = 40
	n := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\rweaving [%s%s] %d/%d classes %.1fs", strings.Repeat("=", n), strings.Repeat(" ", width-n),
		done, total, time.Since(p.start).Seconds())
	p.drawn = true
}

func (p *progressBar) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
