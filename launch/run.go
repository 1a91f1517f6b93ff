package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/launch/jvmopts"
)

// Run weaves as o says and runs o.Command on the woven JDK and class path,
// with o's streams, and returns how it ended: the program's exit (its
// code, a crash) and, for a tool, whether its heap ran out. The phases
// are those of docs/design.md's "How weft run runs a program". A signal
// before the program starts (the JDK's weave takes minutes) stops weft at
// once with an *Interrupted.
func Run(o Options) (Result, error) {
	o.defaults()
	if err := o.check(); err != nil {
		return Result{}, err
	}
	p, err := interruptible(o.Stderr, "the program started", func() (*program, error) { return prepare(&o) })
	if err != nil {
		return Result{}, err
	}
	defer p.close()
	return p.run(), nil
}

// defaults fills what o leaves to its default.
func (o *Options) defaults() {
	if o.LoadTime.Timeout == 0 {
		o.LoadTime.Timeout = DefaultLTWTimeout
	}
	if o.Modules == "" {
		o.Modules = "all"
	}
}

// check refuses what o says wrong before any work.
func (o *Options) check() error {
	if t := o.Tool; t != nil {
		if err := jvmopts.CheckJIT(t.JIT); t.JIT != "" && err != nil {
			return err
		}
		if _, err := t.heap(); err != nil {
			return err
		}
	}
	return nil
}

// heap is the heap the tool adds, in bytes: Heap read as the JVM reads a
// size, "" for none.
func (t *Tool) heap() (uint64, error) {
	if t.Heap == "" {
		return 0, nil
	}
	n, err := jvmopts.ParseSize(t.Heap)
	if err != nil {
		return 0, fmt.Errorf("--tool-heap: %v", err)
	}
	return n, nil
}

// A program is a command ready to run on its woven JDK and class path.
type program struct {
	*weaving
	launcher string   // the command's launcher as found on PATH
	raw      []string // its arguments as given
	line     *javacmd.Line
	given    []string // the class path as given
	// entries are the class path's entries, present those that exist.
	entries, present []string
	woven            *WovenJDK
	classPath        *WovenClassPath
	jvmOptions       []string // weft's, before the command's own
	lt               *LoadTime
	archive          *AppArchive // the application's class data sharing archive, or nil
	args             []string    // the command to run: launcher, args
}

