package main

import (
	"fmt"

	"github.com/weft-aop/weft/launch"
)

// exitError is the error of a command whose work ran but whose exit code
// is not 0: the java command's, passed on by run, profile, leak and
// recrash. main exits with it, after deferred work (the --cpuprofile) is
// done, and prints err if set (the JVM crashed), else nothing: the
// program said what it had to.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return fmt.Sprintf("exit status %d", e.code)
}

func (e exitError) Unwrap() error { return e.err }

// exitCode returns the error that makes weft exit with code: nil for 0.
func exitCode(code int) error {
	if code == 0 {
		return nil
	}
	return exitError{code: code}
}

// jvmCrash returns the error of a JVM that crashed, which weft exits with
// after saying so (a tool's output is missing then for that reason, not
// for another its message would guess at); nil if the JVM ended of itself.
func jvmCrash(e launch.Exit) error {
	if err := e.Err(); err != nil {
		return exitError{code: e.Code, err: err}
	}
	return nil
}
