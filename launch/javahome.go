package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/weft-aop/weft/classpath"
)

// JavaHome returns the JDK a command works with: its --java-home flag if
// set, else classpath.DefaultJavaHome() (the java on PATH, else
// $JAVA_HOME). Every command resolves its JDK here, so aspects are checked,
// woven and run against the same one.
func JavaHome(flag string) (string, error) {
	home := flag
	if home == "" {
		h, err := classpath.DefaultJavaHome()
		if err != nil {
			return "", err
		}
		home = h
	}
	if _, err := os.Stat(filepath.Join(home, "lib", "modules")); err != nil {
		return "", fmt.Errorf("%s is not a JDK with a modules image (use --java-home): %v", home, err)
	}
	return home, nil
}

// commandJDK returns the launcher a command names (looked up on PATH) and
// the JDK to weave for it. For a launcher of a JDK (java, javac...; jdk
// true) that is javaHome if given, else the launcher's own, so that
// `weft run -- /path/to/jdk25/bin/java` weaves JDK 25, and a tool's
// generated code (recrash's tests) is compiled and run by the JDK the
// program ran on. Any other command (a shell script, mvn, ant) runs JVMs
// of its own: javaHome if given, else the default JDK (JavaHome), which
// they find on PATH or in JAVA_HOME.
func commandJDK(javaHome, command string) (launcher, home string, jdk bool, err error) {
	if launcher, err = exec.LookPath(command); err != nil {
		return "", "", false, err
	}
	own, ownErr := classpath.JavaHomeOf(launcher)
	jdk = ownErr == nil
	if javaHome == "" && jdk {
		javaHome = own
	}
	home, err = JavaHome(javaHome)
	return launcher, home, jdk, err
}

// javaOf reports whether the launcher java is one of the JDK at home.
func javaOf(java, home string) bool {
	h, err := classpath.JavaHomeOf(java)
	return err == nil && sameFile(h, home)
}

// sameFile reports whether a and b are one file, symlinks resolved.
func sameFile(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}
