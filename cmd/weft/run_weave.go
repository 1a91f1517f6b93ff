package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// options returns the launch options the flags of a command that runs a
// program as weft run does say, for the command in args.
func (o *wovenRunOptions) options(args []string) launch.Options {
	return launch.Options{
		Command:  args,
		JavaHome: o.javaHome,
		Modules:  o.modules,
		Scope:    o.scope,
		LoadTime: launch.LoadTimeOptions{Off: !o.loadTime},
		Patches:  o.patches,
		AppCDS:   o.appCDS,
		CacheMax: o.cacheMax,
		Verbose:  o.verbose,
	}
}

// withStreams gives o cmd's streams, a progress bar on its standard error
// and weft's identity.
func withStreams(cmd *cobra.Command, o launch.Options) launch.Options {
	o.Stdin, o.Stdout, o.Stderr = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if o.Progress == nil {
		o.Progress = progressOn(o.Stderr)
	}
	o.Weft = weftDigest()
	return o
}

// runProgram runs the program o says (launch.Run) with cmd's streams. A
// JVM that crashed is an error that says how, with the JVM's exit code; a
// signal before the program started ends weft with 128 plus its number,
// launch having said so.
func runProgram(cmd *cobra.Command, o launch.Options) (launch.Result, error) {
	r, err := launch.Run(withStreams(cmd, o))
	var stopped *launch.Interrupted
	if errors.As(err, &stopped) {
		return r, exitError{code: stopped.ExitCode()}
	}
	if err != nil {
		return r, err
	}
	return r, jvmCrash(r.Exit)
}
