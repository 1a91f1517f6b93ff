package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/parallel"
	"github.com/weft-aop/weft/launch"
)

// rewriteFlags are the options of `weft classfile rewrite`.
type rewriteFlags struct {
	out      string
	frames   bool
	javaHome string
	jobs     int
}

func newClassfileRewriteCmd() *cobra.Command {
	var f rewriteFlags
	cmd := &cobra.Command{
		Use:   "rewrite [--frames] INPUT... -o OUT",
		Short: "Parse and re-encode every class of jars, directories, class files or the JDK",
		Long: `rewrite parses every class of its inputs and writes it back through the
code model: each method body is decoded into instructions and labels and
encoded again; with --frames, max stack, max locals and the StackMapTable
are recomputed by data-flow analysis. Running the JVM on the output (with
-Xverify:all) proves the class-file library on real code.

An INPUT is a directory of classes, a jar, a single .class file, or jdk:
(every module of the JDK at --java-home) or jdk:M1,M2 (some of its
modules). The output has the input's form: a jar for a jar (resources
copied unchanged, nothing dropped; written to a temporary file renamed at
the end), a directory for a directory, a class file for a class file (OUT,
or OUT/<its name> if OUT is a directory), and one directory per module for
jdk:, ready for --patch-module. With several inputs, OUT is a directory
holding one output per input, named after it.

A class that fails to parse or re-encode is copied unchanged with a
warning naming it and why. All cores are used.

Examples:
  weft classfile rewrite --frames jdk: -o /tmp/jdk
  java -Xverify:all --patch-module java.base=/tmp/jdk/java.base -version

  weft classfile rewrite --frames /usr/share/java/guava.jar -o /tmp/guava.jar
  weft classfile rewrite build/classes -o /tmp/classes`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.out == "" {
				return errors.New("rewrite: -o/--out OUT is required")
			}
			st, err := rewrite(args, f, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.ErrOrStderr(), st.summary())
			return nil
		},
	}
	cmd.Flags().StringVarP(&f.out, "out", "o", "", "output jar, directory or class file")
	cmd.Flags().BoolVar(&f.frames, "frames", false, "recompute max stack, max locals and StackMapTable frames")
	javaHomeFlag(cmd, &f.javaHome, "the JDK for jdk: inputs and the class hierarchy of --frames")
	cmd.Flags().IntVarP(&f.jobs, "jobs", "j", parallel.Workers(0), "classes rewritten in parallel")
	return cmd
}

// rewriteStats counts what a rewrite did; fields are updated atomically.
type rewriteStats struct {
	classes, methods, warnings, resources atomic.Int64
	start                                 time.Time
	elapsed                               time.Duration
}

func (s *rewriteStats) summary() string {
	return fmt.Sprintf("rewrote %d classes (%d methods), copied %d other entries, %d warnings, in %.1fs",
		s.classes.Load(), s.methods.Load(), s.resources.Load(), s.warnings.Load(), s.elapsed.Seconds())
}

// rewriter rewrites the classes of one run, counting them and logging
// warnings as they come.
type rewriter struct {
	opts  classfile.EncodeOptions
	stats *rewriteStats
	log   io.Writer
	tty   bool // log is a terminal showing a progress line
	logMu sync.Mutex
}

func (rw *rewriter) warnf(format string, args ...any) {
	rw.stats.warnings.Add(1)
	rw.logMu.Lock()
	defer rw.logMu.Unlock()
	if rw.tty { // overwrite the progress line
		fmt.Fprint(rw.log, "\r\x1b[K")
	}
	fmt.Fprintf(rw.log, "weft: warning: "+format+"\n", args...)
}

// transform rewrites one class of in; a class that fails is copied
// unchanged with a warning.
func (rw *rewriter) transform(in *archive.Input) archive.Transform {
	return archive.Func(func(e *archive.Entry, data []byte) *archive.Output {
		label := in.Label(e)
		out, methods, err := rewriteClass(label, data, rw.opts)
		rw.stats.classes.Add(1)
		if err != nil {
			rw.warnf("%s: %v (copied unchanged)", label, err)
			return nil
		}
		rw.stats.methods.Add(int64(methods))
		return &archive.Output{Class: out}
	})
}

