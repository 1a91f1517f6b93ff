package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/cobra"
)

// goProfiles are the hidden --cpuprofile and --trace flags: where to
// write a Go CPU profile (for `go tool pprof`) and an execution trace (for
// `go tool trace`) of the whole command, as weaving speed is measured on
// the CLI itself.
type goProfiles struct {
	cpuProfile, execTrace string
	stops                 []func() error // in the order started
}

// addFlags adds the flags to root, for every command, and starts the
// profiles once they are parsed.
func (p *goProfiles) addFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.StringVar(&p.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the command to `FILE`")
	f.StringVar(&p.execTrace, "trace", "", "write a Go execution trace of the command to `FILE`")
	f.MarkHidden("cpuprofile")
	f.MarkHidden("trace")
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) { p.start(cmd) }
}

// start starts the CPU profile and the trace asked for; a profile that
// cannot start is reported, and the command runs without it.
func (p *goProfiles) start(cmd *cobra.Command) {
	start := func(flag, path string, begin func(*os.File) error, end func()) {
		if path == "" {
			return
		}
		f, err := os.Create(path)
		if err == nil {
			err = begin(f)
		}
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "weft: --%s: %v\n", flag, err)
			return
		}
		p.stops = append(p.stops, func() error {
			end()
			return f.Close()
		})
	}
	start("cpuprofile", p.cpuProfile, func(f *os.File) error { return pprof.StartCPUProfile(f) }, pprof.StopCPUProfile)
	start("trace", p.execTrace, func(f *os.File) error { return trace.Start(f) }, trace.Stop)
}

// stop ends the profiles started, the last first, and returns the first
// error writing them.
func (p *goProfiles) stop() error {
	var err error
	for i := len(p.stops) - 1; i >= 0; i-- {
		if serr := p.stops[i](); err == nil {
			err = serr
		}
	}
	p.stops = nil
	return err
}
