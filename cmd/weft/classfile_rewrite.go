package main

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/classfile"
)

// rewriteFlags are the options of `weft classfile rewrite`.
type rewriteFlags struct {
	out      string
	frames   bool
	javaHome string
	jobs     int
}

func init() {
	var f rewriteFlags
	cmd := &cobra.Command{
		Use:   "rewrite [--frames] INPUT... -o OUT",
		Short: "Parse and re-encode every class of jars, directories or the JDK",
		Long: `rewrite parses every class of its inputs and writes it back through the
code model: each method body is decoded into instructions and labels and
encoded again; with --frames, max stack, max locals and the StackMapTable
are recomputed by data-flow analysis. Running the JVM on the output (with
-Xverify:all) proves the class-file library on real code.

An INPUT is a directory of classes, a jar, or jdk: (every module of the
JDK at --java-home) or jdk:M1,M2 (some of its modules). The output has the
input's form: a jar for a jar (resources copied unchanged, nothing
dropped), a directory for a directory, and one directory per module for
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
				return errors.New("rewrite: -o OUT is required")
			}
			st, err := rewrite(args, f, os.Stderr)
			if err != nil {
				return err
			}
			fmt.Fprintln(os.Stderr, st.summary())
			return nil
		},
	}
	cmd.Flags().StringVarP(&f.out, "output", "o", "", "output jar or directory")
	cmd.Flags().BoolVar(&f.frames, "frames", false, "recompute max stack, max locals and StackMapTable frames")
	cmd.Flags().StringVar(&f.javaHome, "java-home", "", "JDK for jdk: inputs and the class hierarchy (default: the java on PATH)")
	cmd.Flags().IntVarP(&f.jobs, "jobs", "j", runtime.NumCPU(), "classes rewritten in parallel")
	classfileCmd.AddCommand(cmd)
}

// rewriteStats counts what a rewrite did; fields are updated atomically.
type rewriteStats struct {
	classes, methods, warnings, resources atomic.Int64
	start                                 time.Time
	elapsed                               time.Duration
}

func (s *rewriteStats) summary() string {
	return fmt.Sprintf("rewrote %d classes (%d methods), copied %d other files, %d warnings, in %.1fs",
		s.classes.Load(), s.methods.Load(), s.resources.Load(), s.warnings.Load(), s.elapsed.Seconds())
}

// rewriteJob is one class: where its bytes come from and where they go.
type rewriteJob struct {
	label string // names the class in warnings, e.g. "java.base/java/lang/String.class"
	read  func() ([]byte, error)
	write func([]byte) error
	done  func() // if set, called when the job is over, whatever happened
}

// rewriter runs jobs on a pool of workers.
type rewriter struct {
	opts  classfile.EncodeOptions
	stats *rewriteStats
	log   io.Writer
	tty   bool // log is a terminal showing a progress line
	logMu sync.Mutex
	dirs  sync.Map // output directories already created
	jobs  chan rewriteJob
	wg    sync.WaitGroup
	errMu sync.Mutex
	err   error // the first I/O error; class errors are warnings
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

func (rw *rewriter) fail(err error) {
	rw.errMu.Lock()
	defer rw.errMu.Unlock()
	if rw.err == nil {
		rw.err = err
	}
}

func (rw *rewriter) failed() error {
	rw.errMu.Lock()
	defer rw.errMu.Unlock()
	return rw.err
}

func (rw *rewriter) start(workers int) {
	rw.jobs = make(chan rewriteJob, 4*workers)
	for i := 0; i < workers; i++ {
		rw.wg.Add(1)
		go func() {
			defer rw.wg.Done()
			for j := range rw.jobs {
				rw.run(j)
			}
		}()
	}
}

func (rw *rewriter) run(j rewriteJob) {
	if j.done != nil {
		defer j.done()
	}
	in, err := j.read()
	if err != nil {
		rw.fail(fmt.Errorf("reading %s: %w", j.label, err))
		return
	}
	out, methods, err := rewriteClass(j.label, in, rw.opts)
	if err != nil {
		rw.warnf("%s: %v (copied unchanged)", j.label, err)
		out = in
	}
	rw.stats.classes.Add(1)
	rw.stats.methods.Add(int64(methods))
	if err := j.write(out); err != nil {
		rw.fail(fmt.Errorf("writing %s: %w", j.label, err))
	}
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
	var sources []classfile.Source
	defer func() {
		for _, s := range sources {
			s.Close()
		}
	}()
	for _, in := range inputs {
		src, err := classfile.OpenSource(in, f.javaHome)
		if err != nil {
			return nil, err
		}
		sources = append(sources, src)
	}
	rw := &rewriter{stats: stats, log: log, tty: rewriteToTerminal(log), opts: classfile.EncodeOptions{Frames: f.frames}}
	if f.frames {
		// Frames merge reference types by their common superclass: look
		// classes up in the inputs first, then in the JDK.
		home := f.javaHome
		if home == "" {
			h, err := classfile.DefaultJavaHome()
			if err != nil {
				return nil, err
			}
			home = h
		}
		jdk, err := classfile.OpenJDK(home)
		if err != nil {
			return nil, err
		}
		sources = append(sources, jdk)
		rw.opts.Hierarchy = classfile.NewHierarchy(sources...)
	}
	if f.jobs < 1 {
		f.jobs = 1
	}
	rw.start(f.jobs)
	stopProgress := showProgress(rw, log)

	var err error
	for i, in := range inputs {
		out := f.out
		if len(inputs) > 1 {
			out = filepath.Join(f.out, outputName(in))
		}
		src := sources[i]
		switch s := src.(type) {
		case *classfile.JarSource:
			err = rewriteJar(rw, in, out)
		case *classfile.ImageSource:
			err = rewriteImage(rw, s, out)
		default:
			err = rewriteDir(rw, in, out)
		}
		if err != nil {
			break
		}
	}
	close(rw.jobs)
	rw.wg.Wait()
	stopProgress()
	stats.elapsed = time.Since(stats.start)
	if err == nil {
		err = rw.failed()
	}
	return stats, err
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

// writeFile writes b to p, creating its directory (once: a JDK has
// tens of thousands of classes in a thousand packages).
func (rw *rewriter) writeFile(p string, b []byte) error {
	dir := filepath.Dir(p)
	if _, ok := rw.dirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		rw.dirs.Store(dir, true)
	}
	return os.WriteFile(p, b, 0o644)
}

// rewriteImage writes OUT/<module>/<path> for every class of the image.
func rewriteImage(rw *rewriter, src *classfile.ImageSource, out string) error {
	return src.Walk(func(e classfile.ClassEntry) error {
		if err := rw.failed(); err != nil {
			return err
		}
		dst := filepath.Join(out, e.Module, filepath.FromSlash(e.Path))
		rw.jobs <- rewriteJob{
			label: e.Module + "/" + e.Path,
			read:  e.Read,
			write: func(b []byte) error { return rw.writeFile(dst, b) },
		}
		return nil
	})
}

// rewriteDir rewrites the classes of a directory tree and copies its
// other files.
func rewriteDir(rw *rewriter, in, out string) error {
	return filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := rw.failed(); err != nil {
			return err
		}
		rel, err := filepath.Rel(in, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case strings.HasSuffix(p, ".class") && d.Type().IsRegular():
			rw.jobs <- rewriteJob{
				label: p,
				read:  func() ([]byte, error) { return os.ReadFile(p) },
				write: func(b []byte) error { return rw.writeFile(dst, b) },
			}
			return nil
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rw.stats.resources.Add(1)
			return rw.writeFile(dst, b)
		}
	})
}

// rewriteJar rewrites a jar's classes in parallel, then writes the new jar
// with every entry in its original order: classes re-encoded, everything
// else copied raw (still compressed, byte for byte).
func rewriteJar(rw *rewriter, in, out string) error {
	zr, err := zip.OpenReader(in)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if signatureFile(zf.Name) {
			rw.warnf("%s is signed (%s): the rewritten classes no longer match the signature", in, zf.Name)
			break
		}
	}
	classes := make([][]byte, len(zr.File))
	var pending sync.WaitGroup
	for i, zf := range zr.File {
		if !strings.HasSuffix(zf.Name, ".class") || zf.FileInfo().IsDir() {
			continue
		}
		if err := rw.failed(); err != nil {
			return err
		}
		i, zf := i, zf
		pending.Add(1)
		rw.jobs <- rewriteJob{
			label: in + "!" + zf.Name,
			read:  func() ([]byte, error) { return readZipEntry(zf) },
			write: func(b []byte) error { classes[i] = b; return nil },
			done:  pending.Done,
		}
	}
	pending.Wait()
	if err := rw.failed(); err != nil {
		return err
	}

	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	if zr.Comment != "" {
		zw.SetComment(zr.Comment)
	}
	for i, zf := range zr.File {
		switch {
		case strings.HasSuffix(zf.Name, "/"):
			// A directory: zip.Writer refuses raw data for it, even the
			// empty deflate stream the jar tool writes.
			h := zf.FileHeader
			h.Method, h.CRC32, h.CompressedSize64, h.UncompressedSize64 = zip.Store, 0, 0, 0
			h.CompressedSize, h.UncompressedSize = 0, 0
			_, err = zw.CreateHeader(&h)
		case classes[i] == nil:
			rw.stats.resources.Add(1)
			err = zw.Copy(zf)
		default:
			h := zf.FileHeader // name, method, times, extra and comment kept
			h.CRC32, h.CompressedSize64, h.UncompressedSize64 = 0, 0, 0
			h.CompressedSize, h.UncompressedSize = 0, 0
			var w io.Writer
			if w, err = zw.CreateHeader(&h); err == nil {
				_, err = w.Write(classes[i])
			}
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %s: %w", out, zf.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return f.Close()
}

// signatureFile reports whether a jar entry is a signature block file.
func signatureFile(name string) bool {
	dir, file := filepath.Split(name)
	if dir != "META-INF/" {
		return false
	}
	ext := strings.ToUpper(filepath.Ext(file))
	return ext == ".SF" || ext == ".RSA" || ext == ".DSA" || ext == ".EC"
}

func readZipEntry(zf *zip.File) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, 1<<30))
}
