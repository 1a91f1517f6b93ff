package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// serveOptions are weft serve's flags.
type serveOptions struct {
	loadTime   launch.LoadTimeOptions
	weaveInfo  string
	aspects    []string
	aspectPath string
	classPath  string
	adviceCP   string
	javaHome   string
	modules    string
	dir        string
	xlint      lintLevel
	cacheMax   string
	scope      launch.ScopeOptions
}

func newServeCmd() *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve (-a ASPECT... [--advice-cp CP] | --aspectpath PATH) [--dir DIR]",
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

AspectJ's aspects: --aspectpath names the jars and directories of @AspectJ
aspects (docs/ataspectj.md) to run, those their META-INF/aop.xml files
list, else all, with aspectjrt (on the path too, or on -cp, the
application's class path, where the aspects' type names are resolved);
the JVMs have the aspects and aspectjrt on their class path.

Examples:

  weft serve -a count.weft --advice-cp adv --dir /tmp/weft-serve &
  java @/tmp/weft-serve/weft.args -cp app Main

  # AspectJ's aspects, and the aop.xml beside them
  weft serve --aspectpath aspects.jar -cp app.jar:aspectjrt.jar --dir /tmp/weft-serve &
  java @/tmp/weft-serve/weft.args -cp app:aspects.jar:aspectjrt.jar Main`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&opts.aspectPath, "aspectpath", "", "jars and directories of @AspectJ aspects: those their aop.xml lists, else all (':'-separated)")
	f.StringVar(&opts.classPath, "cp", "", "the application's class path, which resolves the @AspectJ aspects' type names (':'-separated)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK the JVMs run")
	f.StringVar(&opts.modules, "modules", "all", `JDK modules to weave: "all" or a comma-separated list of names or globs (java.*)`)
	addScopeFlags(f, &opts.scope)
	f.StringVar(&opts.dir, "dir", "", "the directory for the socket and weft.args (default: a new temporary one)")
	addLoadTimeFlags(f, &opts.loadTime, &opts.weaveInfo, " at exit")
	addLintFlag(f, &opts.xlint)
	addCacheMaxFlag(f, &opts.cacheMax)
	return cmd
}

func runServe(cmd *cobra.Command, opts *serveOptions) error {
	if len(opts.aspects) == 0 && opts.aspectPath == "" {
		return errors.New("serve: no aspect: give -a ASPECT.weft (repeatable) or --aspectpath with @AspectJ aspects")
	}
	o := launch.Options{Aspects: opts.aspects, AspectPath: opts.aspectPath, ClassPath: opts.classPath, AdviceCP: opts.adviceCP, JavaHome: opts.javaHome, Modules: opts.modules,
		Scope: opts.scope, IgnoreUnmatched: opts.xlint.ignore(), LoadTime: opts.loadTime, WeaveInfo: opts.weaveInfo, ServeDir: opts.dir, CacheMax: opts.cacheMax}
	err := launch.Serve(withStreams(cmd, o))
	var stopped *launch.Interrupted
	if errors.As(err, &stopped) {
		return exitError{code: stopped.ExitCode()}
	}
	return err
}
