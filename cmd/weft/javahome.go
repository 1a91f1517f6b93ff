package main

import "github.com/spf13/cobra"

// javaHomeFlag registers a command's --java-home flag; use says what the
// JDK is for (launch.JavaHome resolves it).
func javaHomeFlag(cmd *cobra.Command, p *string, use string) {
	cmd.Flags().StringVar(p, "java-home", "", use+" (default: the java on PATH, else $JAVA_HOME)")
}
