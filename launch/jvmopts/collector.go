package jvmopts

import (
	"regexp"

	"github.com/weft-aop/weft/internal/javacmd"
)

// profilerCollector is the profiled JVM's garbage collector unless the
// command chooses one: the parallel collector's write barrier is a card
// mark, where G1's checks every reference stored (one per profiled entry,
// the context put on the thread's stack) and refines cards concurrently;
// and a profile's tree is a few hundred MB of long-lived nodes that G1
// copies between regions while it grows. javac compiling 120 files, calls
// and allocations: 15.6, 14.5 and 14.0 CPU-s against 19.0, 17.2 and 16.4
// with G1 (docs/profile.md).
const profilerCollector = "-XX:+UseParallelGC"

// choosesCollector matches a JVM option that selects a collector (or
// deselects one): given twice, the JVM refuses to start.
var choosesCollector = regexp.MustCompile(`-XX:[+-]Use[A-Za-z0-9]*GC\b`)

// Collector returns the profiler's choice of collector unless the
// command's JVM options (not its program's arguments), or the JVM's option
// variables, choose one.
func Collector(line *javacmd.Line) []string {
	if commandChooses(line, choosesCollector) {
		return nil
	}
	return []string{profilerCollector}
}
