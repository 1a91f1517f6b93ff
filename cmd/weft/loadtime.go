package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/weft-aop/weft/weaver/scope"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/parallel"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/ltw"
)

// nextIDFile holds, in a woven class path's cache directory, the first
// join point id after it: load-time weaving numbers from there.
const nextIDFile = "next-id"

func writeNextID(dir string, id int32) error {
	return os.WriteFile(filepath.Join(dir, nextIDFile), []byte(strconv.Itoa(int(id))+"\n"), 0o644)
}

func readNextID(dir string) (int32, error) {
	b, err := os.ReadFile(filepath.Join(dir, nextIDFile))
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 32)
	return int32(n), err
}

// drainWait bounds the wait, once the JVM exited, for its connections to
// end: their last frames report the classes it answered from the cache's
// index (ltw.Server.Drain).
const drainWait = 2 * time.Second

// loadTime is the load-time weaving server of one weft run.
type loadTime struct {
	srv   *ltw.Server
	ln    io.Closer
	path  string // the socket
	scope string // the scope's file for the JVM beside it, "" for none
	srcs  []classfile.Source
	cache *ltw.Cache
	info  *infoFile
	// tempDir: the socket's directory is weft's own, removed at stop.
	tempDir bool
	// restore undoes parallel.ShareMachine at stop.
	restore func()
}

// loadTimeJob is what startLoadTime needs beyond the aspects.
type loadTimeJob struct {
	home      string
	classPath []string // the class path entries present (originals)
	adviceCP  string
	modules   string // the JDK modules woven ahead of time
	scope     *scope.Scope
	idBase    int32  // the first join point id after the JDK's and the class path's
	cacheDir  string // the cross-run cache of answers, "" for none
	weaveInfo string // the file for --weave-info lines, "" for none, "-" for infoOut
	infoOut   io.Writer
	timeout   time.Duration
	listenDir string // the socket's directory (weft serve), "" for a temporary one
}

// startLoadTime starts serving the JVM's class definitions (docs/ltw.md)
// with the aspects, join point ids from idBase, and a hierarchy over the
// class path entries (the originals: the JVM sends original bytes), the
// advice class path and the JDK.
//
// Classes of JDK modules outside modules (the modules woven ahead of time;
// "all" or M,M...) are left as they are: their module was given no access
// to weft's runtime.
func startLoadTime(m advice.Matcher, advs []*advice.Advice, job loadTimeJob) (*loadTime, error) {
	home, classPath, adviceCP, modules, idBase := job.home, job.classPath, job.adviceCP, job.modules, job.idBase
	srcs, err := classfile.OpenClassPath(strings.Join(append(append([]string{}, classPath...), adviceCP), string(filepath.ListSeparator)), home)
	if err != nil {
		return nil, err
	}
	img, err := classfile.OpenJDK(home)
	if err != nil {
		closeSources(srcs)
		return nil, err
	}
	srcs = append(srcs, img)
	h := ltw.NewHierarchy(srcs...)
	w := weaver.New(m, advs, weaver.Options{Hierarchy: h, IDBase: idBase, Scope: job.scope})
	var ln net.Listener
	var path string
	if job.listenDir != "" {
		ln, path, err = ltw.ListenIn(job.listenDir)
	} else {
		ln, path, err = ltw.Listen("")
	}
	if err != nil {
		closeSources(srcs)
		return nil, err
	}
	lt := &loadTime{srv: ltw.NewServer(w, h), ln: ln, path: path, srcs: srcs, tempDir: job.listenDir == "", restore: func() {}}
	lt.srv.Timeout = job.timeout
	if reach := w.Reach(); !job.scope.Empty() || reach != nil {
		// The JVM leaves the classes out of scope, and those no aspect
		// reaches, unwoven itself.
		lt.scope = filepath.Join(filepath.Dir(path), "scope")
		if err := os.WriteFile(lt.scope, scopeForJVM(job.scope, reach), 0o600); err != nil {
			lt.scope = "" // the server still applies it, a round trip a class
		}
	}
	if modules != "" && modules != "all" {
		woven, err := classfile.OpenJDK(home, strings.Split(modules, ",")...)
		if err != nil {
			ln.Close()
			closeSources(srcs)
			return nil, err
		}
		lt.srcs = append(lt.srcs, woven)
		lt.srv.Skip = func(name string) bool {
			if _, err := img.Class(name); err != nil {
				return false // not the JDK's
			}
			_, err := woven.Class(name)
			return err != nil
		}
	}
	if job.cacheDir != "" {
		if lt.cache, err = ltw.OpenCache(job.cacheDir, idBase); err != nil {
			lt.stop(io.Discard) // no --weave-info file yet
			return nil, err
		}
		lt.srv.Cache = lt.cache
	}
	if job.weaveInfo != "" {
		if lt.info, err = createInfoFile(job.weaveInfo, job.infoOut); err != nil {
			lt.stop(io.Discard) // no --weave-info file yet
			return nil, err
		}
		lt.srv.OnInfo = lt.info.write
	}
	lt.restore = parallel.ShareMachine() // the JVM needs the other half
	go lt.srv.Serve(ln)
	return lt, nil
}

