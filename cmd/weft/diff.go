package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/flame"
)

// diffOptions are weft diff's flags.
type diffOptions struct {
	metric   string
	top      int
	out      string
	failOver float64
	floor    float64
}

func newDiffCmd() *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Compare two profiles: the contexts that grew or shrank most, and a differential flame graph",
		Long: `diff compares two profiles of weft profile, OLD and NEW: profile directories
(their profile.cct) or calling-context tree files. For one metric (--metric,
default calls) it prints the calling contexts whose own (exclusive) value
changed most, grown or shrunk, absolute and relative, each with its caller,
and writes a differential flame graph (-o, default diff.html): each context
as wide as its value in NEW, red where its inclusive value grew, blue where
it shrank, the deeper the more; the page's metric switch shows OLD's widths.

With --fail-over PCT, diff exits with status 1 when the whole, or any
context whose inclusive value is at least --floor per cent of the whole's,
grew by more than PCT per cent, and names them: a check for CI against a
baseline profile. Counts (calls, allocations) are exact, so a change there is
a change in the program, not noise.

Examples:

  weft profile --no-time -o base -- java -cp app.jar Main
  weft profile --no-time -o head -- java -cp app.jar Main
  weft diff base head
  weft diff --metric objects --top 30 base/profile.cct head/profile.cct
  weft diff --fail-over 5 --floor 1 base head    # CI: fail on 5 % more calls anywhere above 1 %`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiff(cmd.OutOrStdout(), opts, args[0], args[1])
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.metric, "metric", "calls", "the metric compared (calls, objects, arrays, elements, wall-ns ...)")
	f.IntVar(&opts.top, "top", 20, "print the N contexts that changed most")
	f.StringVarP(&opts.out, "out", "o", "diff.html", "write the differential flame graph to `FILE` (\"\": none)")
	f.Float64Var(&opts.failOver, "fail-over", 0, "exit with status 1 if the whole or a context above --floor grew by more than `PCT` per cent")
	f.Float64Var(&opts.floor, "floor", 1, "with --fail-over, contexts whose inclusive value is at least `PCT` per cent of the whole")
	return cmd
}

func runDiff(w io.Writer, opts *diffOptions, oldPath, newPath string) error {
	old, err := readProfileArg(oldPath)
	if err != nil {
		return err
	}
	new, err := readProfileArg(newPath)
	if err != nil {
		return err
	}
	d, err := flame.Diff(old, new, opts.metric)
	if err != nil {
		return err
	}
	if err := flame.WriteDiff(w, d, oldPath, newPath, opts.top); err != nil {
		return err
	}
	if opts.out != "" {
		title := "weft diff: " + opts.metric + ", " + filepath.Base(oldPath) + " → " + filepath.Base(newPath)
		if err := writeFileWith(opts.out, func(w io.Writer) error { return flame.WriteDiffHTML(w, d, title) }); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nweft: differential flame graph: open %s\n", opts.out)
	}
	if opts.failOver <= 0 {
		return nil
	}
	grown := flame.Grown(d, opts.failOver, opts.floor)
	if len(grown) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nweft: %d grew by more than %g%% (above %g%% of the whole):\n", len(grown), opts.failOver, opts.floor)
	if err := flame.WriteGrown(w, grown); err != nil {
		return err
	}
	return exitError{code: 1, err: errors.New("diff: grown over --fail-over")}
}

// readProfileArg reads a profile directory's profile.cct, or a
// calling-context file.
func readProfileArg(path string) (*flame.Profile, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "profile.cct")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCCT(f, path)
}
