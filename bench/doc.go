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
//
// Measured on the 2-core development machine (shared, load average 4-5),
// JDK 17, guava 31.1, one run each:
//
//	                     weft            ajc 1.9.5
//	weave guava          0.63 s, 0.61 CPU-s, 109 MB   8.24 s, 8.35 CPU-s, 562 MB
//	weave 2 classes      0.04 s, 15 MB                2.37 s, 225 MB
//	fib(30)              ×1.66 (raw static call ×1.37)  ×1.72
//	1M small objects     ×0.97 (raw static call ×0.96)  ×7.11
//
// (fib: ×2.23 before the woven guard passed its bypass token to the advice
// helpers.) The application-mode bypass flag costs one table lookup per
// woven method entry (runtime-java/weft/rt/DIB.java) and two stores per
// advice call; in fib, whose body is a few instructions, that is what
// separates weft from the raw call.
package bench
