package launch

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/weft-aop/weft/weaver/ltw"
)

// maxUnwovenShown bounds the classes left unwoven named on stderr; the
// report file has them all.
const maxUnwovenShown = 10

// reportLoadTime prints the summary line and the classes left unwoven, and
// writes the summary as JSON to file if given.
func reportLoadTime(w io.Writer, sum ltw.Summary, file string) error {
	fmt.Fprintf(w, "weft: %s\n", sum)
	for i, u := range sum.Unwoven {
		if i == maxUnwovenShown {
			fmt.Fprintf(w, "weft: ... and %d more\n", sum.UnwovenCount-i)
			break
		}
		fmt.Fprintf(w, "weft: warning: %s (%s class) left unwoven: %s\n", u.Class, u.Kind, u.Reason)
	}
	if file == "" {
		return nil
	}
	b, err := json.MarshalIndent(struct {
		ltw.Summary
		// PeakRSSKB is weft's own peak resident set (the server's, with
		// what weft did before the JVM started), for the benchmark.
		PeakRSSKB int64 `json:"peakRSSKB,omitempty"`
		// CPUSeconds is weft's own user + system CPU time so far.
		CPUSeconds float64 `json:"cpuSeconds,omitempty"`
	}{sum, peakRSSKB(), cpuSeconds()}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// peakRSSKB is this process's peak resident set size in KB (VmHWM), 0 if
// unknown.
func peakRSSKB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// cpuSeconds is this process's user + system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
