//go:build !linux

package proc

import "os/exec"

// dieWithParent does nothing: only Linux has a parent death signal.
func dieWithParent(*exec.Cmd) {}
