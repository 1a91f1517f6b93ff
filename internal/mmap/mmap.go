// Package mmap maps files read-only into memory: the JDK's modules image
// and the jars weft reads. A mapping costs no copy and no heap: the pages
// are the page cache's own, touched only where read, where reading a file
// into a fresh slice faults in every page of it first (reading guava's
// 2.9 MB jar took 15-20 ms that way, mapping it 1-2 ms).
//
// A mapped file must not shrink while mapped (reading past its end then
// faults); callers map inputs they only read, and unmap them when done.
// Nothing read from a mapping may be kept past the unmapping: callers copy
// what they keep.
package mmap

import "os"

// File maps the first size bytes of f read-only. unmap releases the
// mapping; where mmap is not available the bytes are read into memory and
// unmap does nothing.
func File(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	return mapFile(f, size)
}
