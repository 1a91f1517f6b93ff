package cache

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// errBusy is lockPath's error when wait is false and another process
// holds a conflicting lock.
var errBusy = errors.New("locked by another process")

// lockPath locks the file name (created if need be) with how
// (syscall.LOCK_SH or LOCK_EX), waiting for it unless wait is false, and
// returns the open file, whose closing releases the lock. The file may
// have been removed, and another made under its name, while this process
// waited (Remove removes lock files under their lock): the lock is then
// on a file nobody else will lock, so it is dropped and the new file
// locked instead.
func lockPath(name string, how int, wait bool) (*os.File, error) {
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		if err := flock(f, how); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, errBusy
			}
			return nil, fmt.Errorf("locking %s: %v", name, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
		if err1 != nil {
			return nil, err1
		}
	}
}

// flock is flock(2), retried when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// LockFile takes an exclusive lock on the file name (created if need be),
// waiting for it, and returns its release.
func LockFile(name string) (func(), error) {
	f, err := lockPath(name, syscall.LOCK_EX, true)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
