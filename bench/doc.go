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
//	fib(30)              ×2.23 (raw static call ×1.36)  ×1.74
//	1M small objects     ×0.97 (raw static call ×0.96)  ×7.11
//
// The application-mode bypass flag costs a table lookup per woven method
// entry and two per advice call (runtime-java/weft/rt/DIB.java); in fib,
// whose body is a few instructions, that is what separates weft from the
// raw call.
package bench
