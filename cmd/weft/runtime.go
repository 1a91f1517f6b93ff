package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/classfile"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

var runtimeFlags struct {
	out      string
	javaHome string
}

var runtimeCmd = &cobra.Command{
	Use:   "runtime -o weft-rt.jar",
	Short: "Write weft's runtime jar (weft.rt: bypass flags, join point static parts)",
	Long: `runtime writes the jar of weft's runtime classes (package weft.rt). Woven
application code needs it on the class path, and advice classes compile
against it (for weft.rt.JoinPointStaticPart).

The runtime is built from its embedded Java sources with the JDK's javac
the first time and cached (keyed by the sources' hash).

Example:

  weft runtime -o lib/weft-rt.jar
  javac -cp lib/weft-rt.jar -d advice src/counting/Counter.java`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		home := runtimeFlags.javaHome
		if home == "" {
			h, err := classfile.DefaultJavaHome()
			if err != nil {
				return err
			}
			home = h
		}
		classes, err := rtjava.Build(home, "")
		if err != nil {
			return err
		}
		b, err := rtjava.Jar(classes)
		if err != nil {
			return err
		}
		return os.WriteFile(runtimeFlags.out, b, 0o644)
	},
}

func init() {
	runtimeCmd.Flags().StringVarP(&runtimeFlags.out, "out", "o", "weft-rt.jar", "output jar")
	runtimeCmd.Flags().StringVar(&runtimeFlags.javaHome, "java-home", "", "JDK whose javac builds the runtime (default: java on PATH)")
	rootCmd.AddCommand(runtimeCmd)
}
