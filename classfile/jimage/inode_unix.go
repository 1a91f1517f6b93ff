//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package jimage

import (
	"os"
	"syscall"
)

// inode returns the file's inode number, part of its identity.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
