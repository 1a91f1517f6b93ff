package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	leak "github.com/weft-aop/weft/examples/leak"
	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/launch"
)

// leakOptions are weft leak's flags.
type leakOptions struct {
	wovenRunOptions
	out    string
	depth  int
	sample int
	window int
	rate   int64
	period float64
	jit    string
	pprof  string // --pprof FILE
}

func newLeakCmd() *cobra.Command {
	opts := &leakOptions{}
	cmd := &cobra.Command{
		Use:   "leak [-o DIR] [--sample N] [--depth N] -- COMMAND ARGS...",
		Short: "Find memory leaks, the JDK included: allocation sites whose live objects keep growing, in context",
		Long: `leak weaves the leak tracker of examples/leak into the JDK and the program
(as "weft run" does, cached), runs the command, prints the report and
writes to DIR (default ./weft-leak):

  leak.txt                the report: the contexts whose live objects keep
                          growing, most growth first, then the most live bytes
  leak.json               the same for tools, with each context's history
  live.folded             folded stacks of the live objects (objects, bytes:
  live-bytes.folded       live-bytes.folded), for weft flame
  leak.html               their flame graph

Every object and array allocation of the program and of the JDK is counted
in its context: the site, the innermost --depth executions around it, and
further out to the nearest execution of the program's own code (outside
the JDK, at most 64 frames), so that an allocation inside the JDK is named
by the program's code that made it; frames Java's stack traces hide
(lambda forms, lambda proxies) are left out, as there.
Allocations tracked hold a weak reference each (never keeping an object
alive); after each collection the live objects of each context are
sampled. A context is growing when its live objects rose steadily, by at
least 16 objects and four tracked ones (a rise of one or two is sampling's
noise), over the last --window points of its history, spaced by the
program's allocations (not by collections): they span about the last half
of the run or more (docs/leak.md says how exactly). The tracker
tracks every allocation until they come faster than --rate per second,
then halves the share it tracks as often as needed (live counts are
weighted by it); --sample N tracks one in N from the start.

The JVM runs with C1 only by default (--jit c1), as weft profile's does:
compiling the woven JDK with C2 costs more than it saves on all but long
runs (javac compiling 120 files: 37 against 18 CPU-s, docs/leak.md);
--jit delayed or --jit stock for long runs. With c1, C1 does not inline
the woven classes' advice helpers either (it compiles half as much), and
has the compiler threads the JVM's own policy gives it.

Samples are taken after collections only: a program that runs for too
short a time or with a large heap gets too few; run it longer or with a
smaller heap (-Xmx). The tracker's data lives in the program's heap: a
bound the command sets (-Xmx, -XX:MaxHeapSize, -XX:MaxRAMPercentage) is
raised by --tool-heap (32 MB: more would make collections, and so samples,
rarer) for it, its young generation kept, so the program keeps what it
asked for.

The command may be any program: every JVM it starts on the JDK woven is
tracked, one other than the command's own java into DIR/jvms/MAIN-PID/
(its main class or jar, its process id), each report printed.

Examples:

  weft leak -- java -Xmx64m -cp app.jar Main
  weft leak -o /tmp/leaks --sample 16 -- java -jar server.jar
  weft flame /tmp/leaks/live-bytes.folded --top 20`,
		Args: javaCommand,
		RunE: func(cmd *cobra.Command, args []string) error { return runLeak(cmd, opts, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "out", "o", "weft-leak", "output directory")
	f.IntVar(&opts.depth, "depth", 4, "innermost executions of calling context kept per allocation (and on out to the program's nearest)")
	f.IntVar(&opts.sample, "sample", 0, "track one allocation in N (0: every one while --rate allows)")
	f.IntVar(&opts.window, "window", 8, "points of history the growth test looks back over (at least 4; they span about the last half of the run or more)")
	f.Int64Var(&opts.rate, "rate", 500000, "tracked allocations per second before sampling starts (without --sample)")
	f.Float64Var(&opts.period, "period", 0, "also write the report every SECONDS while the program runs")
	f.StringVar(&opts.jit, "jit", "c1", `the JIT policy: "c1" (C1 only: the least compiling), "delayed" (C2 compiles later), "stock" (the JVM's own)`)
	f.StringVar(&opts.pprof, "pprof", "", "also write the live objects' contexts in pprof's format to `FILE` (live objects and bytes)")
	addWovenRunFlags(f, &opts.wovenRunOptions, "all", "track")
	addToolHeapFlag(f, &opts.toolHeap, leakToolHeap)
	return cmd
}

func runLeak(cmd *cobra.Command, opts *leakOptions, args []string) error {
	fl := opts
	out, err := filepath.Abs(fl.out)
	if err != nil {
		return err
	}
	os.Remove(filepath.Join(out, "leak.txt")) // no stale report from an earlier run
	os.RemoveAll(filepath.Join(out, jvmsDir))
	env := []string{
		"WEFT_LEAK_OUT=" + out,
		"WEFT_LEAK_DEPTH=" + strconv.Itoa(fl.depth),
		"WEFT_LEAK_SAMPLE=" + strconv.Itoa(fl.sample),
		"WEFT_LEAK_WINDOW=" + strconv.Itoa(fl.window),
		"WEFT_LEAK_RATE=" + strconv.FormatInt(fl.rate, 10),
		"WEFT_LEAK_PERIOD=" + strconv.FormatFloat(fl.period, 'f', -1, 64),
		"WEFT_LEAK_QUIET=true", // weft prints the report itself
	}
	tracker := launch.ToolAdvice{Name: "leak", Aspect: leak.Aspect(), Sources: leak.Sources(), Build: leak.Build}
	t := launch.Tool{Advice: tracker, JIT: fl.jit, Env: env, JVMOptions: []string{"-Dleak.out=" + out}}
	r, err := runTool(cmd, args, fl.wovenRunOptions, t, nil, "")
	if err != nil {
		return err
	}
	// The JVMs the command started besides its own wrote under jvms/: a
	// command that is not a java launcher has only those.
	others := jvmOutputs(out, "leak.txt")
	own := len(others) == 0 || fileExists(filepath.Join(out, "leak.txt"))
	if own && r.OutOfMemory && !fileExists(filepath.Join(out, "leak.txt")) {
		return fmt.Errorf("the leak tracker wrote no report to %s: the JVM ran out of memory first (above)", out)
	}
	if own {
		if err := writeLeakReport(cmd.ErrOrStderr(), out, fl.pprof); err != nil {
			return err
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "\nweft: %d JVM%s the command started, a report each (named by main class and pid):\n", len(others), plural(len(others)))
		for _, d := range others {
			if err := writeLeakReport(cmd.ErrOrStderr(), d, ""); err != nil {
				return err
			}
		}
	}
	return exitCode(r.Code)
}

// writeLeakReport prints the tracker's report and renders its folded
// stacks of live objects as a flame graph, and in pprof's format to the
// file pprof if given.
func writeLeakReport(w io.Writer, dir, pprof string) error {
	report, err := os.ReadFile(filepath.Join(dir, "leak.txt"))
	if err != nil {
		return fmt.Errorf("the leak tracker wrote no report to %s (did the program run on the woven JDK?)", dir)
	}
	fmt.Fprintf(w, "\n%s", report)
	p, err := readFolded([]string{"live=" + filepath.Join(dir, "live.folded"), "live-bytes=" + filepath.Join(dir, "live-bytes.folded")})
	if err != nil {
		return err
	}
	html := filepath.Join(dir, "leak.html")
	if err := writeFileWith(html, func(w io.Writer) error { return flame.WriteHTML(w, p, "weft leak: live objects") }); err != nil {
		return err
	}
	if pprof != "" {
		if err := writeFileWith(pprof, func(w io.Writer) error { return flame.WritePprof(w, p) }); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nweft: leak report in %s (leak.txt, leak.json; live objects' flame graph: %s)\n", dir, html)
	return nil
}