// rewriteClass parses a class, decodes and re-encodes every method body,
// and encodes the class. A panic in the library becomes an error here: a
// bad class must not take the whole run down.
func rewriteClass(label string, in []byte, opts classfile.EncodeOptions) (out []byte, methods int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	c, err := classfile.Parse(label, in)
	if err != nil {
		return nil, 0, err
	}
	if methods, err = classfile.ReencodeCode(c, opts); err != nil {
		return nil, 0, err
	}
	return c.Bytes(), methods, nil
}

// rewrite rewrites each input into f.out and reports progress on log.
func rewrite(inputs []string, f rewriteFlags, log io.Writer) (*rewriteStats, error) {
	stats := &rewriteStats{start: time.Now()}
	var sources []classpath.Source
	defer func() {
		for _, s := range sources {
			s.Close()
		}
	}()
	// A JDK is needed for jdk: inputs and for frames, which merge
	// reference types by their common superclass.
	home := f.javaHome
	if needsJDK := f.frames || slices.ContainsFunc(inputs, func(in string) bool { return strings.HasPrefix(in, "jdk:") }); needsJDK {
		h, err := launch.JavaHome(f.javaHome)
		if err != nil {
			return nil, err
		}
		home = h
	}
	for _, in := range inputs {
		src, err := classpath.OpenSource(in, home)
		if err != nil {
			return nil, err
		}
		sources = append(sources, src)
	}
	rw := &rewriter{stats: stats, log: log, tty: rewriteToTerminal(log), opts: classfile.EncodeOptions{Frames: f.frames}}
	if f.frames {
		// Look classes up in the inputs first, then in the JDK.
		jdk, err := classpath.OpenJDK(home)
		if err != nil {
			return nil, err
		}
		sources = append(sources, jdk)
		rw.opts.Hierarchy = classpath.NewHierarchy(sources...)
	}
	stopProgress := showProgress(rw, log)
	defer stopProgress()
	for i, in := range inputs {
		out := f.out
		if len(inputs) > 1 {
			out = filepath.Join(f.out, outputName(in))
		}
		if err := rewriteInput(rw, in, sources[i], out, f.jobs); err != nil {
			return stats, err
		}
	}
	stats.elapsed = time.Since(stats.start)
	return stats, nil
}

// rewriteInput rewrites one input into out: a jar, a directory, a class
// file or a JDK image (one directory per module).
func rewriteInput(rw *rewriter, in string, src classpath.Source, out string, jobs int) error {
	var input *archive.Input
	var err error
	if img, ok := src.(*classpath.ImageSource); ok {
		input, err = archive.FromSource(img)
	} else {
		input, err = archive.Open(in)
	}
	if err != nil {
		return err
	}
	defer input.Close()
	rep, err := archive.Run(input, out, rw.transform(input), archive.Options{Workers: max(jobs, 1)})
	if err != nil {
		return err
	}
	rw.stats.resources.Add(int64(rep.Copied))
	for _, w := range rep.Warnings {
		rw.warnf("%s", w)
	}
	return nil
}

// outputName names an input's output inside OUT when there are several.
func outputName(in string) string {
	if strings.HasPrefix(in, "jdk:") {
		return "jdk"
	}
	return filepath.Base(filepath.Clean(in))
}

// rewriteToTerminal reports whether w is a terminal (a character device).
func rewriteToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// showProgress prints a progress line every 200ms when log is a terminal.
func showProgress(rw *rewriter, log io.Writer) (stop func()) {
	if !rw.tty {
		return func() {}
	}
	f := log
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				rw.logMu.Lock()
				fmt.Fprint(f, "\r\x1b[K")
				rw.logMu.Unlock()
				return
			case <-t.C:
				s := rw.stats
				n := s.classes.Load()
				rate := float64(n) / time.Since(s.start).Seconds()
				rw.logMu.Lock()
				fmt.Fprintf(f, "\r%d classes, %d methods, %d warnings (%.0f classes/s)\x1b[K",
					n, s.methods.Load(), s.warnings.Load(), rate)
				rw.logMu.Unlock()
			}
		}
	}()
	return func() { close(done); <-finished }
}
