//go:build !linux

package jimage

// release leaves the pages of a mapping where they are: only Linux's
// syscall package has madvise (elsewhere the image is read, or mapped
// pages stay resident).
func release([]byte, uint64) {}
