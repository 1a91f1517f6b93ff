package jdk

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/weft-aop/weft/classfile/jimage"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/parallel"
	"github.com/weft-aop/weft/internal/proc"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// A woven runtime image is the JDK's own image linked again by jlink with
// the woven modules in place of the stock ones, so its bin/java runs the
// woven JDK without --patch-module, reads every class from one modules
// image and maps a class data sharing archive made for it. docs/jdk.md
// says why jlink and how the image differs from the stock one. A JDK
// without jmods/ (JEP 493) has its every module's jmod rebuilt from its
// image (runtimelink.go), then linked the same way.

// LinkOptions configure LinkImage.
type LinkOptions struct {
	JavaHome string
	// Woven is a WeaveModules output directory: its patch/<module>.jar (or
	// class tree patch/<module>/) hold each woven module's new classes.
	Woven string
	// Out is the image directory; it must not exist or be empty.
	Out string
	// BootAppend is the advice class path: merged into
	// Out/lib/weft/advice.jar, which the image puts on its boot class path.
	BootAppend []string
	// Workers bounds the jmod files written at once; 0 means all cores.
	Workers int
	// DefaultArchiveOnly leaves out the class data sharing archive for
	// heaps over 32 GB (classes_nocoops.jsa), one JVM dump less: for tests
	// of an image that check only the default archive.
	DefaultArchiveOnly bool
}

// AdviceJar is where an image keeps the advice classes, relative to it.
const AdviceJar = "lib/weft/advice.jar"

// LinkImage links the runtime image opts.Out from the JDK at
// opts.JavaHome and the woven modules of opts.Woven: a jmod file per woven
// module (the stock image's classes with the woven ones over them, the
// stock jmod's other sections), jlink over those and the stock jmods, the
// advice jar, then the class data sharing archives. Without jmods/, every
// module's jmod is written, its sections from the JDK's directories.
func LinkImage(opts LinkOptions) error {
	b, err := planImage(opts)
	if err != nil {
		return err
	}
	defer b.close()
	if err := b.writeJmods(); err != nil {
		return err
	}
	if err := b.link(); err != nil {
		return err
	}
	if err := b.writeAdvice(); err != nil {
		return err
	}
	if err := b.copyIDs(); err != nil {
		return err
	}
	return b.dumpCDS()
}

// imageBuild is one run of LinkImage.
type imageBuild struct {
	opts    LinkOptions
	jmods   string // the JDK's jmods/; "" for a JDK without (JEP 493)
	work    string // the jmod files written, removed at the end
	img     *jimage.Image
	stock   map[string][]jimage.Entry // module → its entries in the stock image
	modules []string                  // every module of the stock image
	woven   map[string]*archive.Input // module → its woven classes
	// written are the modules whose jmod is written: the woven ones,
	// those recording their hashes, and every module without jmods/.
	written map[string]bool
	// hashers record the hashes of tied modules (java.base in JDK 17):
	// written last, with the hashes of the jmod files written before.
	hashers map[string]bool
	mu      sync.Mutex
	sums    map[string][]byte // module → the hash of its woven jmod (ModuleHashes)
}

// HasJmods reports whether the JDK at javaHome has the jmod files a
// runtime image is linked from (some distributions package them apart).
func HasJmods(javaHome string) bool {
	_, err := os.Stat(filepath.Join(javaHome, "jmods", "java.base.jmod"))
	return err == nil
}

