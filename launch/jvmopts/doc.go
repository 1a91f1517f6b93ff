// Package jvmopts computes the JVM options weft adds to a program's
// command line, each yielding to the command where it chooses for itself:
// the tools' memory (the metadata threshold, an initial heap, transparent
// huge pages, a heap bound raised for the tool's data, the young
// generation kept), the JIT policies of --jit and the compiler threads
// they give C1, the profiler's collector, and the module path's access to
// weft's runtime. It also watches a JVM's standard error for the heap
// running out (OOMWatch).
package jvmopts
