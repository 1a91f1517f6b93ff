// Package jdk weaves the JDK's own modules: it drives a class weaver over
// the modules image on all cores, patches java.lang.Thread (the DIB field)
// and java.lang.System (the end of bootstrap, BIB), adds the JDK-mode
// runtime to java.base, and writes the `java @argfile` that runs the woven
// JDK with --patch-module. docs/jdk.md explains the scheme and the
// exclusion list.
package jdk

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/parallel"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

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
}

// ClassWeaver weaves one class file; it is safe for concurrent use.
type ClassWeaver interface {
	WeaveClass(name string, data []byte) (*Woven, error)
}

// A Sequencer is a ClassWeaver whose output depends on the order in which
// classes are numbered (join point ids). WeaveImage begins classes in
// parallel, numbers them in image order and finishes them in parallel, so
// the woven JDK is the same whatever the scheduling.
type Sequencer interface {
	ClassWeaver
	Begin(name string, data []byte) (Pending, error)
}

// SharedWeaver is a ClassWeaver whose output also holds classes the
// classes it weaves share (weaver.SharedClass): WeaveImage adds them to
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

// Options configure WeaveImage.
type Options struct {
	JavaHome string
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

// ModuleSummary counts one module's weaving.
type ModuleSummary struct {
	Classes      int `json:"classes"`
	ClassesWoven int `json:"classesWoven"`
	MethodsWoven int `json:"methodsWoven"`
}

// Unwoven is a class left unchanged because weaving it failed.
type Unwoven struct {
	Module string `json:"module"`
	Class  string `json:"class"`
	Reason string `json:"reason"`
}

// Summary is DIR/summary.json.
type Summary struct {
	JavaHome string                    `json:"javaHome"`
	Release  string                    `json:"release"`
	Modules  map[string]*ModuleSummary `json:"modules"`
	Unwoven  []Unwoven                 `json:"unwoven"`
	// Intrinsics lists the woven methods the VM may replace with an
	// intrinsic (@IntrinsicCandidate): advice there can be skipped by the
	// interpreter or the JIT, so counts can be partial.
	Intrinsics []string `json:"intrinsics"`
	Warnings   []string `json:"warnings"`
	Seconds    float64  `json:"seconds"`
	// NextID is the first join point id not used by the woven JDK.
	NextID int32 `json:"nextId"`
}

// Totals sums the per-module counts.
func (s *Summary) Totals() (classes, woven, methods int) {
	for _, m := range s.Modules {
		classes += m.Classes
		woven += m.ClassesWoven
		methods += m.MethodsWoven
	}
	return
}

// WeaveImage weaves the chosen modules of the JDK at opts.JavaHome into
// opts.Out and writes weft.args and summary.json there.
func WeaveImage(opts Options) (*Summary, error) {
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
	return iw.writeSummary(start)
}

// imageWeaving is one run of WeaveImage. Its phases: listImage, then
// weaveClasses, patchBase, writePatches and writeSummary.
type imageWeaving struct {
	opts     Options
	img      *classfile.ImageSource
	entries  []classfile.ClassEntry // the classes to weave, in image order
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
	// basePatched says java.base was patched (patchBase) and written
	// when its last class completed.
	basePatched bool
}

// listImage lists the classes of the chosen modules and clears the
// patch directory.
func listImage(opts Options) (*imageWeaving, error) {
	img, err := classfile.OpenJDK(opts.JavaHome, opts.Modules...)
	if err != nil {
		return nil, err
	}
	iw := &imageWeaving{opts: opts, img: img, patchDir: filepath.Join(opts.Out, "patch"),
		files: map[string]map[string][]byte{}, left: map[string]int{},
		sum: &Summary{JavaHome: opts.JavaHome, Release: Release(opts.JavaHome), Modules: map[string]*ModuleSummary{}}}
	if err := img.Walk(func(e classfile.ClassEntry) error {
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

// writeSummary writes weft.args and summary.json.
func (iw *imageWeaving) writeSummary(start time.Time) (*Summary, error) {
	sum := iw.sum
	sort.Slice(sum.Unwoven, func(i, j int) bool { return sum.Unwoven[i].Class < sum.Unwoven[j].Class })
	sort.Strings(sum.Intrinsics)
	sort.Strings(sum.Warnings)
	if err := WriteArgs(iw.opts.Out, iw.opts.JavaHome, iw.opts.BootAppend); err != nil {
		return nil, err
	}
	if iw.opts.NextID != nil {
		sum.NextID = iw.opts.NextID()
	}
	sum.Seconds = time.Since(start).Seconds()
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	return sum, os.WriteFile(filepath.Join(iw.opts.Out, "summary.json"), append(b, '\n'), 0o644)
}

// entryResult is what one class contributes.
type entryResult struct {
	class      []byte
	extra      map[string][]byte
	methods    int
	unwoven    string
	intrinsics []string
	warnings   []string
}

// pendingEntry is an entry between beginEntry and finishEntry: either
// begun by a Sequencer (pending) or already woven (result).
type pendingEntry struct {
	entry   classfile.ClassEntry
	data    []byte
	pending Pending
	result  entryResult
}

func beginEntry(opts Options, e classfile.ClassEntry) *pendingEntry {
	p := &pendingEntry{entry: e}
	name := e.Module + "/" + e.Path
	data, err := e.Read()
	if err != nil {
		p.result.unwoven = err.Error()
		return p
	}
	if opts.Exclusions != nil && Notable(data) {
		if c, err := classfile.Parse(name, data); err == nil {
			opts.Exclusions.Note(c)
		}
	}
	p.data = data
	if seq, ok := opts.Weaver.(Sequencer); ok {
		if p.pending, err = seq.Begin(name, data); err != nil {
			p.result.unwoven = err.Error()
			p.pending = nil
		}
		return p
	}
	res, err := opts.Weaver.WeaveClass(name, data)
	p.result = wovenResult(data, res, err)
	return p
}

func finishEntry(p *pendingEntry) entryResult {
	if p.pending == nil {
		return p.result
	}
	res, err := p.pending.Finish()
	return wovenResult(p.data, res, err)
}

func wovenResult(data []byte, res *Woven, err error) (r entryResult) {
	if err != nil {
		r.unwoven = err.Error()
		return
	}
	r.class, r.extra, r.methods, r.warnings = res.Class, res.Extra, res.MethodsWoven, res.Warnings
	if res.Class != nil && len(res.Methods) > 0 {
		// Methods is nil for classes without any intrinsic candidate:
		// no need to parse those again.
		r.intrinsics = intrinsics(data, res.Methods)
	}
	return
}

// IntrinsicAnnotation marks the methods HotSpot may replace by intrinsics.
const IntrinsicAnnotation = "Ljdk/internal/vm/annotation/IntrinsicCandidate;"

// intrinsics returns "class.name(desc)" for each of the woven methods
// (name+desc) of the class file data annotated @IntrinsicCandidate.
func intrinsics(data []byte, woven []string) []string {
	c, err := classfile.Parse("", data)
	if err != nil {
		return nil
	}
	set := map[string]bool{}
	for _, m := range woven {
		set[m] = true
	}
	var out []string
	for _, m := range c.Methods {
		nd := c.MemberName(m) + c.MemberDesc(m)
		if set[nd] && isIntrinsic(c, m) {
			out = append(out, c.Name()+"."+nd)
		}
	}
	return out
}

func isIntrinsic(c *classfile.Class, m *classfile.Member) bool {
	a := c.Attr(m.Attributes, "RuntimeVisibleAnnotations")
	if a == nil {
		return false
	}
	v, err := classfile.DecodeAttr(c, a)
	if err != nil {
		return false
	}
	if anns, ok := v.(*classfile.Annotations); ok {
		for _, an := range anns.Annotations {
			if c.Pool.Utf8(an.Type) == IntrinsicAnnotation {
				return true
			}
		}
	}
	return false
}

// patchBase applies the Thread, System and class-definition patches (to the woven class if
// the weaver changed it, else to the image's) and adds the runtime, in the
// java.base outputs base.
func patchBase(img *classfile.ImageSource, base map[string][]byte, rt map[string][]byte) error {
	patches := []struct {
		name  string
		patch func([]byte) ([]byte, error)
	}{{"java/lang/Thread", PatchThread}, {"java/lang/System", PatchSystem}}
	// The load-time weaving hook: wrappers around the natives that define
	// classes, called from every caller of theirs (definers.go).
	for _, name := range DefinerCallers {
		name := name
		patches = append(patches, struct {
			name  string
			patch func([]byte) ([]byte, error)
		}{name, func(b []byte) ([]byte, error) { return PatchDefiners(name, b) }})
	}
	for _, p := range patches {
		data, ok := base[p.name]
		if !ok {
			var err error
			if data, err = ImageClass(img.JavaHome(), p.name); err != nil {
				return err
			}
		}
		out, err := p.patch(data)
		if err != nil {
			return err
		}
		base[p.name] = out
	}
	for name, b := range rt {
		base[name] = b
	}
	return nil
}

// ImageClass reads one class (internal name) of java.base from the image.
func ImageClass(javaHome, name string) ([]byte, error) {
	img, err := classfile.OpenJDK(javaHome, "java.base")
	if err != nil {
		return nil, err
	}
	defer img.Close()
	return img.Class(name)
}

// WriteArgs writes DIR/weft.args: the JVM options that run the woven JDK.
// Every module with a patch directory gets --patch-module and reads the
// unnamed module (where the advice lives, on -Xbootclasspath/a); the
// runtime package is exported to the unnamed module and to each of them.
// Modules outside the default boot layer (incubator modules, the
// serviceability agent...) would make the JVM warn "Unknown module": their
// lines are written as comments to uncomment along with --add-modules.
//
// It also writes DIR/weft.jargs, the same options for the JDK's other
// launchers (javac, jar, jshell...), which take JVM options only as -J
// arguments and expand no @argfile: one -J option a line, unquoted.
func WriteArgs(dir, javaHome string, bootAppend []string) error {
	patchDir := filepath.Join(dir, "patch")
	ents, err := os.ReadDir(patchDir)
	if err != nil {
		return err
	}
	boot, err := BootLayer(javaHome)
	if err != nil {
		return err
	}
	var mods, others []string
	where := map[string]string{} // module → its patch directory or jar
	for _, e := range ents {
		m := e.Name()
		if !e.IsDir() {
			var ok bool
			if m, ok = strings.CutSuffix(m, ".jar"); !ok {
				continue
			}
		}
		where[m] = filepath.Join(patchDir, e.Name())
		if boot[m] {
			mods = append(mods, m)
		} else {
			others = append(others, m)
		}
	}
	sort.Strings(mods)
	pkg := strings.ReplaceAll(rtjava.Package, "/", ".")
	var opts []jvmOption
	for _, m := range mods {
		opts = append(opts, jvmOption{"--patch-module", m + "=" + where[m]})
	}
	for _, m := range mods {
		opts = append(opts, jvmOption{"--add-reads", m + "=ALL-UNNAMED"})
	}
	// A `java -m M` run resolves only M and what it needs; naming every
	// patched module keeps the options above meaningful (no "Unknown
	// module" warnings) without changing a class path run's boot layer.
	opts = append(opts, jvmOption{"--add-modules", strings.Join(mods, ",")})
	targets := append([]string{"ALL-UNNAMED"}, without(mods, "java.base")...)
	opts = append(opts, jvmOption{"--add-exports", "java.base/" + pkg + "=" + strings.Join(targets, ",")})
	if len(bootAppend) > 0 {
		opts = append(opts, jvmOption{"-Xbootclasspath/a:", strings.Join(bootAppend, string(os.PathListSeparator))})
	}

	var args, jargs strings.Builder
	args.WriteString("# weft: run the woven JDK with: java @" + filepath.Join(dir, "weft.args") + " ...\n")
	for _, o := range opts {
		args.WriteString(o.arg() + "\n")
		jargs.WriteString(o.jarg() + "\n")
	}
	if len(others) > 0 {
		args.WriteString("# Woven modules outside the default boot layer. To use one, add\n" +
			"# --add-modules M and uncomment its lines:\n")
		for _, m := range others {
			fmt.Fprintf(&args, "# %s\n# %s\n# %s\n", jvmOption{"--patch-module", m + "=" + where[m]}.arg(),
				jvmOption{"--add-reads", m + "=ALL-UNNAMED"}.arg(), jvmOption{"--add-exports", "java.base/" + pkg + "=" + m}.arg())
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "weft.args"), []byte(args.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "weft.jargs"), []byte(jargs.String()), 0o644)
}

// jvmOption is one JVM option of weft.args: a name ending in ':' takes its
// value in the same argument, any other the next one.
type jvmOption struct{ name, value string }

// arg is the option as a line of a java @argfile.
func (o jvmOption) arg() string {
	if strings.HasSuffix(o.name, ":") {
		return o.name + argQuote(o.value)
	}
	return o.name + " " + argQuote(o.value)
}

// jarg is the option as one -J argument of a JDK launcher.
func (o jvmOption) jarg() string {
	if strings.HasSuffix(o.name, ":") {
		return "-J" + o.name + o.value
	}
	return "-J" + o.name + "=" + o.value
}

// BootLayer returns the modules the JDK at javaHome resolves for a class
// path application (java --show-module-resolution). The answer is asked
// of the JVM once per process and JDK (WeaveImage asks while it weaves,
// so that writing weft.args at the end does not wait for a JVM to start;
// with Options.CacheDir, once per JDK); callers must not modify the map.
func BootLayer(javaHome string) (map[string]bool, error) { return bootLayer(javaHome, "") }

// bootLayer is BootLayer, whose answer is kept in cacheDir if set.
func bootLayer(javaHome, cacheDir string) (map[string]bool, error) {
	bootLayers.mu.Lock()
	q := bootLayers.m[javaHome]
	if q == nil {
		q = &bootQuery{done: make(chan struct{})}
		if bootLayers.m == nil {
			bootLayers.m = map[string]*bootQuery{}
		}
		bootLayers.m[javaHome] = q
		bootLayers.mu.Unlock()
		q.mods, q.err = cachedBootLayer(javaHome, cacheDir)
		if q.err != nil { // not kept: a later call asks again
			bootLayers.mu.Lock()
			delete(bootLayers.m, javaHome)
			bootLayers.mu.Unlock()
		}
		close(q.done)
	} else {
		bootLayers.mu.Unlock()
		<-q.done
	}
	return q.mods, q.err
}

// bootLayers holds BootLayer's answers (or questions under way) by JDK.
var bootLayers struct {
	mu sync.Mutex
	m  map[string]*bootQuery
}

type bootQuery struct {
	done chan struct{} // closed once mods and err are set
	mods map[string]bool
	err  error
}

// cachedBootLayer reads the boot layer of the JDK at javaHome from
// cacheDir, or asks the JVM and saves the answer there. The file's name
// says which JDK: its home and its modules image's size and time (an
// upgraded JDK has another image).
func cachedBootLayer(javaHome, cacheDir string) (map[string]bool, error) {
	if cacheDir == "" {
		return askBootLayer(javaHome)
	}
	st, err := os.Stat(filepath.Join(javaHome, "lib", "modules"))
	if err != nil {
		return askBootLayer(javaHome)
	}
	key := rtjava.SourcesHash(nil, []byte(javaHome), []byte(fmt.Sprint(st.Size(), st.ModTime().UnixNano())))
	file := filepath.Join(cacheDir, "boot-layer-"+key)
	if b, err := os.ReadFile(file); err == nil {
		mods := map[string]bool{}
		for _, m := range strings.Fields(string(b)) {
			mods[m] = true
		}
		if mods["java.base"] {
			return mods, nil
		}
	}
	mods, err := askBootLayer(javaHome)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(mods))
	for m := range mods {
		names = append(names, m)
	}
	sort.Strings(names)
	// Written whole then renamed: a concurrent run reads all or nothing.
	// The cache is an optimization: failing to write it is no error.
	if os.MkdirAll(cacheDir, 0o755) == nil {
		if f, err := os.CreateTemp(cacheDir, "boot-layer-*"); err == nil {
			_, werr := f.WriteString(strings.Join(names, "\n") + "\n")
			if cerr := f.Close(); werr == nil && cerr == nil {
				os.Rename(f.Name(), file)
			}
			os.Remove(f.Name())
		}
	}
	return mods, nil
}

func askBootLayer(javaHome string) (map[string]bool, error) {
	out, err := exec.Command(filepath.Join(javaHome, "bin", "java"), "--show-module-resolution", "-version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("java --show-module-resolution: %v\n%s", err, out)
	}
	mods := map[string]bool{}
	for _, f := range strings.Fields(string(out)) {
		if m, ok := strings.CutPrefix(f, "jrt:/"); ok {
			mods[m] = true
		}
	}
	if !mods["java.base"] {
		return nil, fmt.Errorf("java --show-module-resolution: no java.base in:\n%s", out)
	}
	return mods, nil
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// argQuote quotes a value for a java @argfile when it needs it.
func argQuote(s string) string {
	if !strings.ContainsAny(s, " \t\"'#\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Release returns the JDK's release and build, e.g. "17.0.15+6-Debian-1deb12u1",
// from $JAVA_HOME/release (JAVA_RUNTIME_VERSION, else JAVA_VERSION).
func Release(javaHome string) string {
	b, err := os.ReadFile(filepath.Join(javaHome, "release"))
	if err != nil {
		return ""
	}
	vals := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			vals[k] = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	if v := vals["JAVA_RUNTIME_VERSION"]; v != "" {
		return v
	}
	return vals["JAVA_VERSION"]
}
