// Package parallel runs a list of items on a fixed number of worker
// goroutines: every loop of weft that spreads classes over the cores (an
// archive's entries, a JDK image's classes, a JDK's patch modules) uses it.
//
// Each calls one function per item in any order. Run passes each item
// through a list of stages, some parallel and some in order: an in-order
// stage sees the items one at a time, in index order, whatever order the
// parallel stages finish them in. That is how parallel weaving still
// numbers join points in input order (reproducible output) and writes a
// jar's entries in input order while later entries are still being woven.
//
// No worker waits for another's item: an item that reaches an in-order stage before its
// predecessors is parked, and the worker that lets the stage's frontier
// advance runs the stage for every parked item it unblocks; the items it
// passes are then taken up by whichever worker is free, before any new
// item is begun (so items in flight, and the memory they hold, stay few).
// Both functions stop handing out work at the first error and return it.
package parallel

import (
	"runtime"
	"sync"
)

// Workers returns n if it is positive, else GOMAXPROCS: the number of
// workers for a caller's "0 means all cores".
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Each calls f(i) for every i in [0, n) on workers goroutines (all cores
// if workers <= 0), in no particular order. After the first error no new
// item is begun; that error is returned once the running calls are over.
func Each(n, workers int, f func(i int) error) error {
	return Run(n, workers, Stage{Do: f})
}

// A Stage is one step of Run.
type Stage struct {
	// InOrder makes the stage see the items one at a time, in index
	// order. A parallel stage (the default) runs on any worker, for many
	// items at once.
	InOrder bool
	Do      func(i int) error
}

// Run passes every item i in [0, n) through stages in turn, on workers
// goroutines (all cores if workers <= 0): stage k+1 sees an item once
// stage k is done with it. In-order stages run one item at a time, in
// index order, on whichever worker advanced their frontier. After the
// first error no stage is run any more; Run returns that error once the
// running calls are over.
func Run(n, workers int, stages ...Stage) error {
	if n <= 0 || len(stages) == 0 {
		return nil
	}
	r := &run{n: n, stages: stages, seqs: make([]*sequence, len(stages))}
	r.idle.L = &r.mu
	for k, s := range stages {
		if s.InOrder {
			r.seqs[k] = &sequence{parked: make([]bool, n)}
		}
	}
	var wg sync.WaitGroup
	for w := min(Workers(workers), n); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work()
		}()
	}
	wg.Wait()
	return r.err
}

// step is an item to carry on from a stage.
type step struct{ item, stage int }

// run is one call of Run.
type run struct {
	n      int
	stages []Stage
	seqs   []*sequence // by stage; nil for parallel stages

	mu      sync.Mutex // guards the fields below
	idle    sync.Cond  // signalled when carried grows, the last running worker stops, or a stage fails
	next    int        // the next item to begin
	carried []step     // items passed by an in-order stage, waiting for a worker
	running int        // workers advancing an item: they may carry more
	err     error
}

// sequence is the state of one in-order stage.
type sequence struct {
	mu       sync.Mutex
	parked   []bool // arrived, waiting for the frontier
	frontier int    // the next item the stage must see
	busy     bool   // a worker is running the stage
}

// work takes steps until there are none left or a stage failed: first the
// items in-order stages have passed, then new items. With nothing to take
// it waits while another worker may still carry items on.
func (r *run) work() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.err == nil {
		var s step
		switch {
		case len(r.carried) > 0:
			s = r.carried[0]
			r.carried = r.carried[1:]
		case r.next < r.n:
			s = step{item: r.next}
			r.next++
		case r.running > 0:
			r.idle.Wait()
			continue
		default:
			return
		}
		r.running++
		r.mu.Unlock()
		r.advance(s)
		r.mu.Lock()
		if r.running--; r.running == 0 {
			r.idle.Broadcast() // nobody can carry more: waiting workers are done
		}
	}
}

// advance runs item s.item from stage s.stage on, until it is parked at
// an in-order stage or done.
func (r *run) advance(s step) {
	for k := s.stage; k < len(r.stages); k++ {
		if seq := r.seqs[k]; seq != nil {
			r.arrive(seq, k, s.item)
			return
		}
		if err := r.stages[k].Do(s.item); err != nil {
			r.fail(err)
			return
		}
	}
}

// arrive parks item i at in-order stage k. If the stage's frontier is i
// and no other worker runs the stage, this worker runs it for i and every
// parked item after it, handing each over to the next stage.
func (r *run) arrive(seq *sequence, k, i int) {
	seq.mu.Lock()
	seq.parked[i] = true
	if seq.busy {
		// The running worker sees i before it lets go of the stage.
		seq.mu.Unlock()
		return
	}
	seq.busy = true
	for seq.frontier < r.n && seq.parked[seq.frontier] {
		j := seq.frontier
		seq.parked[j] = false
		seq.frontier++
		seq.mu.Unlock()
		if r.failed() {
			return // seq stays busy: nothing runs any more
		}
		if err := r.stages[k].Do(j); err != nil {
			r.fail(err)
			return
		}
		if k+1 < len(r.stages) {
			r.mu.Lock()
			r.carried = append(r.carried, step{item: j, stage: k + 1})
			r.idle.Signal()
			r.mu.Unlock()
		}
		seq.mu.Lock()
	}
	seq.busy = false
	seq.mu.Unlock()
}

func (r *run) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.idle.Broadcast()
	r.mu.Unlock()
}

func (r *run) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil
}
