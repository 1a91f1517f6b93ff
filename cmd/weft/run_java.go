package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// This file is the process weft run starts: the launcher's arguments on
// the woven JDK, and the supervision of the JVM (streams, signals, exit
// code).

// runJava runs java with cmd's streams (the terminal's, unless a test
// sets others), passes signals on, and returns its exit code (128+signal
// when a signal killed it).
func runJava(cmd *cobra.Command, java string, args []string, env []string) int {
	c := exec.Command(java, args...)
	if env != nil {
		c.Env = append(os.Environ(), env...)
	}
	c.Stdin, c.Stdout, c.Stderr = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	defer signal.Stop(sigs)
	if err := c.Start(); err != nil {
		fmt.Fprintln(c.Stderr, "weft:", err)
		return 127
	}
	go func() {
		for s := range sigs {
			c.Process.Signal(s)
		}
	}()
	err := c.Wait()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintln(c.Stderr, "weft:", err)
	return 1
}

// launcherArgs returns the woven JDK's options for one of its launchers
// other than java: DIR/weft.jargs and extra JVM options, one -J option each, and for jshell,
// whose snippets run in a JVM of their own, the same as -R options.
func launcherArgs(jdkDir, name string, extra ...string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(jdkDir, "weft.jargs"))
	if err != nil {
		return nil, err
	}
	jargs := strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
	for _, x := range extra {
		jargs = append(jargs, "-J"+x)
	}
	out := append([]string(nil), jargs...)
	if name == "jshell" {
		for _, j := range jargs {
			out = append(out, "-R"+strings.TrimPrefix(j, "-J"))
		}
	}
	return out, nil
}

// isOtherJDKLauncher reports whether the command is a launcher of the JDK's
// bin/ other than java (javac, jar, jshell...): those take JVM options
// only as -J arguments.
func isOtherJDKLauncher(launcher, home string) bool {
	if filepath.Base(launcher) == "java" {
		return false
	}
	real, err1 := filepath.EvalSymlinks(launcher)
	bin, err2 := filepath.EvalSymlinks(filepath.Join(home, "bin"))
	return err1 == nil && err2 == nil && filepath.Dir(real) == bin
}
