package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	profile "github.com/weft-aop/weft/examples/profile"
	"github.com/weft-aop/weft/flame"
	"github.com/weft-aop/weft/launch"
)

// profileOptions are weft profile's flags.
type profileOptions struct {
	wovenRunOptions
	out             string
	cpu             bool
	maxNodes        int
	top             int
	writeFolded     bool
	pprof           string // --pprof FILE
	writeSpeedscope bool
	noTime          bool
	bytecodes       string // --bytecodes: "", default, precise
	time            string // --time: sampled, exact
	interval        int    // --interval, microseconds
	period          float64
	aspects         []string // woven with the profiler
	adviceCP        string
	jit             string
}

// profileRenamed are weft profile's flags of the spellings weft flame
// gives another meaning (a file to write).
var profileRenamed = renamedFlags{"folded": "--write-folded", "speedscope": "--write-speedscope"}

func newProfileCmd() *cobra.Command {
	opts := &profileOptions{}
	cmd := &cobra.Command{
		Use:   "profile [-o DIR] [--cpu] [--modules M] -- COMMAND ARGS...",
		Short: "Profile a program, the JDK included: calling contexts, calls, time, allocations; a flame graph",
		Long: `profile weaves the calling-context profiler of examples/profile into the
JDK and the program (as "weft run" does, cached), runs the command, and
writes to DIR (default ./weft-profile):

  profile.html            an interactive flame graph (open it in a browser)
  profile.cct             the calling-context tree, every metric (weft flame
                          reads it)
  summary.txt             threads, contexts, how time was measured

and with --write-folded one folded-stack file per metric (calls.folded ...: for
flamegraph.pl, speedscope or async-profiler's converter; large for deep
programs, as every path is spelled out), with --write-speedscope
profile.speedscope.json.

It prints the top frames by exclusive time: thread CPU time with --cpu,
else time in running code (run-ns: wall time less the time spent waiting
in blocking calls — wait, park, sleep, blocking reads — so that a thread
that only waits does not lead the list); a frame of the JDK's is followed
by the program's frame it runs under most.

With --bytecodes, each context also counts the bytecode instructions its
own code ran (bytecodes), as the JP profiler does: a count that is the same
on any machine, under any load and JIT, so two runs of a program give the
same profile and "weft diff" shows what a change cost. --bytecodes counts
by basic blocks that end at jumps, returns and throws (an instruction that
throws leaves the rest of its block counted, as if it ran);
--bytecodes=precise ends a block at every instruction that can throw too:
exact, at more counting. The top frames are then also ranked by bytecodes.

Per calling context: calls; wall time (wall-ns); the time its own code
spent waiting in the JDK's blocking calls (wait-ns); thread CPU time with
--cpu; objects, arrays and array elements allocated, as frames "new T"
below the context that allocates them. Counts are exact. Time is sampled
(--time sampled, the default): every --interval microseconds each running
thread's current context is charged the time since the last sample, so no
execution reads a clock. --time exact reads the clock at every entry and
exit instead and subtracts the profiler's own cost, calibrated at start-up
(wall-raw-ns is as measured): exact for long executions, at two clock
reads per execution. docs/profile.md explains the metrics and what each
way of timing cannot see.

The command may be java or another launcher of the JDK (javac, jshell...),
or any other program (mvn, ant, a script): every JVM it starts on the JDK
woven is profiled (docs/ltw.md, "Process trees"). A JVM other than the
command's own java writes its profile into DIR/jvms/MAIN-PID/ (its main
class or jar, its process id), each with its flame graph; --pprof and the
top frames are the command's own JVM's.

The JVM runs with C1 only by default (--jit c1): compiling the woven JDK
with C2 costs more CPU than its code saves on most runs, and C1 does not
inline the woven classes' advice helpers (it compiles half as much). C1
gets the compiler threads the JVM's own policy gives it (one up to fifteen
processors), not C2's as well: on two processors, two C1 threads compiling
at once took the program's processor. With --no-time, a leaf method
(leaf(): a getter, a setter, a loop over an array) is counted without
being entered: one advice call, not two. Counts are exact under every
policy; for long runs where wall time matters, --jit delayed
(C2 for what stays hot) or --jit stock (docs/profile.md has the figures).
It runs with the parallel collector unless the command chooses one
(-XX:+UseG1GC ...): G1's write barrier costs the profiler more; and, unless
the command sizes them, with an initial heap of a sixteenth of memory (at
most 1 GB) and a metadata threshold of 256 MB: the tree lives in the heap
and the woven JDK has more classes, so growing from javac's 8 MB took ten
full collections. A heap bound the command sets (-Xmx, -XX:MaxHeapSize,
-XX:MaxRAMPercentage) is raised by --tool-heap (1 GB) for the tree, its
young generation kept, so the program keeps the heap it sized for itself
(kotlinc's -Xmx256M).

Examples:

  weft profile -- java -cp app.jar Main
  weft profile -o /tmp/javac-prof -- javac -d /tmp/out Hello.java
  weft profile --modules java.base -- java -cp . Fib
  # machine-independent counts, and what a change did to them
  weft profile --no-time --bytecodes -o before -- java -cp app.jar Main
  weft profile --no-time --bytecodes -o after -- java -cp app2.jar Main
  weft diff --metric bytecodes before after
  # the test JVM Maven's surefire forks, the project's classes only
  weft profile --include 'com/acme/**' -- mvn -q test
  # with an aspect of yours woven too
  weft profile -a count.weft --advice-cp adv -- java -cp app.jar Main`,
		Args: javaCommand,
		RunE: func(cmd *cobra.Command, args []string) error { return runProfile(cmd, opts, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "out", "o", "weft-profile", "output directory")
	f.BoolVar(&opts.cpu, "cpu", false, "also measure thread CPU time per context (slower)")
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "an aspect of yours to weave with the profiler (repeatable)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of your aspects' advice classes")
	f.BoolVar(&opts.noTime, "no-time", false, "count only (calls, allocations): no time measured")
	f.StringVar(&opts.bytecodes, "bytecodes", "", `also count the bytecode instructions each context runs: "default" (blocks end at jumps, returns and throws), "precise" (also at every instruction that can throw)`)
	f.Lookup("bytecodes").NoOptDefVal = "default"
	f.StringVar(&opts.time, "time", "sampled", `how time is measured: "sampled" (each thread's current context every --interval), "exact" (a clock read at every entry and exit, the profiler's cost subtracted)`)
	f.IntVar(&opts.interval, "interval", 1000, "microseconds between samples of --time sampled")
	f.Float64Var(&opts.period, "period", 0, "also write the profile every SECONDS while the program runs (profile.cct, summary.txt)")
	f.IntVar(&opts.maxNodes, "max-nodes", 2000000, "contexts kept before new ones are folded into [folded]")
	f.IntVar(&opts.top, "top", 10, "print the N frames with the most exclusive time: CPU time with --cpu, else time in running code (wall time less waiting; not with --no-time); and with --bytecodes, by bytecodes")
	f.BoolVar(&opts.writeFolded, "write-folded", false, "also write one folded-stack file per metric into the output directory")
	f.BoolVar(&opts.writeSpeedscope, "write-speedscope", false, "also write profile.speedscope.json into the output directory")
	f.StringVar(&opts.pprof, "pprof", "", "also write the profile in pprof's format to `FILE` (go tool pprof, Pyroscope, Parca, the OpenTelemetry collector): one sample type per metric")
	f.StringVar(&opts.jit, "jit", "c1", `the JIT policy: "c1" (C1 only: the least compiling), "delayed" (C2 compiles later), "stock" (the JVM's own)`)
	addWovenRunFlags(f, &opts.wovenRunOptions, "all", "profile")
	addToolHeapFlag(f, &opts.toolHeap, profileToolHeap)
	cmd.SetFlagErrorFunc(flagErrorWithRenames(profileRenamed))
	return cmd
}

func runProfile(cmd *cobra.Command, opts *profileOptions, args []string) error {
	fl := opts
	timeEnv, err := profileTimeEnv(fl)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(fl.out)
	if err != nil {
		return err
	}
	os.Remove(filepath.Join(out, "profile.cct")) // no stale profile from an earlier run
	os.RemoveAll(filepath.Join(out, jvmsDir))
	env := []string{"WEFT_PROFILE_OUT=" + out, "WEFT_PROFILE_MAX_NODES=" + strconv.Itoa(fl.maxNodes)}
	if fl.cpu {
		env = append(env, "WEFT_PROFILE_CPU=true")
	}
	env = append(env, timeEnv...)
	count, err := bytecodesMode(fl.bytecodes)
	if err != nil {
		return err
	}
	if count != profile.NoBytecodes {
		env = append(env, "WEFT_PROFILE_BYTECODES=true")
	}
	if fl.period > 0 {
		env = append(env, "WEFT_PROFILE_PERIOD="+strconv.FormatFloat(fl.period, 'f', -1, 64))
	}
	t := launch.Tool{Advice: profiler(!fl.noTime, count), JIT: fl.jit, Collector: true, Env: env,
		JVMOptions: append(slices.Clone(profilerJVMOptions), "-Dprofile.out="+out)}
	top := fl.top
	if fl.noTime && count == profile.NoBytecodes {
		top = 0 // nothing measured to rank frames by (and no tree to read for it)
	}
	formats := profileFormats{fl.writeFolded, fl.writeSpeedscope, fl.pprof}
	cct := filepath.Join(out, "profile.cct")
	// The JVMs the command started besides its own wrote under jvms/: a
	// command that is not a java launcher has only those.
	var others []string
	run := func() (int, error) {
		r, err := runTool(cmd, args, fl.wovenRunOptions, t, fl.aspects, fl.adviceCP)
		if err == nil && r.OutOfMemory && !fileExists(cct) {
			err = fmt.Errorf("the profiler wrote nothing to %s: the JVM ran out of memory first (above)", out)
		}
		others = jvmOutputs(out, "profile.cct")
		return r.Code, err
	}
	if fl.period > 0 {
		// Snapshots rewrite the file while the program runs: it is read once the JVM has ended.
		code, err := run()
		if err != nil {
			return err
		}
		if len(others) == 0 || fileExists(cct) {
			if err := writeProfile(cmd.ErrOrStderr(), out, top, formats, fileSource(cct)); err != nil {
				return err
			}
		}
		if err := writeJVMProfiles(cmd.ErrOrStderr(), others, formats); err != nil {
			return err
		}
		return exitCode(code)
	}
	// The profiler writes the file once, as the JVM ends: weft reads it
	// as it is written, and makes the page meanwhile.
	ended := make(chan struct{})
	written := make(chan error, 1)
	var report bytes.Buffer
	var read *follower
	go func() { written <- writeProfile(&report, out, top, formats, followSource(cct, ended, &read)) }()
	code, err := run()
	close(ended)
	werr := <-written
	if err != nil {
		return err
	}
	if len(others) > 0 && !fileExists(cct) { // no profile of weft's own JVM: a script's
		report.Reset()
		werr = nil
	} else if read != nil && !read.Whole() {
		// Another JVM of the command rewrote the file while it was read:
		// the last one written is the profile, as it is without following.
		report.Reset()
		werr = writeProfile(&report, out, top, formats, fileSource(cct))
	}
	if werr != nil {
		return werr
	}
	if _, err := report.WriteTo(cmd.ErrOrStderr()); err != nil {
		return err
	}
	if err := writeJVMProfiles(cmd.ErrOrStderr(), others, formats); err != nil {
		return err
	}
	return exitCode(code)
}

// writeJVMProfiles writes the flame graph (and the formats asked for but
// pprof's one file) of each profile in dirs, those of the JVMs the command
// started, and says where they are.
func writeJVMProfiles(w io.Writer, dirs []string, formats profileFormats) error {
	if len(dirs) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nweft: %d JVM%s the command started, a profile each (named by main class and pid):\n", len(dirs), plural(len(dirs)))
	formats.pprof = ""
	for _, d := range dirs {
		if err := writeProfile(w, d, 0, formats, fileSource(filepath.Join(d, "profile.cct"))); err != nil {
			return err
		}
	}
	return nil
}

// profileTimeEnv returns the profiler's settings of how time is measured
// (--no-time, --time, --interval).
func profileTimeEnv(fl *profileOptions) ([]string, error) {
	if fl.noTime {
		return []string{"WEFT_PROFILE_TIME=false"}, nil
	}
	if fl.time != "sampled" && fl.time != "exact" {
		return nil, fmt.Errorf("--time %q: want sampled or exact", fl.time)
	}
	if fl.interval < 10 {
		return nil, fmt.Errorf("--interval %d: want 10 microseconds or more", fl.interval)
	}
	return []string{"WEFT_PROFILE_TIME=" + fl.time, "WEFT_PROFILE_INTERVAL=" + strconv.Itoa(fl.interval)}, nil
}

// bytecodesMode reads --bytecodes.
func bytecodesMode(v string) (profile.Bytecodes, error) {
	switch v {
	case "":
		return profile.NoBytecodes, nil
	case "default":
		return profile.DefaultBytecodes, nil
	case "precise":
		return profile.PreciseBytecodes, nil
	}
	return 0, fmt.Errorf("--bytecodes=%s: want default or precise (--bytecodes alone is default)", v)
}

// profiler is examples/profile, its aspect for a run that measures time
// or counts only (--no-time), and counts bytecodes or not (each has its
// woven JDK). Its calibration
// class is woven with it, so that the profiler can time its own whole
// cost per execution on it; its join point ids start far above those of
// the JDK and the program (they only need to be unique among the
// executions the profiler times while calibrating).
func profiler(timed bool, count profile.Bytecodes) launch.ToolAdvice {
	return launch.ToolAdvice{Name: "profile", Aspect: profile.Aspect(timed, count), Sources: profile.Sources(), Build: profile.Build,
		WeaveOwn: profile.CalibrationPackage, OwnIDBase: 1 << 30}
}

// profilerJVMOptions keep C2 from inlining the profiler's methods into the
// woven methods that call them: compiling them into every method costs
// more than the calls (docs/profile.md: javac, 40 against 49 CPU-s).
// "quiet" keeps the JVM from printing the command on the program's output.
var profilerJVMOptions = []string{"-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,weft.tools.profile.Profiler::*"}

// writeProfile renders the calling-context tree the profiler wrote into
// the flame graph (and folded stacks and speedscope JSON if asked), and
// prints where they are with the top frames. Without those, the page is
// streamed from the file, which the profiler writes in canonical order,
// without building the tree (flame.WriteCCTHTML); with them, or for a
// file in another order, it is written from the tree read once.
// profileFormats are the formats written besides the flame graph.
type profileFormats struct {
	folded, speedscope bool
	pprof              string // a file, "" for none
}

func (f profileFormats) any() bool { return f.folded || f.speedscope || f.pprof != "" }

// cctSource opens the profiler's calling-context file: the file as it is,
// or as the JVM writes it (followFile). Each call reads it from the start.
type cctSource func() (io.ReadCloser, error)

// fileSource opens the file at path as it is.
func fileSource(path string) cctSource {
	return func() (io.ReadCloser, error) { return os.Open(path) }
}

// followSource follows the file at path until done is closed; *last is
// the follower of the last call.
func followSource(path string, done <-chan struct{}, last **follower) cctSource {
	return func() (io.ReadCloser, error) {
		*last = followFile(path, done)
		return *last, nil
	}
}

func writeProfile(w io.Writer, dir string, top int, formats profileFormats, open cctSource) error {
	err := writeProfileFrom(w, dir, top, formats, open)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the profiler wrote nothing to %s (did the program run on the woven JDK?)", dir)
	}
	return err
}

