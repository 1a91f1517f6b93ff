package archive

import (
	"sync"
	"sync/atomic"
)

// prefetched holds the jars Prefetch opened, by path, until Open takes
// them.
var prefetched sync.Map

// prefetchBudget bounds the bytes a prefetch reads ahead of Open.
const prefetchBudget = 64 << 20

// prefetcher reads an Input's class entries on one goroutine, ahead of
// Run.
type prefetcher struct {
	stop atomic.Bool
	done chan struct{}
}

// Prefetch opens the jar at path and starts reading (inflating) its
// class entries on one goroutine, in entry order, for a later Open of the
// same path, which stops the reading and hands the Input over with what
// was read. A command calls it before its serial set-up (opening the
// class path, resolving the aspects): that runs on one core, the reading
// fills the other. A path that is not a jar, or does not open, is left to
// Open.
func Prefetch(path string) {
	if _, dup := prefetched.Load(path); dup {
		return
	}
	in, err := Open(path)
	if err != nil {
		return
	}
	if in.Kind != Jar {
		in.Close()
		return
	}
	pf := &prefetcher{done: make(chan struct{})}
	in.prefetch = pf
	prefetched.Store(path, in)
	go pf.run(in)
}

// run reads class entries until stopped or the budget is spent.
func (pf *prefetcher) run(in *Input) {
	defer close(pf.done)
	budget := int64(prefetchBudget)
	for _, e := range in.Entries {
		if pf.stop.Load() || budget <= 0 {
			return
		}
		if !e.IsClass() || e.zf == nil {
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
	in := v.(*Input)
	in.prefetch.stop.Store(true)
	<-in.prefetch.done
	in.prefetch = nil
	return in
}
