// Package proc runs the helper processes weft starts for its own work
// (javac, java, jlink) so that none outlives weft: a weft stopped by a
// signal in the middle of a weave exits without waiting for them.
package proc

import (
	"os/exec"
	"runtime"
)

// CombinedOutput runs c and returns its standard output and error, as
// c.CombinedOutput does; where the system allows it (Linux), c's process
// is killed if weft exits first.
func CombinedOutput(c *exec.Cmd) ([]byte, error) {
	// The kernel signals the child when the thread that started it ends,
	// not the process (go.dev/issue/27505): the thread stays this
	// goroutine's, so alive, until the child ends.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dieWithParent(c)
	return c.CombinedOutput()
}
