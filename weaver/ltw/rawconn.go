package ltw

import (
	"io"
	"net"
	"sync"
	"syscall"
)

// rawConn is a Unix socket served with blocking system calls on the
// serving goroutine's thread, outside Go's network poller. Through the
// poller, a request woke the poller's thread, which handed the goroutine
// over (often waking sysmon as well), and the JVM's read of each response
// woke it once more: an edge-triggered "writable" event for a goroutine
// that waits for nothing. A blocking read is woken once, by the request.
type rawConn struct {
	fd int

	mu     sync.Mutex
	closed bool
}

// newRawConn takes over c's socket (a *net.UnixConn): its descriptor is
// duplicated (close-on-exec), made blocking, and c closed, which takes
// the socket out of the poller. Any other connection is returned as is.
func newRawConn(c net.Conn) io.ReadWriteCloser {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return c
	}
	sc, err := uc.SyscallConn()
	if err != nil {
		return c
	}
	fd := -1
	var dupErr error
	if err := sc.Control(func(s uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		if e != 0 {
			dupErr = e
			return
		}
		fd = int(r)
	}); err != nil || dupErr != nil {
		return c
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return c
	}
	c.Close()
	return &rawConn{fd: fd}
}

// Read reads what has arrived, blocking until something has; 0 bytes
// (the peer closed, or Shutdown) is io.EOF.
func (c *rawConn) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(c.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(b) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// Write writes all of b.
func (c *rawConn) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		n, err := syscall.Write(c.fd, b[done:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

// Shutdown ends the connection both ways, waking a Read blocked on it; any
// goroutine may call it. (Closing the descriptor would not wake the Read,
// and its number could be reused while the Read still names it.)
func (c *rawConn) Shutdown() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		syscall.Shutdown(c.fd, syscall.SHUT_RDWR)
	}
}

// Close closes the descriptor: only the goroutine that reads c calls it,
// once it no longer does.
func (c *rawConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	return syscall.Close(c.fd)
}

// shutdown wakes whatever blocks reading or writing c (a rawConn or a
// net.Conn).
func shutdown(c io.ReadWriteCloser) {
	if r, ok := c.(*rawConn); ok {
		r.Shutdown()
		return
	}
	c.Close()
}
