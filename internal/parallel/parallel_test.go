package parallel

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunOrder: in-order stages see every item once, in index order, and
// after the stages before them, however long the parallel stages take.
func TestRunOrder(t *testing.T) {
	const n = 500
	for _, workers := range []int{1, 3, 8} {
		var first, second []int
		var began [n]atomic.Bool
		var finished [n]atomic.Bool
		var inFinish atomic.Int32
		var maxFinish atomic.Int32
		delay := func(i int) {
			if i%7 == 0 {
				time.Sleep(time.Duration(i%5) * 100 * time.Microsecond)
			}
		}
		err := Run(n, workers,
			Stage{Do: func(i int) error { delay(n - i); began[i].Store(true); return nil }},
			Stage{InOrder: true, Do: func(i int) error {
				if !began[i].Load() {
					t.Errorf("item %d numbered before it began", i)
				}
				first = append(first, i)
				return nil
			}},
			Stage{Do: func(i int) error {
				c := inFinish.Add(1)
				for m := maxFinish.Load(); c > m && !maxFinish.CompareAndSwap(m, c); m = maxFinish.Load() {
				}
				delay(i)
				inFinish.Add(-1)
				finished[i].Store(true)
				return nil
			}},
			Stage{InOrder: true, Do: func(i int) error {
				if !finished[i].Load() {
					t.Errorf("item %d written before it was finished", i)
				}
				second = append(second, i)
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		for _, seen := range [][]int{first, second} {
			if len(seen) != n {
				t.Fatalf("%d workers: an in-order stage saw %d items, want %d", workers, len(seen), n)
			}
			for k, i := range seen {
				if k != i {
					t.Fatalf("%d workers: in-order stage saw item %d in place %d", workers, i, k)
				}
			}
		}
		if workers > 1 && maxFinish.Load() < 2 {
			t.Errorf("%d workers: the parallel stage after an in-order one never ran on two workers at once", workers)
		}
	}
}

// TestRunStopsAtFirstError: after a stage fails no stage runs for items
// begun later, and Run returns the error.
func TestRunStopsAtFirstError(t *testing.T) {
	boom := errors.New("boom")
	var mu sync.Mutex
	var ran []int
	err := Run(1000, 2,
		Stage{Do: func(i int) error {
			if i == 10 {
				return boom
			}
			return nil
		}},
		Stage{InOrder: true, Do: func(i int) error {
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
			return nil
		}})
	if err != boom {
		t.Fatalf("Run returned %v, want %v", err, boom)
	}
	for _, i := range ran {
		if i >= 10 {
			t.Fatalf("in-order stage ran item %d, past the failed item 10", i)
		}
	}
	var calls atomic.Int32
	err = Each(1000, 2, func(i int) error {
		calls.Add(1)
		if i == 3 {
			return boom
		}
		return nil
	})
	if err != boom || calls.Load() > 10 {
		t.Fatalf("Each: error %v after %d calls, want %v after a few", err, calls.Load(), boom)
	}
}

func TestEachCallsEveryItemOnce(t *testing.T) {
	var seen [300]atomic.Int32
	if err := Each(len(seen), 0, func(i int) error { seen[i].Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if seen[i].Load() != 1 {
			t.Fatalf("item %d called %d times", i, seen[i].Load())
		}
	}
	if err := Each(0, 4, func(int) error { t.Fatal("called on no items"); return nil }); err != nil {
		t.Fatal(err)
	}
}
