package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/weaver/scope"
)

// serveOptions are weft serve's flags.
type serveOptions struct {
	loadTimeOptions
	aspects  []string
	adviceCP string
	javaHome string
	modules  string
	dir      string
	xlint    lintLevel
	cacheMax string
	scope    scopeOptions
}

func newServeCmd() *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve -a ASPECT... [--advice-cp CP] [--dir DIR]",
		Short: "Weave the JDK and serve load-time weaving to JVMs started with java @DIR/weft.args",
		Long: `serve weaves the JDK (as "weft run" does, cached the same way) and then
weaves at load time every class the JVMs started with

  java @DIR/weft.args ...

define, as "weft run" does for the JVM it starts (docs/ltw.md): for JVMs
weft does not start itself — service scripts, IDEs, build tools. It serves
any number of them at once, until it is stopped (SIGINT, SIGTERM or
SIGHUP); it then prints what it did for all of them, the summary "weft
run" prints at the end of its JVM (--ltw-report, --weave-info as there).
A signal before it serves (while it weaves the JDK) stops it too, with
exit status 128 plus the signal's number; the JDK's weave is left
unfinished, and made anew by the next run.
A JVM started when serve is not running, or after it stopped, runs with
its classes unwoven and says so once.

Nothing of the JVMs' class paths is woven before they start: their
classes are woven as they are defined, and, as under "weft run", the jars
they come from (their code sources) are learned from the JVMs' requests:
their other classes are woven ahead while the JVM does not ask, and their
types are known to the weaver (supertypes, the types frames merge) before
the JVM defines them. The answers are cached across runs, keyed by the
aspects, the JDK and weft. DIR (made readable by the user only) holds the
socket and weft.args; default: a new directory under the temporary
directory, printed on stderr.

Examples:

  weft serve -a count.weft --advice-cp adv --dir /tmp/weft-serve &
  java @/tmp/weft-serve/weft.args -cp app Main`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK the JVMs run")
	f.StringVar(&opts.modules, "modules", "all", `JDK modules to weave: "all" or a comma-separated list of names or globs (java.*)`)
	addScopeFlags(f, &opts.scope)
	f.StringVar(&opts.dir, "dir", "", "the directory for the socket and weft.args (default: a new temporary one)")
	addLoadTimeFlags(f, &opts.loadTimeOptions, " at exit")
	addLintFlag(f, &opts.xlint)
	addCacheMaxFlag(f, &opts.cacheMax)
	cmd.MarkFlagRequired("aspect")
	return cmd
}

func runServe(cmd *cobra.Command, opts *serveOptions) error {
	fl := opts
	stderr := cmd.ErrOrStderr()
	// Caught from the start, not once serving (interruptible). The weave
	// cannot stop half way: interrupted, weft exits without it, leaving p
	// open to it. Its helpers end with weft (proc.CombinedOutput), and the
	// cache keeps nothing of it as complete: an entry is complete once its
	// record is written, after it is made (cache.Store.Acquire).
	p := &servePrep{}
	if _, err := interruptible(stderr, "serving", func() (struct{}, error) { return struct{}{}, p.prepare(stderr, fl) }); err != nil {
		if !errors.As(err, new(exitError)) {
			p.close()
		}
		return err
	}
	defer p.close()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	dir := fl.dir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "weft-serve-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	lt, err := launch.StartLoadTime(p.matcher, p.advice, launch.LoadTimeJob{JDK: p.jdk, AdviceCP: fl.adviceCP,
		Modules: p.modules, Scope: p.scope, IDBase: p.woven.Summary.NextID, CacheDir: p.answers.Dir, WeaveInfo: fl.weaveInfo,
		InfoOut: cmd.OutOrStdout(), Timeout: fl.timeout, ListenDir: dir})
	if err != nil {
		return err
	}
	argsFile, err := writeServeArgs(dir, p.woven.Dir, strings.Join(lt.Properties(), "\n"))
	if err != nil {
		lt.Stop(stderr)
		return err
	}
	fmt.Fprintf(stderr, "weft: serving load-time weaving until stopped: java @%s ...\n", argsFile)
	<-sigs
	signal.Stop(sigs) // a second signal ends weft at once
	os.Remove(argsFile)
	// JVMs still running go on with their classes unwoven.
	lt.Drain()
	reportScope(stderr, p.scope)
	return reportLoadTime(stderr, lt.Stop(stderr), fl.report)
}

// servePrep is what weft serve makes before it serves: the advice, the
// woven JDK and the entry of the answers, in the cache.
type servePrep struct {
	jdk     *launch.JDK // its image shared by every step that reads it
	cache   *launch.Cache
	matcher advice.Matcher
	advice  []*advice.Advice
	scope   *scope.Scope
	modules string
	woven   *launch.WovenJDK
	answers *cache.Entry
}

// prepare resolves the advice and weaves the JDK, the first time, into
// the cache; close releases what it opened, even if it failed.
func (p *servePrep) prepare(stderr io.Writer, fl *serveOptions) error {
	home, err := jdkHome(fl.javaHome)
	if err != nil {
		return err
	}
	p.jdk = launch.OpenJDK(home)
	prog, _, err := resolveAdvice(stderr, p.jdk, fl.aspects, fl.adviceCP, nil)
	if err != nil {
		return err
	}
	p.matcher, p.advice = prog, prog.Advice()
	if p.scope, err = fl.scope.build(); err != nil {
		return err
	}
	if p.modules, err = expandModules(p.jdk, fl.modules); err != nil {
		return err
	}
	// The cache's entries served from stay in use until serve stops.
	if p.cache, err = useCache(fl.cacheMax, stderr); err != nil {
		return err
	}
	progress, clear := progressOn(stderr)
	p.woven, err = p.cache.WovenJDK(launch.WovenJDKJob{JDK: p.jdk, Matcher: p.matcher, Advice: p.advice, Aspects: fl.aspects,
		BootCP: fl.adviceCP, Modules: p.modules, Scope: p.scope, Progress: progress})
	clear()
	if err != nil {
		return err
	}
	if p.woven.Wove {
		applied := launch.Applied{}
		if err := launch.ReadApplied(p.woven.Dir, applied); err != nil {
			return err
		}
		lintAdviceDidNotMatch(stderr, fl.xlint, p.advice, applied)
	}
	p.answers, err = p.cache.Acquire("ltw", p.woven.Key, launch.JDKMeta(home, fl.aspects, fl.adviceCP, p.modules), nil)
	if err != nil {
		return err
	}
	p.cache.Trim()
	return nil
}

func (p *servePrep) close() {
	if p.cache != nil {
		p.cache.Release()
	}
	if p.jdk != nil {
		p.jdk.Close()
	}
}

// writeServeArgs writes DIR/weft.args: the woven JDK's options and the
// socket's property (an argument file cannot include another). It is
// written whole under a temporary name, then renamed: a JVM or a script
// waiting for it never reads half of it.
func writeServeArgs(dir, jdkDir, property string) (string, error) {
	b, err := os.ReadFile(filepath.Join(jdkDir, "weft.args"))
	if err != nil {
		return "", err
	}
	text := strings.TrimRight(string(b), "\n") + "\n# weft serve's socket: load-time weaving\n" + property + "\n"
	name := filepath.Join(dir, "weft.args")
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return "", err
	}
	return name, os.Rename(tmp, name)
}
