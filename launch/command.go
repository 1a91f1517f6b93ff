package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/weft-aop/weft/internal/javacmd"
)

// Command is the command that runs launcher (java, javac, jshell...) on
// w: the launcher of its runtime image, or the JDK's with the patches'
// options (@DIR/weft.args for java, DIR/weft.jargs as -J options for the
// other launchers), jvmOptions before the command's own. line is the
// command line read (its class path already the woven one), raw its
// arguments as given (a tool's, passed on as they are).
func (w *WovenJDK) Command(launcher string, line *javacmd.Line, raw, jvmOptions []string) (path string, args []string, err error) {
	name := filepath.Base(launcher)
	switch {
	case w.Image != "":
		return filepath.Join(w.Image, "bin", name), imageArgs(name, line.Tool, jvmOptions, line.Args()), nil
	case line.Tool:
		if args, err = launcherArgs(w.Dir, name, jvmOptions...); err != nil {
			return "", nil, err
		}
		return launcher, append(args, raw...), nil
	}
	return launcher, append([]string{"@" + filepath.Join(w.Dir, "weft.args")}, line.WithJVMOptions(jvmOptions...).Args()...), nil
}

// imageArgs returns the arguments of a launcher of the image: the image
// holds the woven JDK's options, so only extra JVM options are added (as
// -J options for launchers other than java, and -R options too for
// jshell's snippet JVM), and java's class path is the woven one.
func imageArgs(name string, tool bool, extra, args []string) []string {
	if !tool {
		return append(append([]string(nil), extra...), args...)
	}
	var out []string
	for _, x := range extra {
		out = append(out, "-J"+x)
	}
	if name == "jshell" {
		for _, x := range extra {
			out = append(out, "-R"+x)
		}
	}
	return append(out, args...)
}

// launcherArgs returns the woven JDK's options for one of its launchers
// other than java: DIR/weft.jargs and extra JVM options, one -J option
// each, and for jshell, whose snippets run in a JVM of their own, the same
// as -R options.
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

// A Process is a program to run with the given streams.
type Process struct {
	Path   string
	Args   []string
	Env    []string // added to weft's environment; nil: weft's
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Run runs p, passes the signals weft gets on to it, and returns its exit
// code (128+signal when a signal killed it; 127 when it could not start).
func Run(p Process) int {
	c := exec.Command(p.Path, p.Args...)
	if p.Env != nil {
		c.Env = append(os.Environ(), p.Env...)
	}
	c.Stdin, c.Stdout, c.Stderr = p.Stdin, p.Stdout, p.Stderr
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
