package parallel

import (
	"os"
	"runtime"
	"testing"
)

// TestShareMachine: half the processors (at least one) until restored,
// and a GOMAXPROCS the user set is left alone.
func TestShareMachine(t *testing.T) {
	if os.Getenv("GOMAXPROCS") != "" {
		t.Setenv("GOMAXPROCS", "")
	}
	before := runtime.GOMAXPROCS(0)
	restore := ShareMachine()
	if got, want := runtime.GOMAXPROCS(0), max(1, runtime.NumCPU()/2); got != want {
		t.Errorf("sharing: GOMAXPROCS %d, want %d", got, want)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("restored: GOMAXPROCS %d, want %d", got, before)
	}
	runtime.GOMAXPROCS(2 * before) // as the runtime would read a GOMAXPROCS the user set
	defer runtime.GOMAXPROCS(before)
	t.Setenv("GOMAXPROCS", "x")
	restore = ShareMachine()
	if got := runtime.GOMAXPROCS(0); got != 2*before {
		t.Errorf("with GOMAXPROCS set: %d, want it left at %d", got, 2*before)
	}
	restore()
}
