// Package flame reads and writes calling-context profiles as flame graphs.
//
// A profile is a set of stacks (root first) with one or more metrics
// each: calls, allocations, time. It is read from folded-stack files, the
// format flamegraph.pl, speedscope and async-profiler's converter share
// (`a;b;c 42`, one line per stack, one metric per file), and written back
// as folded stacks, as a self-contained interactive HTML flame graph (zoom,
// search, a tooltip with every metric; no network access), as speedscope
// JSON, and as a text table of the top frames by self and total value.
package flame
