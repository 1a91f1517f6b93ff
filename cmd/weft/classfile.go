package main

import "github.com/spf13/cobra"

// newClassfileCmd returns the group of the class-file tools (dump,
// rewrite); each subcommand lives in a file of its own.
func newClassfileCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "classfile",
		Short: "Inspect and rewrite Java class files (including the JDK's own)",
	}
	cmd.AddCommand(newClassfileDumpCmd(), newClassfileRewriteCmd())
	return cmd
}
