package launch

import (
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
	"github.com/weft-aop/weft/weaver/scope"
)

// JDKJob is one weaving of a JDK's modules for a program's aspects.
type JDKJob struct {
	Matcher  advice.Matcher // the aspects, resolved
	Advice   []*advice.Advice
	AdviceCP string // the advice classes, put on the boot class path
	JDK      *JDK
	Modules  string       // "all" (or "") or M,M...
	Scope    *scope.Scope // the classes that may be woven, nil for all
	Out      string       // the patches, weft.args, summary.json
	Dirs     bool         // class trees instead of jars
	// Diag gets declare warnings and errors; nil: os.Stderr.
	Diag io.Writer
	// Progress, if set, is told how many classes are woven of how many.
	Progress func(done, total int)
	// OnResult, if set, sees each class's weaving result, concurrently.
	OnResult func(*weaver.Result)
	// RuntimeDir is where the JDK-mode runtime is compiled and kept; ""
	// for the cache's shared directory (runtimeDir).
	RuntimeDir string
}

// runtimeDir is the cache's directory of what weft compiles from its own
// sources (the runtime, the tools' advice) and the facts it keeps about
// JDKs.
func runtimeDir() string { return cache.SharedDir(cache.Root()) }

// jdkHeapLimit is the soft limit of the Go heap while weaving the JDK.
const jdkHeapLimit = 320 << 20

// WeaveJDK weaves the JDK as the job says into job.Out and returns its
// summary and the advice that advised a join point there. With a declare
// error in the aspects, the modules are checked first and nothing is
// written if one matches.
func WeaveJDK(job JDKJob) (*jdk.Summary, Applied, error) {
	home := job.JDK.Home
	// Weaving the JDK allocates a lot of short-lived garbage: letting the
	// heap grow further between collections saves about a sixth of the CPU
	// time. Its live heap stays near 100 MB (modules are written as they
	// complete): the limit keeps the heap, and the process's resident set,
	// under half a gigabyte, which GC percent 400 alone overshot (0.75 GB).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(jdkHeapLimit))
	rtDir := job.RuntimeDir
	if rtDir == "" {
		rtDir = runtimeDir()
	}
	var mods []string
	if job.Modules != "" && job.Modules != "all" {
		mods = strings.Split(job.Modules, ",")
	}
	own, srcs, err := job.JDK.Sources(job.AdviceCP)
	if err != nil {
		return nil, nil, err
	}
	defer closeSources(own)
	h := weaver.HierarchyOf(srcs...)
	x := &jdk.Exclusions{}
	w := weaver.New(job.Matcher, job.Advice, weaver.Options{Hierarchy: h, Mode: weaver.JDK, Exclude: x.Excluded,
		SharedEntries: true, Scope: job.Scope})
	diag := job.Diag
	if diag == nil {
		diag = os.Stderr
	}
	checked := declaresErrors(job.Matcher)
	if checked {
		// A declare error must leave nothing written: check first.
		img, err := job.JDK.Image()
		if err != nil {
			return nil, nil, err
		}
		woven, err := img.Only(mods...)
		if err != nil {
			return nil, nil, err
		}
		ds, err := checkImage(woven, w, x)
		if err != nil {
			return nil, nil, err
		}
		if n := reportDeclared(diag, ds); n > 0 {
			return nil, nil, errDeclared(n)
		}
	}
	if err := os.MkdirAll(job.Out, 0o755); err != nil {
		return nil, nil, err
	}
	out, err := filepath.Abs(job.Out)
	if err != nil {
		return nil, nil, err
	}
	rt, err := jdk.BuildRuntime(home, rtDir)
	if err != nil {
		return nil, nil, err
	}
	boot := absPaths(classPathEntries(job.AdviceCP))
	applied := Applied{}
	var declared []weaver.Declared
	var mu sync.Mutex
	onResult := func(res *weaver.Result) {
		if job.OnResult != nil {
			job.OnResult(res)
		}
		if len(res.Shadows) > 0 || len(res.Declared) > 0 {
			mu.Lock()
			applied.Add(res.Shadows)
			declared = append(declared, res.Declared...)
			mu.Unlock()
		}
	}
	img, err := job.JDK.Image()
	if err != nil {
		return nil, nil, err
	}
	sum, err := jdk.WeaveModules(jdk.Options{JavaHome: home, Image: img, Modules: mods, Out: out, Weaver: jdk.Aspects{W: w, OnResult: onResult},
		Exclusions: x, Runtime: rt, BootAppend: boot, NextID: w.NextID, Jars: !job.Dirs, CacheDir: rtDir,
		Progress: job.Progress})
	if err == nil && !checked {
		sortDeclared(declared)
		reportDeclared(diag, declared)
	}
	return sum, applied, err
}
