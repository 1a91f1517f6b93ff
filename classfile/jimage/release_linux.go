package jimage

import (
	"os"
	"syscall"
)

// release drops the pages of the file mapping b from offset from on
// (rounded up to a page) from the process's resident set; they fault in
// again from the page cache when read.
func release(b []byte, from uint64) {
	page := uint64(os.Getpagesize())
	if from = (from + page - 1) / page * page; from < uint64(len(b)) {
		syscall.Madvise(b[from:], syscall.MADV_DONTNEED)
	}
}
