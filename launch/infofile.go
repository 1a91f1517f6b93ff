package launch

import (
	"bufio"
	"io"
	"os"
	"sync"
)

// An InfoFile collects --weave-info lines (ajc's -showWeaveInfo) from
// weavings that may run at once: the load-time server's connections.
type InfoFile struct {
	mu sync.Mutex
	f  *os.File // nil for standard output
	w  *bufio.Writer
}

// StderrInfo is the --weave-info file name of weft's standard error:
// where an aop.xml's -showWeaveInfo sends the lines, as AspectJ's weaver
// writes its messages.
const StderrInfo = "/dev/stderr"

// createInfoFile creates the file name, or for "-" writes to stdout, for
// StderrInfo to stderr.
func createInfoFile(name string, stdout, stderr io.Writer) (*InfoFile, error) {
	if name == "-" {
		return &InfoFile{w: bufio.NewWriter(stdout)}, nil
	}
	if name == StderrInfo {
		return &InfoFile{w: bufio.NewWriter(stderr)}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &InfoFile{f: f, w: bufio.NewWriter(f)}, nil
}

// Write adds lines (each ending in a newline).
func (i *InfoFile) Write(lines string) {
	i.mu.Lock()
	i.w.WriteString(lines)
	i.mu.Unlock()
}

// Close flushes the lines and closes the file.
func (i *InfoFile) Close() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	err := i.w.Flush()
	if i.f == nil {
		return err
	}
	if cerr := i.f.Close(); err == nil {
		err = cerr
	}
	return err
}