// prepare weaves as o says (the JDK, the class path), starts the
// load-time weaving and makes the command to run; close releases what it
// holds.
func prepare(o *Options) (_ *program, err error) {
	p := &program{}
	j, err := p.readCommand(o)
	if err != nil {
		return nil, err
	}
	if p.weaving, err = openWeaving(o, j, p.present); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			p.close()
		}
	}()
	for _, phase := range []func() error{
		p.weaveJDK,
		p.weaveClassPath,
		p.toolOptions,
		p.startLoadTime,
		p.appArchive,
		p.command,
	} {
		if err := phase(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// readCommand finds the command's launcher and its JDK, returned opened,
// installs a tool's advice with it (the aspect and advice first, then the
// user's), and reads a JDK launcher's command line once, as the launcher
// reads it. Any other command (a script, mvn) is run as it is, its JVMs
// reached through the environment (treeEnv).
func (p *program) readCommand(o *Options) (_ *JDK, err error) {
	if len(o.Command) == 0 {
		return nil, fmt.Errorf("no command to run")
	}
	launcher, home, jdkLauncher, err := commandJDK(o.JavaHome, o.Command[0])
	if err != nil {
		return nil, err
	}
	if !jdkLauncher && o.Patches {
		return nil, fmt.Errorf("%s is not a launcher of a JDK: the JVMs it starts run on the woven runtime image, which --patches leaves out", o.Command[0])
	}
	j := OpenJDK(home)
	defer func() {
		if err != nil {
			j.Close()
		}
	}()
	if t := o.Tool; t != nil {
		aspect, adv, err := t.Advice.install(j, o.Weft)
		if err != nil {
			return nil, err
		}
		o.Aspects = append([]string{aspect}, o.Aspects...)
		o.AdviceCP = JoinClassPath(adv, o.AdviceCP)
		o.IgnoreUnmatched = true
	}
	p.launcher, p.raw = launcher, o.Command[1:]
	if !jdkLauncher {
		if len(o.Aspects) == 0 {
			return nil, errNoAspect
		}
		return j, nil
	}
	if p.line, err = commandLine(launcher, home, p.raw); err != nil {
		return nil, err
	}
	p.given = p.line.ClassPath
	p.entries, p.present = appEntries(p.line)
	if !p.line.Tool {
		line, at, err := takeOverAspectJ(o.Stderr, j, p.line, p.present)
		if err != nil {
			return nil, err
		}
		for _, e := range line.ClassPath { // an agent's jar, now on the class path
			if !slices.Contains(p.line.ClassPath, e) {
				p.entries, p.present = append(p.entries, e), append(p.present, e)
			}
		}
		p.line = line
		if at != nil {
			if o.Verbose {
				fmt.Fprintf(o.Stderr, "weft: the aspects of aop.xml, translated: %s\n", strings.Join(at.Files, ", "))
			}
			o.Aspects = append(o.Aspects, at.Files...)
			o.AdviceCP = JoinClassPath(o.AdviceCP, at.AdviceCP)
			if at.ShowWeaveInfo && o.WeaveInfo == "" {
				o.WeaveInfo = StderrInfo
			}
		}
	}
	if len(o.Aspects) == 0 {
		return nil, errNoAspect
	}
	return j, nil
}

// errNoAspect is a run with nothing to weave.
var errNoAspect = errors.New("no aspect to weave: give -a FILE.weft, or run a java command whose class path holds a META-INF/aop.xml listing @AspectJ aspects")

// weaveJDK weaves the JDK once per key, into the cache.
func (p *program) weaveJDK() (err error) {
	if err := p.useCache(); err != nil {
		return err
	}
	if p.woven, err = p.wovenJDK(!p.o.Patches); err != nil {
		return err
	}
	p.say("woven JDK: %s", p.woven.Dir)
	if p.woven.Image != "" {
		p.say("woven runtime image: %s", p.woven.Image)
	}
	return nil
}

// weaveClassPath weaves the application's class path once per key, and
// when this run wove, warns of the advice that advised nothing.
func (p *program) weaveClassPath() (err error) {
	if p.line == nil { // any command: its JVMs' classes are woven at load time
		p.classPath = &WovenClassPath{Key: p.woven.Key, NextID: p.woven.Summary.NextID}
		return nil
	}
	applied := Applied{}
	p.classPath, err = p.cache.WovenClassPath(ClassPathJob{JDK: p.jdk, Woven: p.woven, Meta: p.meta(), Matcher: p.matcher,
		Advice: p.advice, AdviceCP: p.o.AdviceCP, Line: p.line, Entries: p.entries, Present: p.present, Scope: p.scope, Applied: applied})
	if err != nil {
		return err
	}
	if p.classPath.Dir != "" {
		p.say("woven class path: %s", p.classPath.Dir)
	}
	if p.woven.Wove || p.classPath.Wove {
		if err := readApplied(p.woven.Dir, applied); err != nil {
			return err
		}
		p.lint(applied)
	}
	return nil
}

// meta is what the cache records of the woven JDK's inputs.
func (p *program) meta() cache.Meta {
	return jDKMeta(p.jdk.Home, p.o.Aspects, p.bootCP, p.modules)
}

// toolOptions adds a tool's JVM options: its memory (a heap bound the
// command sets raised by the tool's heap, after the command's options),
// its own, its JIT policy and collector.
func (p *program) toolOptions() error {
	t := p.o.Tool
	if t == nil {
		return nil
	}
	if p.line == nil {
		p.say("%s is not a launcher of a JDK: its JVMs run with their own options, not the tool's", p.o.Command[0])
		return nil
	}
	heap, err := t.heap()
	if err != nil {
		return err
	}
	p.jvmOptions = jvmopts.ToolMemory(p.line)
	after, note := jvmopts.ToolHeap(p.line, heap)
	switch {
	case note != "" && len(after) == 0:
		fmt.Fprintln(p.stderr, "weft: warning:", note)
	case note != "":
		p.say("%s", note)
	}
	if len(after) > 0 {
		p.line = p.line.WithJVMOptionsAfter(after...)
		if p.line.Tool {
			p.raw = slices.Clone(p.raw)
			for _, o := range after {
				p.raw = append(p.raw, "-J"+o)
			}
		}
	}
	p.jvmOptions = append(p.jvmOptions, t.JVMOptions...)
	if t.JIT != "" {
		jit, err := jvmopts.JIT(t.JIT, p.line)
		if err != nil {
			return err
		}
		p.jvmOptions = append(p.jvmOptions, jit...)
	}
	if t.Collector {
		p.jvmOptions = append(p.jvmOptions, jvmopts.Collector(p.line)...)
	}
	return nil
}

// startLoadTime serves what the JVM defines as it runs from this process,
// numbering its join points after the JDK's and the class path's.
func (p *program) startLoadTime() (err error) {
	if p.o.LoadTime.Off {
		return nil
	}
	answers, err := p.cache.Acquire("ltw", p.classPath.Key, p.meta(), nil)
	if err != nil {
		return err
	}
	lo := p.o.LoadTime
	p.lt, err = startLoadTime(p.matcher, p.advice, LoadTimeJob{JDK: p.jdk, ClassPath: p.present, AdviceCP: p.bootCP,
		Modules: p.modules, Scope: p.scope, IDBase: p.classPath.NextID, CacheDir: answers.Dir, WeaveInfo: p.o.WeaveInfo,
		PriorInfo: p.classPath.Info, InfoOut: p.o.Stdout, InfoErr: p.o.Stderr, Timeout: lo.Timeout})
	if err != nil {
		return err
	}
	p.jvmOptions = append(p.jvmOptions, p.lt.Properties()...)
	if p.line != nil && !p.line.Tool { // the application's named modules reach weft's runtime and the advice
		p.jvmOptions = append(p.jvmOptions, jvmopts.ModuleAccess(p.line.ModulePath)...)
	}
	p.say("load-time weaving: %s", p.lt.Path())
	return nil
}

// appArchive maps the application's class data sharing archive, on the
// runtime image; the cache is then trimmed, every entry this run uses
// made.
func (p *program) appArchive() error {
	if p.woven.Image != "" && p.o.AppCDS && p.line != nil {
		if p.archive = newAppArchive(p.woven.Image, p.line, p.entries, p.classPath.Outs); p.archive != nil {
			p.jvmOptions = append(p.jvmOptions, p.archive.RunOptions(p.cache, p.say)...)
		}
	}
	p.cache.Trim()
	return nil
}

// command makes the command run: on the woven JDK, the class path's
// entries replaced by their woven copies.
func (p *program) command() (err error) {
	if p.line == nil {
		p.args = p.raw
		p.say("%s %s", p.launcher, strings.Join(p.args, " "))
		return nil
	}
	outs := p.classPath.Outs
	p.line = p.line.WithClassPath(func(e string) string {
		if w, ok := outs[e]; ok {
			return w
		}
		return e
	})
	p.launcher, p.args, err = p.woven.Command(p.launcher, p.line, p.raw, p.jvmOptions)
	if err != nil {
		return err
	}
	p.say("%s %s", p.launcher, strings.Join(p.args, " "))
	return nil
}

// run runs the command, then reports: a tool's JVM running out of memory,
// the load-time weaving's summary.
func (p *program) run() Result {
	o := p.o
	jvmErr, watch := o.Stderr, (*jvmopts.OOMWatch)(nil)
	if o.Tool != nil { // a tool watches the JVM's standard error for the heap running out
		watch = jvmopts.NewOOMWatch(o.Stderr)
		jvmErr = watch
	}
	env := p.treeEnv()
	if o.Tool != nil {
		env = append(env, o.Tool.Env...)
	}
	r := Result{JavaHome: p.jdk.Home, ClassPath: p.given}
	r.Exit = process{Path: p.launcher, Args: p.args, Env: env, Stdin: o.Stdin, Stdout: o.Stdout, Stderr: jvmErr}.run()
	if p.archive != nil {
		p.archive.Finish(r.Code)
	}
	if watch != nil && watch.Seen() {
		if p.line != nil {
			fmt.Fprintf(o.Stderr, "weft: the program's JVM ran out of memory (%s, above): the tool's data shares the heap; "+
				"give it more with --tool-heap where the command bounds the heap (%s), or raise the command's bound\n",
				jvmopts.OutOfMemory, jvmopts.HeapBoundSaid(p.line))
		} else {
			fmt.Fprintf(o.Stderr, "weft: a JVM of the command ran out of memory (%s, above): the tool's data shares its heap; raise its bound\n",
				jvmopts.OutOfMemory)
		}
		r.OutOfMemory = true
	}
	if p.lt != nil {
		p.lt.Drain()
		if err := reportLoadTime(o.Stderr, p.lt.Stop(o.Stderr), o.LoadTime.Report); err != nil {
			fmt.Fprintln(o.Stderr, "weft:", err)
		}
	}
	return r
}

// treeEnv is the environment of the command: every JVM started in its
// process tree inherits it. The load-time weaving's socket (LoadTime.Env)
// reaches every JVM on the woven runtime: java.home's launchers are the
// image's, so a JVM the program forks from java.home (Ant's <java
// fork>, Maven's surefire) runs on it. A command that finds java on PATH
// or in JAVA_HOME finds the image there when that is the JDK woven.
func (p *program) treeEnv() []string {
	var env []string
	if p.lt != nil {
		env = p.lt.Env()
	}
	image := p.woven.Image
	if image == "" {
		return env
	}
	if java, err := exec.LookPath("java"); err == nil && javaOf(java, p.jdk.Home) {
		env = append(env, "PATH="+filepath.Join(image, "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	}
	if h := os.Getenv("JAVA_HOME"); h != "" && sameFile(h, p.jdk.Home) {
		env = append(env, "JAVA_HOME="+image)
	}
	return env
}