func planImage(opts LinkOptions) (b *imageBuild, err error) {
	b = &imageBuild{opts: opts, stock: map[string][]jimage.Entry{}, woven: map[string]*archive.Input{},
		written: map[string]bool{}, hashers: map[string]bool{}, sums: map[string][]byte{}}
	switch {
	case HasJmods(opts.JavaHome):
		b.jmods = filepath.Join(opts.JavaHome, "jmods")
	case !HasModuleFileLists(opts.JavaHome):
		return nil, fmt.Errorf("%s: no jmods/java.base.jmod, and its image does not list its modules' files: a runtime image is linked from the JDK's jmods (on Ubuntu: package openjdk-17-jmods)", opts.JavaHome)
	}
	if ents, err := os.ReadDir(opts.Out); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("%s: not empty: the image directory must be new", opts.Out)
	}
	os.Remove(opts.Out) // jlink creates it
	defer func() {
		if err != nil {
			b.close()
			b = nil
		}
	}()
	if b.img, err = jimage.Open(filepath.Join(opts.JavaHome, "lib", "modules")); err != nil {
		return b, err
	}
	if err := b.img.Walk(func(e jimage.Entry) error {
		if e.Module != "" {
			b.stock[e.Module] = append(b.stock[e.Module], e)
		}
		return nil
	}); err != nil {
		return b, err
	}
	b.modules = b.img.Modules()
	patches, err := os.ReadDir(filepath.Join(opts.Woven, "patch"))
	if err != nil {
		return b, err
	}
	for _, p := range patches {
		in, err := archive.Open(filepath.Join(opts.Woven, "patch", p.Name()))
		if err != nil {
			return b, err
		}
		b.woven[strings.TrimSuffix(p.Name(), ".jar")] = in
		b.written[strings.TrimSuffix(p.Name(), ".jar")] = true
	}
	if b.woven["java.base"] == nil {
		return b, fmt.Errorf("%s: no java.base patch: not a weft jdk output", opts.Woven)
	}
	if b.jmods == "" {
		for _, m := range b.modules {
			b.written[m] = true
		}
	}
	for _, m := range b.modules {
		if err := b.noteHashes(m); err != nil {
			return b, err
		}
	}
	b.work, err = os.MkdirTemp(filepath.Dir(filepath.Clean(opts.Out)), ".weft-jmods-")
	return b, err
}

// openStock opens module m's stock content: its jmod, or without jmods/
// its image's resources and its listed files.
func (b *imageBuild) openStock(m string) (stockModule, error) {
	if b.jmods == "" {
		return openImageModule(b.opts.JavaHome, b.img, m, b.stock[m])
	}
	return openJmod(filepath.Join(b.jmods, m+".jmod"))
}

// noteHashes makes module m a hasher if its stock descriptor records the
// hash of a module whose jmod is written: it is then written too, last.
func (b *imageBuild) noteHashes(m string) error {
	j, err := b.openStock(m)
	if err != nil {
		return err
	}
	defer j.Close()
	data, err := j.read(classesSection + "module-info.class")
	if err != nil {
		return err
	}
	mi, err := parseModuleInfo(m, data)
	if err != nil {
		return err
	}
	hashed, err := mi.hashed()
	if err != nil {
		return err
	}
	for h := range hashed {
		if b.written[h] {
			b.hashers[m] = true
		}
	}
	return nil
}

func (b *imageBuild) close() {
	if b.img != nil {
		b.img.Close()
	}
	for _, in := range b.woven {
		in.Close()
	}
	if b.work != "" {
		os.RemoveAll(b.work)
	}
}

// writeJmods writes a jmod per module written, those recording hashes
// last.
func (b *imageBuild) writeJmods() error {
	var first, last []string
	for m := range b.written {
		if !b.hashers[m] {
			first = append(first, m)
		}
	}
	for m := range b.hashers {
		last = append(last, m)
	}
	// Biggest first, so it does not finish last.
	sort.Slice(first, func(i, j int) bool { return len(b.stock[first[i]]) > len(b.stock[first[j]]) })
	sort.Strings(last)
	for _, ms := range [][]string{first, last} {
		if err := parallel.Each(len(ms), b.opts.Workers, func(i int) error { return b.writeJmod(ms[i]) }); err != nil {
			return err
		}
	}
	return nil
}

// writeJmod writes module m's jmod: every resource of the stock image's
// module (where jlink's plugins generated classes, e.g. the
// java.lang.invoke holders, those and not the jmod's: the image stays the
// stock one plus weaving), the woven classes over them, and its stock
// descriptor with the added packages and the new hashes.
func (b *imageBuild) writeJmod(m string) error {
	stock, err := b.openStock(m)
	if err != nil {
		return err
	}
	defer stock.Close()
	src := map[string]func() ([]byte, error){}
	for n := range stock.classes() {
		n := n
		src[n] = func() ([]byte, error) { return stock.read(classesSection + n) }
	}
	for _, e := range b.stock[m] {
		e := e
		src[e.Name] = func() ([]byte, error) { return b.img.ReadEntry(e) }
	}
	var added []string
	if in := b.woven[m]; in != nil {
		for _, e := range in.Entries {
			if e.IsDir() || !e.IsClass() {
				continue
			}
			if _, ok := src[e.Name]; !ok {
				added = append(added, e.Name)
			}
			src[e.Name] = e.Read
		}
	}
	info, err := b.descriptor(m, stock, added)
	if err != nil {
		return err
	}
	src["module-info.class"] = func() ([]byte, error) { return info, nil }
	var names []string
	for n := range src {
		// The system-modules plugin, always on, generates these from
		// the descriptors: it would find them twice.
		if !strings.HasPrefix(n, "jdk/internal/module/SystemModules$") {
			names = append(names, n)
		}
	}
	sum, err := writeJmod(filepath.Join(b.work, m+".jmod"), stock, names, func(n string) ([]byte, error) { return src[n]() })
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.sums[m] = sum
	b.mu.Unlock()
	return nil
}

