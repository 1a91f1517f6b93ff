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

// maxUnwovenShown bounds the reasons, and the classes of one reason,
// named on stderr; the report file has them all.
const maxUnwovenShown = 10

// reportLoadTime prints the summary line, then what was left unwoven,
// grouped by reason: a class alone with its reason, classes that share
// one counted and named; the methods left unwoven in woven classes, the
// first few with their reasons. It writes the summary as JSON to file if
// given.
func reportLoadTime(w io.Writer, sum ltw.Summary, file string) error {
	fmt.Fprintf(w, "weft: %s\n", sum)
	var reasons []string
	byReason := map[string][]ltw.Unwoven{}
	for _, u := range sum.Unwoven {
		if byReason[u.Reason] == nil {
			reasons = append(reasons, u.Reason)
		}
		byReason[u.Reason] = append(byReason[u.Reason], u)
	}
	for i, r := range reasons {
		if i == maxUnwovenShown {
			fmt.Fprintf(w, "weft: ... and %d more reasons (--ltw-report lists every class)\n", len(reasons)-i)
			break
		}
		us := byReason[r]
		if len(us) == 1 {
			fmt.Fprintf(w, "weft: warning: %s (%s class) left unwoven: %s\n", us[0].Class, us[0].Kind, r)
			continue
		}
		var names []string
		for _, u := range us[:min(len(us), 3)] {
			names = append(names, u.Class)
		}
		if len(us) > 3 {
			names = append(names, fmt.Sprintf("%d more", len(us)-3))
		}
		fmt.Fprintf(w, "weft: warning: %d classes left unwoven: %s (%s)\n", len(us), r, strings.Join(names, ", "))
	}
	if n := sum.UnwovenCount - len(sum.Unwoven); n > 0 {
		fmt.Fprintf(w, "weft: ... and %d more classes not listed\n", n)
	}
	if sum.MethodsCount > 0 {
		fmt.Fprintf(w, "weft: warning: %d methods left unwoven in classes woven (--ltw-report lists them), as:\n", sum.MethodsCount)
		for _, m := range sum.Methods[:min(len(sum.Methods), 3)] {
			fmt.Fprintf(w, "weft:   %s\n", m.Reason)
		}
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
