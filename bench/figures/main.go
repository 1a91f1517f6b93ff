// Command figures writes docs/figures.md from the records the benchmark
// scripts write (bench/common.sh's bench_record): every DIR/*.tsv file,
// in order of name.
//
// Usage:
//
//	go run ./bench/figures [-o FILE] DIR
//
// bench/figures.sh runs the scripts and then this command.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/weft-aop/weft/bench"
)

func main() {
	out := flag.String("o", "", "write to `FILE` (default: standard output)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/figures [-o FILE] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "figures:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no records (*.tsv) in %s", dir)
	}
	var recs []bench.Record
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		r, err := bench.ReadRecords(name, f)
		f.Close()
		if err != nil {
			return err
		}
		recs = append(recs, r...)
	}
	var b bytes.Buffer
	if err := bench.Figures(&b, recs); err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(b.Bytes())
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