// descriptor returns module m's stock module-info with the packages of the
// classes added (the runtime's exported to every module: woven code in any
// module calls it) and, for a hasher, the hashes of the jmods written.
func (b *imageBuild) descriptor(m string, stock stockModule, added []string) ([]byte, error) {
	data, err := stock.read(classesSection + "module-info.class")
	if err != nil {
		return nil, err
	}
	mi, err := parseModuleInfo(m, data)
	if err != nil {
		return nil, err
	}
	have, err := mi.packages()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var pkgs []string
	for _, n := range added {
		if p := packageOf(n); p != "" && !have[p] && !seen[p] {
			seen[p] = true
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) > 0 {
		if err := mi.addPackages(pkgs, map[string]bool{rtnames.Package: true}); err != nil {
			return nil, err
		}
	}
	if b.hashers[m] {
		b.mu.Lock()
		err = mi.setHashes(b.sums)
		b.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return mi.bytes(), nil
}

// link runs the JDK's jlink over the jmods written, then the stock ones
// (if any), for every module of the stock image. The woven java.base
// carries the stock image's java.lang.invoke classes (woven), so jlink
// must not generate them again. The options the woven code needs (each woven module of the
// boot layer reads the advice, on the boot class path) are stored in the
// image, as JVM options every launcher of it takes.
func (b *imageBuild) link() error {
	boot, err := BootLayer(b.opts.JavaHome)
	if err != nil {
		return err
	}
	var vmOpts []string
	var mods []string
	for m := range b.woven {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		if boot[m] {
			vmOpts = append(vmOpts, "--add-reads="+m+"=ALL-UNNAMED")
		}
	}
	if len(b.opts.BootAppend) > 0 {
		out, err := filepath.Abs(b.opts.Out)
		if err != nil {
			return err
		}
		vmOpts = append(vmOpts, argQuote("-Xbootclasspath/a:"+filepath.Join(out, AdviceJar)))
	}
	mp := b.work
	if b.jmods != "" {
		mp += string(os.PathListSeparator) + b.jmods
	}
	args := append(slices.Clip(rtjava.ToolJVM), // jlink runs a few seconds
		"--module-path", mp,
		"--add-modules", strings.Join(b.modules, ","),
		"--disable-plugin", "generate-jli-classes",
		// A value starting with "-" would be taken for an option.
		"--add-options= "+strings.Join(vmOpts, " "),
		"--output", b.opts.Out)
	out, err := proc.CombinedOutput(exec.Command(filepath.Join(b.opts.JavaHome, "bin", "jlink"), args...))
	if err != nil {
		return fmt.Errorf("jlink %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// writeAdvice merges the advice class path into one jar, first entry
// first as on a class path: class data sharing takes no non-empty
// directory on the boot class path, and the image keeps its own copy.
func (b *imageBuild) writeAdvice() error {
	if len(b.opts.BootAppend) == 0 {
		return nil
	}
	classes := map[string][]byte{}
	for _, p := range b.opts.BootAppend {
		in, err := archive.Open(p)
		if err != nil {
			return err
		}
		for _, e := range in.Entries {
			name, ok := strings.CutSuffix(e.Name, ".class")
			if !ok || classes[name] != nil {
				continue
			}
			data, err := e.Read()
			if err != nil {
				in.Close()
				return err
			}
			classes[name] = data
		}
		in.Close()
	}
	return archive.WriteClasses(filepath.Join(b.opts.Out, AdviceJar), archive.Jar, classes)
}
