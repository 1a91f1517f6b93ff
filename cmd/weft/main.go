// Command weft is an AspectJ-style aspect weaver for the JVM with full
// coverage: it weaves the JDK's own modules as well as application code.
//
// Each subcommand lives in its own file: a function builds it over an
// options struct of its own, and newRootCmd puts them together, anew for
// each execution, so that no flag's value outlives it or reaches another
// command.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// version is part of every cache key; bump it when woven output changes.
const version = "0.1.0-dev"

// newRootCmd returns weft's command tree; its hidden --cpuprofile and
// --trace start the Go profiles of prof.
func newRootCmd(prof *goProfiles) *cobra.Command {
	root := &cobra.Command{
		Use:   "weft",
		Short: "Weave aspects into Java bytecode, the JDK's own classes included",
		Long: `weft is an AspectJ-style aspect weaver for the JVM with full coverage:
it weaves the JDK's own modules (java.base included) as well as your
application, so profilers, leak trackers and tracers see everything.

Write pointcuts and advice in a small .weft file; the advice bodies are
static methods of your own Java class. Start with:

  weft check examples/leak/leak.weft --advice-cp DIR     validate an aspect
  weft run -a ASPECT --advice-cp DIR -- java -cp APP Main weave JDK + app, run
  weft leak -- java -cp APP Main                         find memory leaks
  weft classfile dump jdk:java/lang/String               look at bytecode`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	prof.addFlags(root)
	root.AddCommand(
		newCheckCmd(),
		newWeaveCmd(),
		newJDKCmd(),
		newRunCmd(),
		newServeCmd(),
		newRuntimeCmd(),
		newProfileCmd(),
		newLeakCmd(),
		newRecrashCmd(),
		newFlameCmd(),
		newDiffCmd(),
		newClassfileCmd(),
		newCacheCmd(),
	)
	return root
}

// runWeft executes weft with args (os.Args[1:]) on the streams given and
// returns the command's error: nil, an exitError to exit with, or another
// to report. The Go profiles are written before it returns.
func runWeft(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	prof := &goProfiles{}
	root := newRootCmd(prof)
	root.SetArgs(javaSpellings(args))
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if perr := prof.stop(); err == nil {
		err = perr
	}
	return err
}

func main() {
	err := runWeft(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	var exit exitError
	switch {
	case errors.As(err, &exit):
		if exit.err != nil {
			fmt.Fprintln(os.Stderr, "weft:", exit.err)
		}
		os.Exit(exit.code)
	case err != nil:
		fmt.Fprintln(os.Stderr, "weft:", err)
		os.Exit(1)
	}
}
