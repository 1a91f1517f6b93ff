package jdk

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/parallel"
)

// This file weaves the classes of the JDK's modules into patches: the
// modules image read on all cores, each class woven, the patches written
// module by module in the image's order.

// Woven is the outcome of weaving one class (the subset of weaver.Result
// the image driver needs).
type Woven struct {
	Class        []byte            // nil: unchanged
	Extra        map[string][]byte // sister classes by internal name
	MethodsWoven int
	// Methods names the woven methods (name+descriptor), to report which
	// are intrinsics; it may be left nil for a class without any
	// @IntrinsicCandidate method.
	Methods  []string
	Warnings []string
	// PartsSister names the sister class in Extra that registers the
	// class's static parts from join point id PartsBase on ("" if none):
	// the image lists it in its ids table (ids.go).
	PartsSister string
	PartsBase   int32
}

// ClassWeaver weaves one class file; it is safe for concurrent use.
type ClassWeaver interface {
	WeaveClass(name string, data []byte) (*Woven, error)
}

// A Sequencer is a ClassWeaver whose output depends on the order in which
// classes are numbered (join point ids). WeaveModules begins classes in
// parallel, numbers them in image order and finishes them in parallel, so
// the woven JDK is the same whatever the scheduling.
type Sequencer interface {
	ClassWeaver
	Begin(name string, data []byte) (Pending, error)
}

// SharedWeaver is a ClassWeaver whose output also holds classes the
// classes it weaves share (weaver.SharedClass): WeaveModules adds them to
// java.base.
type SharedWeaver interface {
	ClassWeaver
	SharedClasses() (map[string][]byte, error)
}

// Pending is a class a Sequencer has begun.
type Pending interface {
	Number()                 // called in image order, one class at a time
	Finish() (*Woven, error) // called once, after Number, from any goroutine
}

// Options configure WeaveModules.
type Options struct {
	JavaHome string
	// Image, if set, is the JDK's image at JavaHome, opened once by the
	// command: the weaving takes a view of it (nil: it opens its own).
	Image *classpath.ImageSource
	// Modules to weave; nil means every module of the image.
	Modules []string
	// Out is the output directory: Out/patch/<module>/..., Out/weft.args,
	// Out/summary.json.
	Out    string
	Weaver ClassWeaver
	// Exclusions, if set, learns each class before the weaver sees it;
	// the weaver must consult its Excluded.
	Exclusions *Exclusions
	// Runtime holds the JDK-mode runtime classes (internal name → bytes),
	// added to java.base. See BuildRuntime.
	Runtime map[string][]byte
	// BootAppend is put on -Xbootclasspath/a (the advice classes).
	BootAppend []string
	// Jars writes each module's classes to Out/patch/<module>.jar instead
	// of a directory tree: far fewer files to write and to open.
	Jars bool
	// Workers bounds the goroutines weaving; 0 means all cores.
	Workers int
	// NextID, if set, gives the first join point id after this weaving,
	// saved in the summary (the application's weaving starts there).
	NextID func() int32
	// Progress, if set, is called (from one goroutine at a time) as
	// classes complete.
	Progress func(done, total int)
	// CacheDir, if set, keeps the JDK's boot layer (BootLayer) between
	// runs: asking it of a JVM costs a quarter of a CPU second.
	CacheDir string
}

// WeaveModules weaves the chosen modules of the JDK at opts.JavaHome into
// patches in opts.Out (patch/MODULE.jar; LinkImage links them into a
// runtime image) and writes weft.args and summary.json there.
func WeaveModules(opts Options) (*Summary, error) {
	start := time.Now()
	go bootLayer(opts.JavaHome, opts.CacheDir) // for WriteArgs, while the classes are woven
	iw, err := listImage(opts)
	if err != nil {
		return nil, err
	}
	defer iw.img.Close()
	if sw, ok := opts.Weaver.(SharedWeaver); ok {
		shared, err := sw.SharedClasses()
		if err != nil {
			return nil, err
		}
		for name, b := range shared {
			iw.module("java.base")[name] = b
		}
	}
	if err := iw.weaveClasses(); err != nil {
		return nil, err
	}
	if !iw.basePatched {
		// java.base was not written as it completed (no jars, or not
		// among the modules): patch it now, written with the rest.
		if err := patchBase(iw.img, iw.module("java.base"), opts.Runtime); err != nil {
			return nil, err
		}
	}
	if err := iw.writePatches(); err != nil {
		return nil, err
	}
	if err := writeIDs(filepath.Join(opts.Out, IDsFile), iw.ids); err != nil {
		return nil, err
	}
	return iw.writeSummary(start)
}

// imageWeaving is one run of WeaveModules. Its phases: listImage, then
// weaveClasses, patchBase, writePatches and writeSummary.
type imageWeaving struct {
	opts     Options
	img      *classpath.ImageSource
	entries  []classpath.ClassEntry // the classes to weave, in image order
	patchDir string
	sum      *Summary

	// Between the steps of weaveClasses, by entry index.
	classes []*pendingEntry

	// Guarded by mu in weaveClasses (add), then owned by the phases
	// after it.
	mu        sync.Mutex
	files     map[string]map[string][]byte // module → internal name → bytes, not written yet
	left      map[string]int               // module → classes not completed yet
	completed int
	ids       []idEntry // the classes registering static parts (ids.go)
	// basePatched says java.base was patched (patchBase) and written
	// when its last class completed.
	basePatched bool
}

