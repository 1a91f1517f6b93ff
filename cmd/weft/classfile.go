package main

import "github.com/spf13/cobra"

// classfileCmd groups the class-file tools (dump, rewrite); each subcommand
// lives in its own file and adds itself here in an init function.
var classfileCmd = &cobra.Command{
	Use:   "classfile",
	Short: "Inspect and rewrite Java class files (including the JDK's own)",
}

func init() { rootCmd.AddCommand(classfileCmd) }
