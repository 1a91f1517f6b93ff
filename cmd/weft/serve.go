package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/weft-aop/weft/launch"
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
	home, err := jdkHome(fl.javaHome)
	if err != nil {
		return err
	}
	j := launch.OpenJDK(home) // its image shared by every step that reads it
	defer j.Close()
	prog, _, err := resolveAdvice(stderr, j, fl.aspects, fl.adviceCP, nil)
	if err != nil {
		return err
	}
	m, advs := prog, prog.Advice()
	sc, err := fl.scope.build()
	if err != nil {
		return err
	}
	modules, err := expandModules(home, fl.modules)
	if err != nil {
		return err
	}
	// The cache's entries served from stay in use until serve stops.
	cu, err := useCache(fl.cacheMax, stderr)
	if err != nil {
		return err
	}
	defer cu.Release()
	progress, clear := progressOn(stderr)
	wj, err := cu.WovenJDK(launch.WovenJDKJob{JDK: j, Matcher: m, Advice: advs, Aspects: fl.aspects, BootCP: fl.adviceCP,
		Modules: modules, Scope: sc, Progress: progress})
	clear()
	if err != nil {
		return err
	}
	if wj.Wove {
		applied := launch.Applied{}
		if err := launch.ReadApplied(wj.Dir, applied); err != nil {
			return err
		}
		lintAdviceDidNotMatch(stderr, fl.xlint, advs, applied)
	}
	key, jdkDir, nextID := wj.Key, wj.Dir, wj.Summary.NextID
	dir := fl.dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "weft-serve-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	answers, err := cu.Acquire("ltw", key, launch.JDKMeta(home, fl.aspects, fl.adviceCP, modules), nil)
	if err != nil {
		return err
	}
	cu.Trim()
	lt, err := launch.StartLoadTime(m, advs, launch.LoadTimeJob{JDK: j, AdviceCP: fl.adviceCP, Modules: modules, Scope: sc,
		IDBase: nextID, CacheDir: answers.Dir, WeaveInfo: fl.weaveInfo, InfoOut: cmd.OutOrStdout(), Timeout: fl.timeout,
		ListenDir: dir})
	if err != nil {
		return err
	}
	argsFile, err := writeServeArgs(dir, jdkDir, strings.Join(lt.Properties(), "\n"))
	if err != nil {
		lt.Stop(stderr)
		return err
	}
	fmt.Fprintf(stderr, "weft: serving load-time weaving until stopped: java @%s ...\n", argsFile)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	<-sigs
	signal.Stop(sigs)
	os.Remove(argsFile)
	// JVMs still running go on with their classes unwoven.
	lt.Drain()
	reportScope(stderr, sc)
	return reportLoadTime(stderr, lt.Stop(stderr), fl.report)
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
