package launch

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// An Interrupted is the error of a command stopped by a signal before the
// program started: weft then exits with 128 plus the signal's number, as
// a shell reports a process a signal killed.
type Interrupted struct {
	Signal syscall.Signal
	Before string // what had not started ("the program started", "serving")
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("%v: stopped before %s", e.Signal, e.Before)
}

// ExitCode is the exit status weft ends with.
func (e *Interrupted) ExitCode() int { return 128 + int(e.Signal) }

// interruptible runs prepare, or stops at the first SIGINT, SIGTERM or
// SIGHUP before it is done, saying so on stderr, with an *Interrupted;
// prepare then goes on until weft exits (the weave is abandoned, weft's
// helpers end with it (internal/proc), and the cache records nothing
// unfinished as complete). Catching them from the start also keeps a
// signal from being lost in a weft started with SIGINT ignored (a
// script's background job), whose later handler (Run's, Serve's) would
// then take the next one.
func interruptible[T any](stderr io.Writer, before string, prepare func() (T, error)) (T, error) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	type prepared struct {
		v   T
		err error
	}
	ready := make(chan prepared, 1)
	go func() {
		v, err := prepare()
		ready <- prepared{v, err}
	}()
	select {
	case sig := <-sigs:
		e := &Interrupted{Signal: sig.(syscall.Signal), Before: before}
		fmt.Fprintf(stderr, "weft: %v\n", e)
		var zero T
		return zero, e
	case p := <-ready:
		return p.v, p.err
	}
}
