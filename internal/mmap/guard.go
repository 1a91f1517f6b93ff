package mmap

import (
	"errors"
	"runtime/debug"
	"unsafe"
)

// ErrShrank is the error of a read that touched a mapping past the end of
// its file: the file was truncated while mapped (rewritten in place by
// another program).
var ErrShrank = errors.New("the file shrank while it was read (rewritten by another program?)")

// Guard runs read, which reads data, a mapping File returned. A read past
// the end of a file that shrank while mapped faults (SIGBUS), which ends a
// Go program; under Guard it makes read's goroutine panic instead, and
// Guard returns ErrShrank. A fault elsewhere (a defect) still panics.
func Guard(data []byte, read func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok && within(data, f.Addr()) {
				err = ErrShrank
				return
			}
			panic(r)
		}
	}()
	return read()
}

// within reports whether addr is inside data.
func within(data []byte, addr uintptr) bool {
	if len(data) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return addr >= base && addr-base < uintptr(len(data))
}
