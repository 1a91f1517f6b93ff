package launch

import (
	"io"
	"time"
)

// Options are one weaving of a program: what weft run, serve, profile,
// leak, recrash, weave and jdk are asked on their command lines. Each
// command fills the fields it has flags for; the zero value of the others
// is their default.
type Options struct {
	// What is woven.
	Aspects  []string // .weft aspect files
	AdviceCP string   // the advice classes' class path (dirs and jars, ':'-separated)
	JavaHome string   // the JDK; "" for the command's (Run) or the default one
	Modules  string   // JDK modules: "all", names, globs (java.*, !jdk.jfr); "" for all
	Scope    ScopeOptions
	// WeaveInfo gets one line per shadow advised, as ajc's
	// -showWeaveInfo ("-": Stdout); at load time for Run and Serve.
	WeaveInfo string
	// IgnoreUnmatched silences the warning for advice that advised no
	// join point (--Xlint ignore).
	IgnoreUnmatched bool

	// How the program runs (Run).
	Command  []string // the command: a launcher of the JDK (java, javac...) and its arguments
	LoadTime LoadTimeOptions
	Patches  bool // the stock JDK with --patch-module patches, not a runtime image
	AppCDS   bool // the application's class data sharing archive, from its second run
	Tool     *Tool

	// Serve: the directory of the socket and weft.args ("" for a new
	// temporary one).
	ServeDir string

	// Weave (weft weave): the inputs woven into Out, against ClassPath,
	// join point ids from IDBase. Serve: ClassPath resolves the type
	// names of AspectPath's aspects.
	Inputs    []string
	ClassPath string
	Out       string
	IDBase    int32
	// AspectPath is ajc's -aspectpath: jars and directories whose
	// @AspectJ aspects are woven (':'-separated): those their aop.xml
	// files list, else all (weave, serve).
	AspectPath string

	// WeaveJDK (weft jdk): patches into Out, a runtime image into Image,
	// patches as directories with PatchDirs.
	Image     string
	PatchDirs bool

	// The cache: bounded to CacheMax (cache.Max's syntax; "" for
	// $WEFT_CACHE_MAX or the default); Weft is Identity, what every key
	// starts with.
	CacheMax string
	Weft     []byte

	// What the command says: Verbose says what is woven and where it is;
	// Quiet drops the summary lines; Progress, if set, is told how far a
	// weaving of the JDK is.
	Verbose  bool
	Quiet    bool
	Progress Progress

	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// LoadTimeOptions say how the classes a JVM defines as it runs are woven.
type LoadTimeOptions struct {
	Off     bool          // not at all: only what is woven ahead
	Report  string        // the summary as JSON to this file
	Timeout time.Duration // the longest one class may take; 0 for DefaultLTWTimeout
}

// DefaultLTWTimeout is the longest weaving one class at load time may take
// unless the options say otherwise.
const DefaultLTWTimeout = 10 * time.Second

// Progress is told how far a long weaving is.
type Progress interface {
	Update(done, total int)
	Done() // the weaving ended: clear what Update drew
}

// A Tool is what a tool (weft profile, leak, recrash) adds to a run: its
// advice, woven before the user's aspects; JVM options the pipeline
// computes from the command line; and the environment that sets it up.
type Tool struct {
	Advice ToolAdvice
	// JIT is the JIT policy (jvmopts.JIT: "c1", "delayed", "stock"); ""
	// leaves the JVM's.
	JIT string
	// Collector chooses the parallel collector unless the command chooses
	// one (jvmopts.Collector).
	Collector bool
	// JVMOptions come before the command's own, after the memory options.
	JVMOptions []string
	// Env is added to the program's environment.
	Env []string
	// Heap is added to a heap bound the command sets, as the JVM reads a
	// size (512m, 2g; "0" or "": none).
	Heap string
}

// A Result is how a program's run ended.
type Result struct {
	Exit
	// OutOfMemory is set when an OutOfMemoryError escaped a thread of a
	// tool's JVM (jvmopts.OOMWatch); it was reported on Stderr.
	OutOfMemory bool
	// JavaHome is the JDK the command ran on; ClassPath its class path as
	// given (not the woven one).
	JavaHome  string
	ClassPath []string
}
