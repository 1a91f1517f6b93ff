package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

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
	if !line.Tool && line.Mode == javacmd.Module {
		// The woven JDK's options name the modules of a class path
		// program's boot layer, and the advice on the boot class path uses
		// them (the leak tracker sun.misc.Unsafe, of jdk.unsupported);
		// java -m resolves only its module and what that needs: the JVM
		// warned "Unknown module" at each other one, and advice run while
		// it started failed with NoClassDefFoundError, which killed it.
		// The JDK's own launchers (javac, jshell...) add the same.
		jvmOptions = append([]string{"--add-modules=ALL-DEFAULT"}, jvmOptions...)
	}
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

// A process is a program to run with the given streams.
type process struct {
	Path   string
	Args   []string
	Env    []string // added to weft's environment; nil: weft's
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Exit is how the process of a program's run ended.
type Exit struct {
	// Code is its exit code: 128 plus the signal's number when a signal
	// killed it, 127 when it could not start.
	Code int
	// Signal is the signal that killed it, or 0; one weft passed on to
	// it (an interrupt) is not counted: the user ended it.
	Signal syscall.Signal
	// Report is the fatal error report (hs_err_pid<pid>.log) the JVM
	// wrote as it died, or "".
	Report string
}

// Crashed reports whether the process ended abnormally: killed by a
// signal, or a JVM that wrote a fatal error report.
func (e Exit) Crashed() bool { return e.Signal != 0 || e.Report != "" }

// Err returns nil if the process ended of itself (whatever its exit
// code), else an error saying how it crashed.
func (e Exit) Err() error {
	if !e.Crashed() {
		return nil
	}
	how := fmt.Sprintf("exit status %d", e.Code)
	if e.Signal != 0 {
		how += fmt.Sprintf(", signal %d: %v", int(e.Signal), e.Signal)
	}
	if e.Report == "" {
		return fmt.Errorf("the JVM crashed (%s) and wrote no fatal error report (hs_err_pid*.log): "+
			"it was killed from outside (by the kernel's out-of-memory killer?)", how)
	}
	return fmt.Errorf("the JVM crashed (%s): its fatal error report is %s", how, e.Report)
}

// run runs p, passes the signals weft gets on to it, and returns how it
// ended.
func (p process) run() Exit {
	c := exec.Command(p.Path, p.Args...)
	if p.Env != nil {
		c.Env = append(os.Environ(), p.Env...)
	}
	c.Stdin, c.Stdout, c.Stderr = p.Stdin, p.Stdout, p.Stderr
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	defer signal.Stop(sigs)
	start := time.Now()
	if err := c.Start(); err != nil {
		fmt.Fprintln(c.Stderr, "weft:", err)
		return Exit{Code: 127}
	}
	var passed atomic.Uint64 // the signals passed on, a bit each
	go func() {
		for s := range sigs {
			if n, ok := s.(syscall.Signal); ok {
				passed.Or(1 << (n & 63))
			}
			c.Process.Signal(s)
		}
	}()
	err := c.Wait()
	if err == nil {
		return Exit{}
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		fmt.Fprintln(c.Stderr, "weft:", err)
		return Exit{Code: 1}
	}
	e := Exit{Code: ee.ExitCode()}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.Code = 128 + int(ws.Signal())
		if passed.Load()&(1<<(ws.Signal()&63)) == 0 {
			e.Signal = ws.Signal()
		}
	}
	e.Report = fatalErrorReport(c.Process.Pid, start, p.Args, c.Env)
	return e
}

// fatalErrorReport returns the fatal error report the JVM of process pid
// wrote since start, looked for where HotSpot writes it: the file
// -XX:ErrorFile names (%p the pid), else hs_err_pid<pid>.log in the
// working directory, else in /tmp; "" if none. args are the command's
// arguments, env its environment (nil: weft's), where JAVA_TOOL_OPTIONS,
// JDK_JAVA_OPTIONS and _JAVA_OPTIONS may set the option too.
func fatalErrorReport(pid int, start time.Time, args, env []string) string {
	if env == nil {
		env = os.Environ()
	}
	opts := slices.Clone(args)
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == "JAVA_TOOL_OPTIONS" || k == "JDK_JAVA_OPTIONS" || k == "_JAVA_OPTIONS" {
			opts = append(opts, strings.Fields(v)...)
		}
	}
	var files []string
	for _, o := range opts {
		if f, ok := strings.CutPrefix(strings.TrimPrefix(o, "-J"), "-XX:ErrorFile="); ok {
			files = append(files, expandPid(f, pid))
		}
	}
	name := fmt.Sprintf("hs_err_pid%d.log", pid)
	files = append(files, name, filepath.Join("/tmp", name), filepath.Join(os.TempDir(), name))
	since := start.Truncate(time.Second) // the file system's times may be coarser
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() && !st.ModTime().Before(since) {
			if abs, err := filepath.Abs(f); err == nil {
				return abs
			}
			return f
		}
	}
	return ""
}

// expandPid expands an -XX:ErrorFile name as HotSpot does: %p is the
// process id, %% a percent sign.
func expandPid(name string, pid int) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] == '%' && i+1 < len(name) {
			switch name[i+1] {
			case 'p':
				fmt.Fprint(&b, pid)
				i++
				continue
			case '%':
				b.WriteByte('%')
				i++
				continue
			}
		}
		b.WriteByte(name[i])
	}
	return b.String()
}
