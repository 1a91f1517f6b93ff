package main

import "fmt"

// exitError is the error of a command whose work ran but whose exit code
// is not 0: the java command's, passed on by run, profile, leak and
// recrash. main exits with it, after deferred work (the --cpuprofile) is
// done, and prints nothing: the program said what it had to.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// exitCode returns the error that makes weft exit with code: nil for 0.
func exitCode(code int) error {
	if code == 0 {
		return nil
	}
	return exitError{code}
}
