package ltw

import (
	"io"
	"net"
	"sync"
	"syscall"
)

// rawConn is a Unix socket written with blocking system calls, outside
// Go's network poller: the connection a JVM reads its responses on
// (Server.split). In the poller, the JVM's read of each response woke the
// poller's thread with an edge-triggered "writable" event, for nobody.
type rawConn struct {
	fd int

	mu     sync.Mutex
	closed bool
}

// newRawConn takes over c's socket (a *net.UnixConn): its descriptor is
// duplicated (close-on-exec), made blocking, and c closed, which takes
// the socket out of the poller. Any other connection is returned as is.
func newRawConn(c net.Conn) io.WriteCloser {
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

// Shutdown ends the connection both ways, waking a Write blocked on it
// (the JVM reads no more); any goroutine may call it. (Closing the
// descriptor would not wake the Write, and its number could be reused
// while the Write still names it.)
func (c *rawConn) Shutdown() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		syscall.Shutdown(c.fd, syscall.SHUT_RDWR)
	}
}

// Close closes the descriptor: only the goroutine that writes c calls it,
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
