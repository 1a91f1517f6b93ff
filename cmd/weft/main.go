// Command weft is an AspectJ-style aspect weaver for the JVM with full
// coverage: it weaves the JDK's own modules as well as application code.
//
// Each subcommand lives in its own file and registers itself on rootCmd in
// an init function.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// version is part of every cache key; bump it when woven output changes.
const version = "0.1.0-dev"

var rootCmd = &cobra.Command{
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

func init() {
	rootCmd.AddCommand(newRunCmd(), newServeCmd(), newProfileCmd(), newLeakCmd(), newRecrashCmd())
}

func main() {
	err := rootCmd.Execute()
	if perr := stopProfile(); err == nil {
		err = perr
	}
	var exit exitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.code)
	case err != nil:
		fmt.Fprintln(os.Stderr, "weft:", err)
		os.Exit(1)
	}
}
