package launch

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/parallel"
	"github.com/weft-aop/weft/runtime-java/rtnames"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/ltw"
	"github.com/weft-aop/weft/weaver/scope"
)

// drainWait bounds the wait, once the JVM exited, for its connections to
// end: their last frames report the classes it answered from the cache's
// index (ltw.Server.Drain).
const drainWait = 2 * time.Second

// LoadTime is the load-time weaving server of one run (docs/ltw.md).
type LoadTime struct {
	srv   *ltw.Server
	ln    io.Closer
	path  string             // the socket
	scope string             // the scope's file for the JVM beside it, "" for none
	srcs  []classpath.Source // its own: the JDK's image is the JDK's
	cache *ltw.Cache
	info  *InfoFile
	// tempDir: the socket's directory is weft's own, removed at stop.
	tempDir bool
	// restore undoes parallel.ShareMachine at stop.
	restore func()
}

// LoadTimeJob is what startLoadTime needs beyond the aspects.
type LoadTimeJob struct {
	JDK       *JDK
	ClassPath []string // the class path entries present (originals)
	AdviceCP  string
	Modules   string // the JDK modules woven ahead of time
	Scope     *scope.Scope
	IDBase    int32  // the first join point id after the JDK's and the class path's
	CacheDir  string // the cross-run cache of answers, "" for none
	WeaveInfo string // the file for --weave-info lines, "" for none, "-" for InfoOut
	// PriorInfo is a file of --weave-info lines written first: the class
	// path's, woven ahead of time ("" for none).
	PriorInfo string
	InfoOut   io.Writer
	InfoErr   io.Writer // StderrInfo's
	Timeout   time.Duration
	ListenDir string // the socket's directory (weft serve), "" for a temporary one
}

// startLoadTime starts serving the JVM's class definitions (docs/ltw.md)
// with the aspects, join point ids from idBase, and a hierarchy over the
// class path entries (the originals: the JVM sends original bytes), the
// advice class path and the JDK.
//
// Classes of JDK modules outside modules (the modules woven ahead of time;
// "all" or M,M...) are left as they are: their module was given no access
// to weft's runtime.
func startLoadTime(m advice.Matcher, advs []*advice.Advice, job LoadTimeJob) (*LoadTime, error) {
	modules, idBase := job.Modules, job.IDBase
	own, srcs, err := job.JDK.Sources(strings.Join(append(append([]string{}, job.ClassPath...), job.AdviceCP), string(filepath.ListSeparator)))
	if err != nil {
		return nil, err
	}
	img, _ := job.JDK.Image() // opened by Sources
	h := ltw.NewHierarchy(srcs...)
	w := weaver.New(m, advs, weaver.Options{Hierarchy: h, IDBase: idBase, Scope: job.Scope})
	var ln net.Listener
	var path string
	if job.ListenDir != "" {
		ln, path, err = ltw.ListenIn(job.ListenDir)
	} else {
		ln, path, err = ltw.Listen("")
	}
	if err != nil {
		closeSources(own)
		return nil, err
	}
	lt := &LoadTime{srv: ltw.NewServer(w, h), ln: ln, path: path, srcs: own, tempDir: job.ListenDir == "", restore: func() {}}
	lt.srv.Timeout = job.Timeout
	if reach := w.Reach(); !job.Scope.Empty() || reach != nil {
		// The JVM leaves the classes out of scope, and those no aspect
		// reaches, unwoven itself.
		lt.scope = filepath.Join(filepath.Dir(path), "scope")
		if err := os.WriteFile(lt.scope, ltw.ScopeFile(job.Scope, reach), 0o600); err != nil {
			lt.scope = "" // the server still applies it, a round trip a class
		}
	}
	if modules != "" && modules != "all" {
		woven, err := img.Only(strings.Split(modules, ",")...)
		if err != nil {
			ln.Close()
			closeSources(own)
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
	if job.CacheDir != "" {
		if lt.cache, err = ltw.OpenCache(job.CacheDir, idBase); err != nil {
			lt.Stop(io.Discard) // no --weave-info file yet
			return nil, err
		}
		lt.srv.Cache = lt.cache
	}
	if job.WeaveInfo != "" {
		if lt.info, err = createInfoFile(job.WeaveInfo, job.InfoOut, job.InfoErr); err != nil {
			lt.Stop(io.Discard) // no --weave-info file yet
			return nil, err
		}
		lt.srv.OnInfo = lt.info.Write
		if job.PriorInfo != "" {
			b, err := os.ReadFile(job.PriorInfo)
			if err != nil {
				lt.Stop(io.Discard)
				return nil, err
			}
			lt.info.Write(string(b))
		}
	}
	lt.restore = parallel.ShareMachine() // the JVM needs the other half
	go lt.srv.Serve(ln)
	return lt, nil
}

// Path is the socket the JVMs connect to.
func (lt *LoadTime) Path() string { return lt.path }

// Properties are the JVM options naming the socket (and the scope file).
func (lt *LoadTime) Properties() []string {
	p := []string{"-D" + rtnames.LTWProperty + "=" + lt.path}
	if lt.scope != "" {
		p = append(p, "-D"+rtnames.LTWScopeProperty+"="+lt.scope)
	}
	return p
}

// Env returns the environment variables that say the same to the JVMs
// the program starts, which inherit them.
func (lt *LoadTime) Env() []string {
	e := []string{rtnames.LTWEnv + "=" + lt.path}
	if lt.scope != "" {
		e = append(e, rtnames.LTWScopeEnv+"="+lt.scope)
	}
	return e
}

// Drain stops accepting connections and waits, up to drainWait, for
// those open to end: the last frames of a JVM that exited report the
// classes it answered itself (ltw.Server.Drain).
func (lt *LoadTime) Drain() {
	lt.ln.Close()
	lt.srv.Drain(drainWait)
}

// Stop closes the channel and returns what was done; an error closing the
// --weave-info file is reported on stderr.
func (lt *LoadTime) Stop(stderr io.Writer) ltw.Summary {
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
		if err := lt.info.Close(); err != nil {
			fmt.Fprintln(stderr, "weft:", err)
		}
	}
	return lt.srv.Summary()
}