// listImage lists the classes of the chosen modules and clears the
// patch directory.
func listImage(opts Options) (*imageWeaving, error) {
	var img *classpath.ImageSource
	var err error
	if opts.Image != nil {
		img, err = opts.Image.Only(opts.Modules...)
	} else {
		img, err = classpath.OpenJDK(opts.JavaHome, opts.Modules...)
	}
	if err != nil {
		return nil, err
	}
	iw := &imageWeaving{opts: opts, img: img, patchDir: filepath.Join(opts.Out, "patch"),
		files: map[string]map[string][]byte{}, left: map[string]int{},
		sum: &Summary{JavaHome: opts.JavaHome, Release: Release(opts.JavaHome), Modules: map[string]*ModuleSummary{}}}
	if err := img.Walk(func(e classpath.ClassEntry) error {
		iw.entries = append(iw.entries, e)
		iw.left[e.Module]++
		return nil
	}); err != nil {
		img.Close()
		return nil, err
	}
	for _, m := range img.Modules() {
		iw.sum.Modules[m] = &ModuleSummary{}
	}
	if err := os.RemoveAll(iw.patchDir); err != nil {
		img.Close()
		return nil, err
	}
	iw.classes = make([]*pendingEntry, len(iw.entries))
	return iw, nil
}

// weaveClasses weaves every class on all cores: each is begun in
// parallel, numbered in image order (a Sequencer's join point ids, for a
// reproducible JDK), then finished and completed by whichever worker
// takes it up. A module's jar is written by the worker that completed its
// last class (java.base patched first): the heap then never holds every
// woven class at once, which with GC percent 400 made it grow to well
// over a gigabyte (page faults cost as much CPU as writing). java.base,
// the largest module, comes first in the image: written as soon as it is
// complete, its 40 MB of woven classes do not stay live to the end.
func (iw *imageWeaving) weaveClasses() error {
	return parallel.Run(len(iw.entries), iw.opts.Workers,
		parallel.Stage{Do: iw.begin},
		parallel.Stage{Do: iw.number, InOrder: true},
		parallel.Stage{Do: iw.finish},
		parallel.Stage{Do: iw.complete})
}

func (iw *imageWeaving) begin(i int) error {
	iw.classes[i] = beginEntry(iw.opts, iw.entries[i])
	return nil
}

func (iw *imageWeaving) number(i int) error {
	if p := iw.classes[i].pending; p != nil {
		p.Number()
	}
	return nil
}

func (iw *imageWeaving) finish(i int) error {
	p := iw.classes[i]
	p.result, p.pending, p.data = finishEntry(p), nil, nil
	return nil
}

// complete adds a class's outputs to its module and counts it, on the
// worker that finished it; after a module's last class, that worker
// writes the module's jar.
func (iw *imageWeaving) complete(i int) error {
	e := iw.entries[i]
	files := iw.add(i)
	if files == nil || len(files) == 0 && e.Module != "java.base" {
		return nil // not complete, or nothing woven: no jar
	}
	if e.Module == "java.base" {
		// The runtime scheme: Thread and System patched over whatever
		// the weaver made of them, the runtime added to java.base.
		if err := patchBase(iw.img, files, iw.opts.Runtime); err != nil {
			return err
		}
	}
	return writeJar(filepath.Join(iw.patchDir, e.Module+".jar"), files)
}

// add adds class i's outputs to its module and returns the module's
// outputs (maybe none woven) if they are complete and to be written now.
func (iw *imageWeaving) add(i int) (finished map[string][]byte) {
	iw.mu.Lock()
	defer iw.mu.Unlock()
	e, r := iw.entries[i], iw.classes[i].result
	iw.classes[i] = nil
	name := strings.TrimSuffix(e.Path, ".class")
	files := iw.module(e.Module)
	if r.class != nil {
		files[name] = r.class
	}
	for n, b := range r.extra {
		files[n] = b
	}
	ms := iw.sum.Modules[e.Module]
	ms.Classes++
	if r.class != nil {
		ms.ClassesWoven++
		ms.MethodsWoven += r.methods
	}
	if r.unwoven != "" {
		iw.sum.Unwoven = append(iw.sum.Unwoven, Unwoven{Module: e.Module, Class: name, Reason: r.unwoven})
	}
	iw.sum.Intrinsics = append(iw.sum.Intrinsics, r.intrinsics...)
	if r.parts.Sister != "" {
		r.parts.Module = e.Module
		iw.ids = append(iw.ids, r.parts)
	}
	iw.sum.Warnings = append(iw.sum.Warnings, r.warnings...)
	if iw.left[e.Module]--; iw.left[e.Module] == 0 && iw.opts.Jars {
		finished = files
		delete(iw.files, e.Module)
		iw.basePatched = iw.basePatched || e.Module == "java.base"
	}
	iw.completed++
	if n := iw.completed; iw.opts.Progress != nil && (n%256 == 0 || n == len(iw.entries)) {
		iw.opts.Progress(n, len(iw.entries))
	}
	return finished
}

// module returns the outputs of module m so far.
func (iw *imageWeaving) module(m string) map[string][]byte {
	files := iw.files[m]
	if files == nil {
		files = map[string][]byte{}
		iw.files[m] = files
	}
	return files
}
