package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/launch"
)

// wovenRunOptions are the options of weft run that the tools running a
// program as it does (profile, leak, recrash) share: how the JDK is woven
// and the program run, not what is woven into it.
type wovenRunOptions struct {
	javaHome string
	modules  string // "all" or M,M...
	verbose  bool
	loadTime bool
	patches  bool
	appCDS   bool
	cacheMax string
	scope    launch.ScopeOptions
	// toolHeap is the tools' --tool-heap (addToolHeapFlag); weft run has
	// none.
	toolHeap string
}

// addWovenRunFlags adds the flags of opts to a command that runs a program
// as weft run does; defaultModules is the command's choice of JDK modules
// and what names its work on the classes in the help ("weave", "profile").
// Each command has options of its own: nothing set here is seen by
// another command.
func addWovenRunFlags(f *pflag.FlagSet, opts *wovenRunOptions, defaultModules, what string) {
	f.StringVar(&opts.javaHome, "java-home", "", "the JDK (default: the one of the java command)")
	f.StringVar(&opts.modules, "modules", defaultModules, `JDK modules to weave: "all" or a comma-separated list of names or globs (java.*)`)
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "say what is woven and what comes from the cache")
	f.BoolVar(&opts.loadTime, "load-time", true, what+" the classes the JVM defines at run time too (docs/ltw.md)")
	f.BoolVar(&opts.patches, "patches", false, "run the stock JDK with the woven modules as --patch-module patches, not a woven runtime image")
	addAppCDSFlag(f, &opts.appCDS)
	addCacheMaxFlag(f, &opts.cacheMax)
	addScopeFlags(f, &opts.scope)
	// weft's flags end at the java command: what follows is java's, and
	// a missing -- is reported as such rather than as java's flags.
	f.SetInterspersed(false)
}

// addLoadTimeFlags adds the flags of the commands that serve load-time
// weaving to JVMs and report on it (run and serve); when says when the
// report is written.
func addLoadTimeFlags(f *pflag.FlagSet, opts *launch.LoadTimeOptions, weaveInfo *string, when string) {
	f.StringVar(&opts.Report, "ltw-report", "", "write the load-time weaving summary (classes left unwoven and why) to this JSON `FILE`"+when)
	addWeaveInfoFlag(f, weaveInfo, "at load time ")
	f.DurationVar(&opts.Timeout, "ltw-timeout", launch.DefaultLTWTimeout,
		"the longest weaving one class at load time may take; past it the class is defined unwoven and reported")
}

// addWeaveInfoFlag adds --weave-info FILE, one meaning in every command:
// the lines of ajc's -showWeaveInfo, written to FILE ("-": standard
// output). when says when the shadows are advised.
func addWeaveInfoFlag(f *pflag.FlagSet, p *string, when string) {
	f.StringVar(p, "weave-info", "", "write one line per shadow advised "+when+"to `FILE` (- for standard output), as ajc -showWeaveInfo")
}

// renamedFlags maps flags a command no longer has to their new spelling:
// given the old one, the command fails with an error that names the new
// (flagErrorWithRenames).
type renamedFlags map[string]string

// flagErrorWithRenames returns a FlagErrorFunc that names the new spelling
// of a renamed flag given to cmd.
func flagErrorWithRenames(renamed renamedFlags) func(*cobra.Command, error) error {
	return func(cmd *cobra.Command, err error) error {
		name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
		if now, renamed := renamed[name]; ok && renamed {
			return &flagRenamedError{cmd: cmd.Name(), old: "--" + name, now: now}
		}
		return err
	}
}

// A flagRenamedError is the error of a flag given in its old spelling.
type flagRenamedError struct{ cmd, old, now string }

func (e *flagRenamedError) Error() string {
	return e.cmd + ": " + e.old + " is now " + e.now
}

// javaCommand is the Args of the commands that run a java command: one,
// after "--". The check comes before any work (the tools build their
// advice first).
func javaCommand(cmd *cobra.Command, args []string) error {
	if err := cobra.MinimumNArgs(1)(cmd, args); err != nil {
		return err
	}
	if cmd.ArgsLenAtDash() != 0 {
		return fmt.Errorf("%s: put -- before the java command: %s", cmd.Name(), withDash(cmd, args))
	}
	return nil
}

// withDash is the command line the user meant: weft's flags as given, --,
// then the java command.
func withDash(cmd *cobra.Command, args []string) string {
	words := []string{"weft", cmd.Name()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand
		}
		vals := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vals = sv.GetSlice()
		}
		for _, v := range vals {
			switch {
			case f.Value.Type() != "bool":
				words = append(words, name, v)
			case v == "true":
				words = append(words, name)
			default: // a bool whose default is true, given as false
				words = append(words, "--"+f.Name+"=false")
			}
		}
	})
	return strings.Join(append(append(words, "--"), args...), " ")
}

// addAppCDSFlag adds --app-cds to weft run's and its tools' flags.
func addAppCDSFlag(f *pflag.FlagSet, p *bool) {
	f.BoolVar(p, "app-cds", true,
		"on the runtime image, map a class data sharing archive of the program's classes from its second run on (made once)")
}
