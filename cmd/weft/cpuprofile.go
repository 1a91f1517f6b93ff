package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/cobra"
)

// cpuProfile and execTrace are the hidden --cpuprofile and --trace
// flags: where to write a Go CPU profile (for `go tool pprof`) and an
// execution trace (for `go tool trace`) of the whole command, as weaving
// speed is measured on the CLI itself.
var cpuProfile, execTrace string

// stopProfile ends the profile started for --cpuprofile, if any.
var stopProfile = func() error { return nil }

func init() {
	rootCmd.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a Go CPU profile of the command to `FILE`")
	rootCmd.PersistentFlags().StringVar(&execTrace, "trace", "", "write a Go execution trace of the command to `FILE`")
	rootCmd.PersistentFlags().MarkHidden("cpuprofile")
	rootCmd.PersistentFlags().MarkHidden("trace")
	cobra.OnInitialize(startProfile)
}

// startProfile starts the CPU profile and the trace once the flags are
// parsed.
func startProfile() {
	start := func(flag, path string, begin func(*os.File) error, end func()) {
		if path == "" {
			return
		}
		f, err := os.Create(path)
		if err == nil {
			err = begin(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "weft: --%s: %v\n", flag, err)
			return
		}
		stop := stopProfile
		stopProfile = func() error {
			end()
			err := f.Close()
			if serr := stop(); err == nil {
				err = serr
			}
			return err
		}
	}
	start("cpuprofile", cpuProfile, func(f *os.File) error { return pprof.StartCPUProfile(f) }, pprof.StopCPUProfile)
	start("trace", execTrace, func(f *os.File) error { return trace.Start(f) }, trace.Stop)
}
