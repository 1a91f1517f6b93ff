package parallel

import (
	"os"
	"runtime"
)

// ShareMachine makes this process run on half the machine's processors
// (at least one) and returns what restores the setting before. It is for
// a process that serves another on the same machine, each request a round
// trip the other waits for (weft's load-time weaving server and its JVM):
// every processor more lets the Go scheduler wake idle threads to look
// for work, which costs the machine more than it serves. A GOMAXPROCS the
// user set is left alone.
func ShareMachine() (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	old := runtime.GOMAXPROCS(max(1, runtime.NumCPU()/2))
	return func() { runtime.GOMAXPROCS(old) }
}