// property is the JVM option naming the socket.
func (lt *loadTime) properties() []string {
	p := []string{"-D" + rtjava.LTWProperty + "=" + lt.path}
	if lt.scope != "" {
		p = append(p, "-D"+rtjava.LTWScopeProperty+"="+lt.scope)
	}
	return p
}

// drain stops accepting connections and waits, up to drainWait, for
// those open to end: the last frames of a JVM that exited report the
// classes it answered itself (ltw.Server.Drain).
func (lt *loadTime) drain() {
	lt.ln.Close()
	lt.srv.Drain(drainWait)
}

// stop closes the channel and returns what was done; an error closing the
// --weave-info file is reported on stderr.
func (lt *loadTime) stop(stderr io.Writer) ltw.Summary {
	if lt.restore != nil { // nil when startLoadTime failed
		defer lt.restore()
	}
	lt.ln.Close()
	lt.srv.Close()
	if lt.tempDir {
		os.RemoveAll(filepath.Dir(lt.path))
	}
	closeSources(lt.srcs)
	if lt.cache != nil {
		lt.cache.Close()
	}
	if lt.info != nil {
		if err := lt.info.close(); err != nil {
			fmt.Fprintln(stderr, "weft:", err)
		}
	}
	return lt.srv.Summary()
}

// infoFile collects the --weave-info lines of the classes woven at load
// time, as the server's connections send them.
type infoFile struct {
	mu sync.Mutex
	f  *os.File // nil for standard output
	w  *bufio.Writer
}

// createInfoFile creates the file name, or for "-" writes to stdout.
func createInfoFile(name string, stdout io.Writer) (*infoFile, error) {
	if name == "-" {
		return &infoFile{w: bufio.NewWriter(stdout)}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &infoFile{f: f, w: bufio.NewWriter(f)}, nil
}

func (i *infoFile) write(lines string) {
	i.mu.Lock()
	i.w.WriteString(lines)
	i.mu.Unlock()
}

func (i *infoFile) close() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	err := i.w.Flush()
	if i.f == nil {
		return err
	}
	if cerr := i.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func closeSources(srcs []classfile.Source) {
	for _, s := range srcs {
		s.Close()
	}
}

// maxUnwovenShown bounds the classes left unwoven named on stderr; the
// report file has them all.
const maxUnwovenShown = 10

// reportLoadTime prints the summary line and the classes left unwoven, and
// writes the summary as JSON to file if given.
func reportLoadTime(w io.Writer, sum ltw.Summary, file string) error {
	fmt.Fprintf(w, "weft: %s\n", sum)
	for i, u := range sum.Unwoven {
		if i == maxUnwovenShown {
			fmt.Fprintf(w, "weft: ... and %d more\n", sum.UnwovenCount-i)
			break
		}
		fmt.Fprintf(w, "weft: warning: %s (%s class) left unwoven: %s\n", u.Class, u.Kind, u.Reason)
	}
	if file == "" {
		return nil
	}
	b, err := json.MarshalIndent(struct {
		ltw.Summary
		// PeakRSSKB is weft's own peak resident set (the server's, with
		// what weft did before the JVM started), for the benchmark.
		PeakRSSKB int64 `json:"peakRSSKB,omitempty"`
		// CPUSeconds is weft's own user + system CPU time so far.
		CPUSeconds float64 `json:"cpuSeconds,omitempty"`
	}{sum, peakRSSKB(), cpuSeconds()}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// peakRSSKB is this process's peak resident set size in KB (VmHWM), 0 if
// unknown.
func peakRSSKB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// cpuSeconds is this process's user + system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
