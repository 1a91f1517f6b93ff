package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	recrash "github.com/weft-aop/weft/examples/recrash"
	"github.com/weft-aop/weft/launch"
)

// recrashOptions are weft recrash's flags.
type recrashOptions struct {
	wovenRunOptions
	out       string
	jdkFrames bool
	depth     int
	frames    int
	method    string
	junit     string
}

// recrashRenamed are weft recrash's flags of the spellings weft classfile
// rewrite gives another meaning.
var recrashRenamed = renamedFlags{"frames": "--max-frames"}

func newRecrashCmd() *cobra.Command {
	opts := &recrashOptions{}
	cmd := &cobra.Command{
		Use:   "recrash [-o DIR] [--jdk-frames] [--depth N] -- COMMAND ARGS...",
		Short: "Run a program recording each thread's calls; turn each crash into unit tests that reproduce it",
		Long: `recrash weaves the ReCrash recorder of examples/recrash into the program
(and, with --jdk-frames, into the JDK's code as well) and runs it. Each
thread keeps a shadow stack of the receiver and arguments of its active
methods. When an exception escapes a thread (or, with --method, that
method), the stack where it was thrown is saved to DIR (default
./weft-recrash), one frame at a time, and after the run weft writes one
test per frame that loads the frame's receiver and arguments, calls the
method again and expects the same exception from the same method. It
compiles and runs them, drops those that do not reproduce the crash, and
says which do:

  DIR/crashN/crash.json   the crash: thread, exception, frames
  DIR/crashN/frameK.ser   frame K's receiver and arguments (innermost 0)
  DIR/tests/*.java        the tests that reproduce it (JUnit 4, each also
                          a program: java -cp ... CrashN_K_..._Test)
  DIR/summary.txt         what reproduces, what was dropped and why

Arguments are copied on entry as --depth says: 0 (shallow) keeps objects
by reference and clones arrays of up to 1000 elements; N > 0 copies
objects field by field N levels deep. docs/recrash.md explains how the
state is saved and what cannot be. The program runs with the parallel
collector unless its command chooses one (-XX:+UseG1GC ...): G1's write
barrier costs the recorder more.

The command may be any program: a JVM it starts on the JDK woven, other
than the command's own java, records its crashes into DIR/jvms/MAIN-PID/
(its main class or jar, its process id); no tests are made for those.

Examples:

  weft recrash -- java -cp app.jar Main
  weft recrash --jdk-frames -o /tmp/crash -- java -cp app Main
  weft recrash --depth 2 --method com.example.Parser.parse -- java -cp app Main`,
		Args: javaCommand,
		RunE: func(cmd *cobra.Command, args []string) error { return runRecrash(cmd, opts, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "out", "o", "weft-recrash", "output directory")
	f.BoolVar(&opts.jdkFrames, "jdk-frames", false, "record the JDK's methods too (those of the woven modules)")
	f.IntVar(&opts.depth, "depth", 0, "copy receivers and arguments this many levels deep on entry (0: shallow)")
	f.IntVar(&opts.frames, "max-frames", 50, "innermost frames saved (and tested) per crash")
	f.StringVar(&opts.method, "method", "", "also save a crash when an exception escapes this method (pkg.Class.name)")
	f.StringVar(&opts.junit, "junit", defaultJUnit(), "JUnit 4's class path for the tests (empty: plain programs)")
	addWovenRunFlags(f, &opts.wovenRunOptions, "java.base", "record")
	addToolHeapFlag(f, &opts.toolHeap, recrashToolHeap)
	cmd.SetFlagErrorFunc(flagErrorWithRenames(recrashRenamed))
	return cmd
}

// defaultJUnit is Debian's junit4 and hamcrest, if installed.
func defaultJUnit() string {
	jars := []string{"/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"}
	for _, j := range jars {
		if !fileExists(j) {
			return ""
		}
	}
	return launch.JoinClassPath(jars...)
}

// The recorder's outputs in DIR; an earlier run's are removed first.
var recrashOutputs = []string{"tests", "classes", "summary.txt", jvmsDir}

func runRecrash(cmd *cobra.Command, opts *recrashOptions, args []string) error {
	fl := opts
	out, err := filepath.Abs(fl.out)
	if err != nil {
		return err
	}
	if err := clearRecrash(out); err != nil {
		return err
	}
	env := []string{"WEFT_RECRASH_OUT=" + out, "WEFT_RECRASH_DEPTH=" + strconv.Itoa(fl.depth),
		"WEFT_RECRASH_FRAMES=" + strconv.Itoa(fl.frames), "WEFT_RECRASH_METHOD=" + fl.method}
	// A scope never leaves out where the recorder sees a thread end by an
	// exception.
	fl.wovenRunOptions.scope.Keep = []string{"java/lang/Thread"}
	// The recorder stores references into its per-thread arrays at every
	// call: the parallel collector's write barrier, a card mark, costs it
	// less than G1's (docs/recrash.md, Cost), as for weft profile.
	recorder := launch.ToolAdvice{Name: "recrash", Aspect: recrash.Aspect(fl.jdkFrames, fl.depth > 0), Sources: recrash.Sources(), Build: recrash.Build}
	t := launch.Tool{Advice: recorder, Collector: true, Env: env, JVMOptions: []string{"-Drecrash.out=" + out}}
	r, err := runTool(cmd, args, fl.wovenRunOptions, t, nil, "")
	if err != nil {
		return err
	}
	crashes, err := readCrashes(out)
	if err != nil {
		return err
	}
	v := verifier{home: r.JavaHome, dir: out, appCP: strings.Join(r.ClassPath, string(filepath.ListSeparator)), junit: fl.junit}
	if err := v.run(crashes); err != nil {
		return err
	}
	if err := writeRecrashSummary(cmd.ErrOrStderr(), out, crashes); err != nil {
		return err
	}
	// The JVMs the command started besides its own: their crashes are
	// recorded, under jvms/, with no tests made (their class path is
	// theirs, not the command's).
	for _, d := range jvmOutputs(out, "crash1") {
		fmt.Fprintf(cmd.ErrOrStderr(), "weft: a JVM the command started recorded crashes in %s (no tests made for them)\n", d)
	}
	return exitCode(r.Code)
}

// recrashMark marks a directory weft recrash made: only such a directory
// is cleared for a new run.
const recrashMark = ".weft-recrash"

// clearRecrash readies dir for a run: made and marked if new or empty;
// if marked, what an earlier run left there is removed (its crashes,
// tests and summary, nothing else); otherwise it is refused, as it may
// hold the user's own tests/ or classes/.
func clearRecrash(dir string) error {
	if names, err := os.ReadDir(dir); err == nil && len(names) > 0 && !fileExists(filepath.Join(dir, recrashMark)) {
		return fmt.Errorf("recrash: %s is not empty and not weft recrash's output: choose another -o", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, recrashMark), nil, 0o644); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "crash*", "crash.json"))
	for _, c := range old {
		if err := os.RemoveAll(filepath.Dir(c)); err != nil {
			return err
		}
	}
	for _, o := range recrashOutputs {
		if err := os.RemoveAll(filepath.Join(dir, o)); err != nil {
			return err
		}
	}
	return nil
}

