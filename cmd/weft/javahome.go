package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/classfile"
)

// jdkHome returns the JDK a command works with: its --java-home flag if
// set, else classfile.DefaultJavaHome() (the java on PATH, else
// $JAVA_HOME). Every command resolves its JDK here, so aspects are checked,
// woven and run against the same one.
func jdkHome(flag string) (string, error) {
	home := flag
	if home == "" {
		h, err := classfile.DefaultJavaHome()
		if err != nil {
			return "", err
		}
		home = h
	}
	if _, err := os.Stat(filepath.Join(home, "lib", "modules")); err != nil {
		return "", fmt.Errorf("%s is not a JDK with a modules image (use --java-home): %v", home, err)
	}
	return home, nil
}

// javaHomeFlag registers a command's --java-home flag; use says what the
// JDK is for.
func javaHomeFlag(cmd *cobra.Command, p *string, use string) {
	cmd.Flags().StringVar(p, "java-home", "", use+" (default: the java on PATH, else $JAVA_HOME)")
}
