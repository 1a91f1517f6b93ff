package launch

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// Serve weaves the JDK as Run does (cached the same way), then serves
// load-time weaving to the JVMs started with java @DIR/weft.args (DIR:
// o.ServeDir, else a new temporary directory) until weft gets SIGINT,
// SIGTERM or SIGHUP; it then reports on all of them, as Run does for its
// JVM. A signal before it serves stops it with an *Interrupted; the weave
// cannot stop half way, so weft exits without it, and the cache keeps
// nothing of it as complete (an entry is complete once its record is
// written, after it is made).
func Serve(o Options) error {
	o.defaults()
	w, err := interruptible(o.Stderr, "serving", func() (*served, error) { return prepareServe(&o) })
	if err != nil {
		return err
	}
	defer w.close()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	dir := o.ServeDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "weft-serve-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	lo := o.LoadTime
	lt, err := startLoadTime(w.matcher, w.advice, LoadTimeJob{JDK: w.jdk, AdviceCP: o.AdviceCP, Modules: w.modules,
		Scope: w.scope, IDBase: w.woven.Summary.NextID, CacheDir: w.answers, WeaveInfo: o.WeaveInfo,
		InfoOut: o.Stdout, InfoErr: o.Stderr, Timeout: lo.Timeout, ListenDir: dir})
	if err != nil {
		return err
	}
	argsFile, err := writeServeArgs(dir, w.woven.Dir, strings.Join(lt.Properties(), "\n"))
	if err != nil {
		lt.Stop(o.Stderr)
		return err
	}
	fmt.Fprintf(o.Stderr, "weft: serving load-time weaving until stopped: java @%s ...\n", argsFile)
	<-sigs
	signal.Stop(sigs) // a second signal ends weft at once
	os.Remove(argsFile)
	// JVMs still running go on with their classes unwoven.
	lt.Drain()
	reportScope(o.Stderr, w.scope)
	return reportLoadTime(o.Stderr, lt.Stop(o.Stderr), lo.Report)
}

// served is what Serve makes before it serves: the advice, the woven JDK
// and the entry of the answers, in the cache.
type served struct {
	*weaving
	woven   *WovenJDK
	answers string // the answers' cache directory
}

// prepareServe resolves the advice and weaves the JDK, the first time,
// into the cache, whose entries stay in use until serving stops.
func prepareServe(o *Options) (_ *served, err error) {
	home, err := JavaHome(o.JavaHome)
	if err != nil {
		return nil, err
	}
	s := &served{}
	j := OpenJDK(home)
	if o.AspectPath != "" {
		at, err := aspectPathAspects(o.Stderr, j, o.AspectPath, o.ClassPath)
		if err != nil {
			j.Close()
			return nil, err
		}
		o.Aspects = append(o.Aspects, at.Files...)
		o.AdviceCP = JoinClassPath(o.AdviceCP, at.AdviceCP)
		if at.ShowWeaveInfo && o.WeaveInfo == "" {
			o.WeaveInfo = StderrInfo
		}
	}
	if s.weaving, err = openWeaving(o, j, nil); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	if err := s.useCache(); err != nil {
		return nil, err
	}
	if s.woven, err = s.wovenJDK(false); err != nil {
		return nil, err
	}
	if s.woven.Wove {
		applied := Applied{}
		if err := readApplied(s.woven.Dir, applied); err != nil {
			return nil, err
		}
		lintAdviceDidNotMatch(s.stderr, o.IgnoreUnmatched, s.advice, applied)
	}
	answers, err := s.cache.Acquire("ltw", s.woven.Key, jDKMeta(home, o.Aspects, o.AdviceCP, s.modules), nil)
	if err != nil {
		return nil, err
	}
	s.answers = answers.Dir
	s.cache.Trim()
	return s, nil
}

// writeServeArgs writes DIR/weft.args: the woven JDK's options and the
// socket's property (an argument file cannot include another). It is
// written whole under a temporary name, then renamed: a JVM or a script
// waiting for it never reads half of it.
func writeServeArgs(dir, jdkDir, property string) (string, error) {
	b, err := os.ReadFile(filepath.Join(jdkDir, "weft.args"))
	if err != nil {
		return "", err
	}
	text := strings.TrimRight(string(b), "\n") + "\n# weft serve's socket: load-time weaving\n" + property + "\n"
	name := filepath.Join(dir, "weft.args")
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return "", err
	}
	return name, os.Rename(tmp, name)
}
