package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/flame"
)

// flameOptions are weft flame's flags.
type flameOptions struct {
	out        string
	speedscope string
	folded     string
	pprof      string
	title      string
	top        int
}

func newFlameCmd() *cobra.Command {
	opts := &flameOptions{}
	cmd := &cobra.Command{
		Use:   "flame [NAME=]FOLDED...|PROFILE.cct [-o OUT.html] [--speedscope OUT.json] [--top N]",
		Short: "Render folded stacks as an interactive flame graph (HTML), speedscope JSON or a top-N table",
		Long: `flame reads folded stacks — one line per calling context, root frame
first, a value last:

  main;Parser.parse;Lexer.next 1200

the format of flamegraph.pl, speedscope and async-profiler's converter,
or one calling-context file (.cct) that weft profile writes, with all
its metrics.
Each file holds one metric (calls, objects, nanoseconds ...), named after
the file (calls.folded is "calls") or as NAME=FILE. Several files make one
profile with several metrics: the flame graph is as wide as the first and
its tooltips show them all.

-o writes a self-contained HTML flame graph (no network access needed):
click a frame to zoom, type in the search box to highlight frames, hover
for every metric. Without -o, or with --top, a table of the frames with
the largest self and total values goes to standard output.

Examples:

  weft flame prof/calls.folded prof/objects.folded -o prof.html
  weft flame --top 15 calls=prof/calls.folded
  weft flame prof/calls.folded --speedscope prof.speedscope.json
  weft flame a.folded b.folded --folded merged.folded   (a's lines merged)`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := opts
			if streamed, err := streamFlame(opts, args); streamed || err != nil {
				if err == nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "weft: flame graph in %s\n", fl.out)
				}
				return err
			}
			p, err := readFolded(args)
			if err != nil {
				return err
			}
			title := fl.title
			if title == "" {
				title = "weft flame graph: " + strings.Join(p.Metrics, ", ")
			}
			if fl.out != "" {
				if err := writeFileWith(fl.out, func(w io.Writer) error { return flame.WriteHTML(w, p, title) }); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "weft: flame graph in %s\n", fl.out)
			}
			if fl.speedscope != "" {
				if err := writeFileWith(fl.speedscope, func(w io.Writer) error { return flame.WriteSpeedscope(w, p, title) }); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "weft: speedscope profile in %s\n", fl.speedscope)
			}
			if fl.folded != "" {
				if err := writeFileWith(fl.folded, func(w io.Writer) error { return flame.WriteFolded(w, p, 0) }); err != nil {
					return err
				}
			}
			if fl.pprof != "" {
				if err := writeFileWith(fl.pprof, func(w io.Writer) error { return flame.WritePprof(w, p) }); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "weft: pprof profile in %s (go tool pprof -http=: %s)\n", fl.pprof, fl.pprof)
			}
			if fl.top > 0 || (fl.out == "" && fl.speedscope == "" && fl.folded == "" && fl.pprof == "") {
				n := fl.top
				if n <= 0 {
					n = 20
				}
				return flame.WriteTop(cmd.OutOrStdout(), p, 0, n)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "out", "o", "", "write an HTML flame graph here")
	f.StringVar(&opts.speedscope, "speedscope", "", "write speedscope JSON here")
	f.StringVar(&opts.folded, "folded", "", "write the first metric back as folded stacks, one line per context")
	f.StringVar(&opts.pprof, "pprof", "", "write every metric in pprof's format to `FILE` (go tool pprof, Pyroscope, Parca)")
	f.StringVar(&opts.title, "title", "", "the page's title")
	f.IntVar(&opts.top, "top", 0, "print the N frames with the largest self and total values")
	return cmd
}

// streamFlame writes the page alone from one calling-context file in
// canonical order, as weft profile does, without reading the tree whole;
// it reports false, having written nothing, when there is more to write
// or the file is in another order.
func streamFlame(opts *flameOptions, args []string) (bool, error) {
	fl := opts
	if len(args) != 1 || !strings.HasSuffix(args[0], ".cct") || fl.out == "" || fl.speedscope != "" || fl.folded != "" || fl.pprof != "" || fl.top > 0 {
		return false, nil
	}
	title := fl.title
	if title == "" {
		metrics, ok := cctMetrics(args[0])
		if !ok {
			return false, nil
		}
		title = "weft flame graph: " + strings.Join(metrics, ", ")
	}
	return streamHTML(args[0], fl.out, title)
}

// cctMetrics returns the metric names of a calling-context file, for the
// page's title.
func cctMetrics(path string) ([]string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	m, err := flame.CCTMetrics(f)
	return m, err == nil
}

// readFolded reads each [NAME=]FILE as one metric of one profile, or a
// single weft calling-context file (.cct) with all its metrics.
func readFolded(args []string) (*flame.Profile, error) {
	if len(args) == 1 && strings.HasSuffix(args[0], ".cct") {
		f, err := os.Open(args[0])
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readCCT(f, args[0])
	}
	var names, files []string
	for _, a := range args {
		name, file, ok := strings.Cut(a, "=")
		if !ok {
			file = a
			name = strings.TrimSuffix(filepath.Base(a), filepath.Ext(a))
		}
		names, files = append(names, name), append(files, file)
	}
	p := flame.New(names...)
	for m, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		err = flame.ReadFolded(f, file, p, m)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	p.Sort()
	return p, nil
}

// readCCT reads a calling-context file from r, name labelling its errors.
func readCCT(r io.Reader, name string) (*flame.Profile, error) {
	p, err := flame.ReadCCT(bufio.NewReaderSize(r, 1<<20), name)
	if err != nil {
		return nil, err
	}
	p.Sort()
	return p, nil
}

// writeFileWith writes a file through write, removing it if that fails.
func writeFileWith(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
