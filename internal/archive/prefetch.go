package archive

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// prefetched holds a prefetcher for each path Prefetch was given, until
// Open takes it.
var prefetched sync.Map

// prefetchBudget bounds the bytes a prefetch reads ahead of Open.
const prefetchBudget = 64 << 20

// prefetcher opens a jar and reads its class entries on one goroutine,
// ahead of Open and Run.
type prefetcher struct {
	in     *Input        // nil if the path is not a jar or did not open
	opened chan struct{} // closed once in is set
	stop   atomic.Bool
	done   chan struct{} // closed when the reading is over
}

// Prefetch opens the jar at path and reads (inflates) its class entries
// on one goroutine, in entry order, for a later Open of the same path,
// which stops the reading and takes the Input with what was read. A
// command calls it before its serial set-up (opening the class path,
// resolving the aspects): that runs on one core, the opening and reading
// fill the other. A path that is not a jar, or does not open, is left to
// Open.
func Prefetch(path string) {
	pf := &prefetcher{opened: make(chan struct{}), done: make(chan struct{})}
	if _, dup := prefetched.LoadOrStore(path, pf); dup {
		return
	}
	go pf.run(path)
}

// run opens the jar, then reads class entries until stopped or the
// budget is spent.
func (pf *prefetcher) run(path string) {
	defer close(pf.done)
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() && !strings.HasSuffix(path, ".class") {
		if in, err := open(path); err == nil {
			pf.in = in
		}
	}
	close(pf.opened)
	if pf.in == nil {
		return
	}
	budget := int64(prefetchBudget)
	for _, e := range pf.in.Entries {
		if pf.stop.Load() || budget <= 0 {
			return
		}
		if !e.IsClass() {
			continue
		}
		e.pre, e.preErr = e.readSource()
		e.prefetched = true
		budget -= int64(len(e.pre))
	}
}

// takePrefetched returns the Input Prefetch opened at path, its reading
// stopped, or nil.
func takePrefetched(path string) *Input {
	v, ok := prefetched.LoadAndDelete(path)
	if !ok {
		return nil
	}
	pf := v.(*prefetcher)
	<-pf.opened
	if pf.in == nil {
		return nil
	}
	pf.stop.Store(true)
	<-pf.done
	return pf.in
}
