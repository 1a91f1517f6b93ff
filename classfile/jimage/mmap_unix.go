//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package jimage

import (
	"os"
	"syscall"
)

// mapFile maps the file read-only; the image is read by many goroutines
// and mostly only touched in part (the index, a few resources).
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if int64(int(size)) != size {
		return nil, nil, syscall.EFBIG
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}

// inode returns the file's inode number, part of its identity.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
