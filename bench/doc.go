// Package bench holds weft's side-by-side benchmarks against AspectJ (the
// Debian aspectj package, ajc 1.9.5):
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
package bench
