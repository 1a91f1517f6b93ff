package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// follower reads a file while another process writes it, as tail -f
// does: a read at the end of what is written so far waits for more until
// the writer has ended (done is closed), and only then is the end of the
// file the end. Until the file exists, a read waits for it; if it still
// does not exist once the writer has ended, the read fails with
// fs.ErrNotExist.
//
// weft profile reads the profiler's calling-context file with one, so
// that the page is made while the JVM writes the file at its exit rather
// than after (for javac's 880 k contexts, the JVM takes about 0.4 s to
// write it and weft 0.3 s to read it and write the page).
type follower struct {
	path  string
	done  <-chan struct{}
	poll  time.Duration // the wait before looking again
	f     *os.File
	ended bool  // done was closed before the last read
	n     int64 // bytes read
	// The file was cut shorter than what was read, or replaced: a second
	// writer (another JVM of the same command) rewrote it meanwhile, and
	// what was read is not one file's.
	rewritten bool
	whole     bool // the end was read, of the file at path, not rewritten
}

// followFile returns a reader of path as the process whose end closes done
// writes it.
func followFile(path string, done <-chan struct{}) *follower {
	return &follower{path: path, done: done, poll: 5 * time.Millisecond}
}

func (r *follower) Read(p []byte) (int, error) {
	for {
		if r.f == nil {
			ended := r.writerEnded()
			f, err := os.Open(r.path)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) || ended {
					return 0, err
				}
				r.wait()
				continue
			}
			r.f = f
		}
		// Whether the writer had ended is known before the read: a read
		// at the end then is the end, and one before may have missed what
		// the writer wrote last.
		ended := r.writerEnded()
		n, err := r.f.Read(p)
		r.n += int64(n)
		if n > 0 || err != io.EOF {
			return n, err
		}
		same := r.same()
		if !same {
			r.rewritten = true
		}
		if ended {
			r.whole = !r.rewritten
			return 0, io.EOF
		}
		r.wait()
	}
}

// same reports whether the file at path is the one open, not shorter than
// what was read.
func (r *follower) same() bool {
	open, err := r.f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(r.path)
	return err == nil && os.SameFile(open, now) && now.Size() >= r.n
}

// Whole reports whether what was read, to the end, was one file's
// contents: no other writer cut or replaced it meanwhile.
func (r *follower) Whole() bool {
	return r.whole
}

// writerEnded reports whether done is closed, remembering it.
func (r *follower) writerEnded() bool {
	if !r.ended {
		select {
		case <-r.done:
			r.ended = true
		default:
		}
	}
	return r.ended
}

// wait returns after the poll interval, or as soon as the writer ends.
func (r *follower) wait() {
	t := time.NewTimer(r.poll)
	defer t.Stop()
	select {
	case <-r.done:
	case <-t.C:
	}
}

// Close closes the file if it was opened.
func (r *follower) Close() error {
	if r.f == nil {
		return nil
	}
	return r.f.Close()
}
