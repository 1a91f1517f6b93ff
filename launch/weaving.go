package launch

import (
	"fmt"
	"io"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/pointcut"
	"github.com/weft-aop/weft/weaver/scope"
)

// A weaving is what every command that weaves builds from its options
// first: the JDK opened once, the aspects resolved to advice, the scope
// and the JDK modules; and, for the commands that keep their weavings, the
// cache with the entries the command uses. close releases all of it.
type weaving struct {
	o       *Options
	stderr  io.Writer
	jdk     *JDK
	prog    *pointcut.Program
	matcher advice.Matcher
	advice  []*advice.Advice
	scope   *scope.Scope
	modules string // "all" or M,M...: --modules' globs expanded
	// bootCP is the advice's class path and the class path entries that
	// hold advice classes (holders): the advice's boot class path.
	bootCP  string
	holders []string
	cache   *Cache
	closers []func()
}

// openWeaving resolves o's aspects against the JDK j, which it then owns,
// their advice classes on o.AdviceCP or on the class path entries present
// (a program's); then the scope and the modules.
func openWeaving(o *Options, j *JDK, present []string) (_ *weaving, err error) {
	w := &weaving{o: o, stderr: o.Stderr, jdk: j}
	w.closers = append(w.closers, func() { w.jdk.Close() })
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	if w.prog, w.holders, err = resolveAdvice(w.stderr, w.jdk, o.Aspects, o.AdviceCP, present); err != nil {
		return nil, err
	}
	w.matcher, w.advice = w.prog, w.prog.Advice()
	w.bootCP = JoinClassPath(append([]string{o.AdviceCP}, w.holders...)...)
	if w.scope, err = o.Scope.build(); err != nil {
		return nil, err
	}
	if w.modules, err = expandModules(w.jdk, o.Modules); err != nil {
		return nil, err
	}
	return w, nil
}

// useCache opens the cache; the entries the command acquires stay in use
// until close.
func (w *weaving) useCache() error {
	c, err := openCache(w.o.CacheMax, w.stderr, w.o.Weft)
	if err != nil {
		return err
	}
	w.cache = c
	w.closers = append(w.closers, c.Release)
	return nil
}

// wovenJDK returns the JDK woven for the aspects, from the cache or woven
// now (with its runtime image if image), drawing the progress.
func (w *weaving) wovenJDK(image bool) (*WovenJDK, error) {
	job := WovenJDKJob{JDK: w.jdk, Matcher: w.matcher, Advice: w.advice, Aspects: w.o.Aspects, BootCP: w.bootCP,
		Modules: w.modules, Scope: w.scope, Holders: w.holders, Image: image}
	if p := w.o.Progress; p != nil {
		job.Progress = p.Update
		defer p.Done()
	}
	return w.cache.WovenJDK(job)
}

// lint warns of the advice that advised no join point of what was woven
// (applied), and says what the scope left out.
func (w *weaving) lint(applied Applied) {
	lintAdviceDidNotMatch(w.stderr, w.o.IgnoreUnmatched, w.advice, applied)
	reportScope(w.stderr, w.scope)
}

// say writes a line on stderr if the options are verbose.
func (w *weaving) say(format string, a ...any) {
	if w.o.Verbose {
		fmt.Fprintf(w.stderr, "weft: "+format+"\n", a...)
	}
}

func (w *weaving) close() {
	for i := len(w.closers) - 1; i >= 0; i-- {
		w.closers[i]()
	}
	w.closers = nil
}
