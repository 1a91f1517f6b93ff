package launch

import (
	"os"
	"path/filepath"

	"github.com/weft-aop/weft/internal/javacmd"
)

// commandLine reads the arguments of the launcher of JDK home as it does:
// a tool's (javac, jar... in the JDK's bin) or java's, whose class path is
// the application's (javac's -cp is not code it runs).
func commandLine(launcher, home string, args []string) (*javacmd.Line, error) {
	if isJDKTool(launcher, home) {
		return javacmd.ParseTool(launcher, args), nil
	}
	return javacmd.ParseJava(launcher, args, os.Getenv)
}

// isJDKTool reports whether the command is a launcher of the JDK's
// bin/ other than java (javac, jar, jshell...): those take JVM options
// only as -J arguments.
func isJDKTool(launcher, home string) bool {
	if filepath.Base(launcher) == "java" {
		return false
	}
	real, err1 := filepath.EvalSymlinks(launcher)
	bin, err2 := filepath.EvalSymlinks(filepath.Join(home, "bin"))
	return err1 == nil && err2 == nil && filepath.Dir(real) == bin
}