// A crash is what the recorder saved of an exception that escaped a
// thread (crashN/crash.json).
type crash struct {
	Dir       string `json:"-"` // crashN
	Thread    string `json:"thread"`
	Why       string `json:"why"`
	Exception string `json:"exception"`
	Message   string `json:"message"`
	ThrownAt  string `json:"thrownAt"` // pkg.Class.method of the innermost frame of the exception
	Trace     string `json:"trace"`
	Unkept    int    `json:"unkept"` // frames deeper than the recorder keeps
	Frames    []*frame
}

// A frame is one active method or constructor at the throw point.
type frame struct {
	Kind        string   `json:"kind"`
	Class       string   `json:"class"`
	Name        string   `json:"name"`
	Params      []string `json:"params"`
	Static      bool     `json:"static"`
	Location    string   `json:"location"`
	State       string   `json:"state"`  // frameK.ser, "" if not captured
	Values      []string `json:"values"` // receiver's and arguments' classes
	Direct      bool     `json:"direct"` // the test may call it by name
	ClassSource string   `json:"classSource"`
	ParamSource []string `json:"paramSource"`
	Module      string   `json:"module"` // module/package, if in a named module
	Notes       []string `json:"notes"`

	// Set by the verifier.
	Test    string // the test's class name, "" if none was written
	Outcome string // "reproduces", or why the test was dropped
}

// signature is the frame's member as Java writes it: Class.name(types).
func (f *frame) signature() string {
	return f.Class + "." + f.Name + "(" + strings.Join(f.Params, ", ") + ")"
}

// readCrashes reads the crashes saved in dir, in the order they were.
func readCrashes(dir string) ([]*crash, error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "crash*", "crash.json"))
	num := func(p string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(p)), "crash"))
		return n
	}
	sort.Slice(paths, func(i, j int) bool { return num(paths[i]) < num(paths[j]) })
	var out []*crash
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		c := &crash{Dir: filepath.Base(filepath.Dir(p))}
		if err := json.Unmarshal(b, c); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// writeRecrashSummary writes DIR/summary.txt and tells the user, briefly,
// which tests reproduce which crash.
func writeRecrashSummary(w io.Writer, dir string, crashes []*crash) error {
	var full, short strings.Builder
	for _, c := range crashes {
		head := fmt.Sprintf("%s: %s: %s: %s, thrown in %s\n", c.Dir, c.Why, c.Exception, c.Message, c.ThrownAt)
		full.WriteString(head)
		short.WriteString("  " + head)
		reproduced := 0
		for k, f := range c.Frames {
			fmt.Fprintf(&full, "  frame %d %s (%s)", k, f.signature(), f.Location)
			if f.Test != "" {
				fmt.Fprintf(&full, ": %s %s", f.Test, f.Outcome)
			} else {
				fmt.Fprintf(&full, ": no test: %s", f.Outcome)
			}
			full.WriteString("\n")
			for _, n := range f.Notes {
				fmt.Fprintf(&full, "    %s\n", n)
			}
			if f.Outcome == reproduces {
				reproduced++
				fmt.Fprintf(&short, "    %s  reproduces it from %s\n", f.Test, f.signature())
			}
		}
		if c.Unkept > 0 {
			fmt.Fprintf(&full, "  (%d frames deeper than the recorder keeps)\n", c.Unkept)
		}
		if reproduced == 0 {
			short.WriteString("    no test reproduces it\n")
		}
		if dropped := len(c.Frames) - reproduced; dropped > 0 {
			fmt.Fprintf(&short, "    (%d frames without a test that reproduces it: see summary.txt)\n", dropped)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.txt"), []byte(full.String()), 0o644); err != nil {
		return err
	}
	if len(crashes) == 0 {
		fmt.Fprintf(w, "weft: recrash: no exception escaped a thread: no crash in %s\n", dir)
		return nil
	}
	fmt.Fprintf(w, "\nweft: recrash: %d crashes; tests in %s:\n%s", len(crashes), filepath.Join(dir, "tests"), short.String())
	fmt.Fprintf(w, "weft: recrash: state, tests and summary in %s\n", dir)
	return nil
}
