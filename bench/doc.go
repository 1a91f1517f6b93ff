// Package bench holds weft's benchmarks: the scripts of this directory,
// which measure weft's tools and weaving side by side with stock runs,
// AspectJ and JFR, and two Go benchmarks against AspectJ (the Debian
// aspectj package, ajc 1.9.5):
//
//	go test ./bench -run XXX -bench . -benchtime 1x
//
// BenchmarkWeave runs `weft weave` and `ajc -inpath` as processes on the
// same jar with the same execution-counting aspect (examples/count,
// bench/testdata/Count.aj) and reports wall time and peak RSS.
// BenchmarkOverhead runs a recursive fib and a small-object loop unwoven,
// with a raw unguarded static call of the counter inserted in the source,
// woven by weft, and woven by ajc, and reports each as a multiple of the
// unwoven time.
//
// # Figures
//
// docs/figures.md is written whole by one command, from measurements of
// the current build:
//
//	bash bench/figures.sh
//
// It runs every script (tools.sh, start.sh, jdk.sh, profile.sh, leak.sh,
// recrash.sh, cflow.sh, around.sh, ltw.sh, jfr.sh, scope.sh) at its full
// round count, an hour or more on a 2-core machine, then writes the page.
// Each script, as it prints its figures, writes them as records
// (bench/common.sh's bench_record) to $WEFT_BENCH_OUT, default
// ~/.cache/weft-bench: one file a script's run, fields separated by tabs,
// the first line naming them (Fields), a line a figure with what was
// measured, the figure, its reference and goal, how many rounds, the
// command, the JDK, the machine, the load average before and after, the
// date and weft's version. `bash bench/figures.sh -c` writes the page
// from the records already there, `bash bench/figures.sh SCRIPT...` runs
// those scripts first; ReadRecords and Figures (`go run ./bench/figures`)
// turn the records into the page.
package bench
