package main

import (
	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// runtimeOptions are weft runtime's flags.
type runtimeOptions struct {
	out      string
	javaHome string
}

func newRuntimeCmd() *cobra.Command {
	opts := &runtimeOptions{}
	cmd := &cobra.Command{
		Use:   "runtime -o weft-rt.jar",
		Short: "Write weft's runtime jar (weft.rt: bypass flags, join points and their static parts)",
		Long: `runtime writes the jar of weft's runtime classes (package weft.rt). Woven
application code needs it on the class path, and advice classes compile
against it (for weft.rt.JoinPoint and weft.rt.JoinPointStaticPart).

The runtime is built from its embedded Java sources with the JDK's javac
the first time and cached (keyed by the sources' hash).

Example:

  weft runtime -o lib/weft-rt.jar
  javac -cp lib/weft-rt.jar -d advice src/counting/Counter.java`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			home, err := launch.JavaHome(opts.javaHome)
			if err != nil {
				return err
			}
			return launch.WriteRuntime(home, opts.out, true)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "out", "o", "weft-rt.jar", "output jar")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK whose javac builds the runtime")
	return cmd
}