func writeProfileFrom(w io.Writer, dir string, top int, formats profileFormats, open cctSource) error {
	cct := filepath.Join(dir, "profile.cct")
	html := filepath.Join(dir, "profile.html")
	if formats.any() || top > 0 {
		// The tree is read anyway: the page from it, one reading.
		if err := writeFromTree(w, open, cct, html, true, top, formats); err != nil {
			return err
		}
	} else if streamed, err := streamHTMLFrom(open, html, "weft profile"); err != nil {
		return err
	} else if !streamed {
		if err := writeFromTree(w, open, cct, html, true, 0, profileFormats{}); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nweft: profile in %s: open %s\n", dir, html)
	return nil
}

// streamHTML writes the flame graph of a calling-context file in canonical
// order to html, and reports false (writing nothing) for another file.
func streamHTML(cct, html, title string) (bool, error) {
	return streamHTMLFrom(fileSource(cct), html, title)
}

func streamHTMLFrom(open cctSource, html, title string) (bool, error) {
	in, err := open()
	if err != nil {
		return false, err
	}
	defer in.Close()
	// The page is made only once the file is found: a file that is not
	// there leaves no page behind.
	r := bufio.NewReaderSize(in, 1<<20)
	if _, err := r.Peek(1); err != nil && err != io.EOF {
		return false, err
	}
	err = writeFileWith(html, func(w io.Writer) error { return flame.WriteCCTHTML(w, r, title) })
	if errors.Is(err, flame.ErrNotCanonical) {
		return false, nil
	}
	return err == nil, err
}

// writeFromTree reads the calling-context file as a tree and writes what
// is asked from it: the page (if not streamed), speedscope JSON, folded
// stacks, the top frames by wall time.
func writeFromTree(w io.Writer, open cctSource, cct, html string, page bool, top int, formats profileFormats) error {
	in, err := open()
	if err != nil {
		return err
	}
	p, err := readCCT(in, cct)
	in.Close()
	if err != nil {
		return err
	}
	dir := filepath.Dir(cct)
	if page {
		if err := writeFileWith(html, func(w io.Writer) error { return flame.WriteHTML(w, p, "weft profile") }); err != nil {
			return err
		}
	}
	if formats.pprof != "" {
		if err := writeFileWith(formats.pprof, func(w io.Writer) error { return flame.WritePprof(w, p) }); err != nil {
			return err
		}
	}
	if formats.speedscope {
		ss := filepath.Join(dir, "profile.speedscope.json")
		if err := writeFileWith(ss, func(w io.Writer) error { return flame.WriteSpeedscope(w, p, "weft profile") }); err != nil {
			return err
		}
	}
	for m, name := range p.Metrics {
		if formats.folded {
			if err := writeFileWith(filepath.Join(dir, name+".folded"), func(w io.Writer) error { return flame.WriteFolded(w, p, m) }); err != nil {
				return err
			}
		}
	}
	if top <= 0 {
		return nil
	}
	if r, why, ok := flame.RunningRank(p); ok {
		fmt.Fprintf(w, "\nweft: the top frames, ranked by %s:\n", why)
		if err := flame.WriteTopBy(w, p, r, top); err != nil {
			return err
		}
	}
	if m := slices.Index(p.Metrics, "bytecodes"); m >= 0 {
		fmt.Fprintf(w, "\nweft: the top frames, ranked by the bytecode instructions they ran (bytecodes):\n")
		return flame.WriteTop(w, p, m, top)
	}
	return nil
}
