// Package javahome finds the JDK weft works with when none is named: the
// one of the java on PATH, else $JAVA_HOME. It is the single home of that
// order. classpath.DefaultJavaHome exposes it to every command; the tests'
// helper internal/jvmtest uses it directly, because the tests of classfile
// and classpath import jvmtest and jvmtest therefore cannot import
// classpath.
package javahome

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Default returns the home of the java on PATH if it is a JDK with a
// modules image, or else $JAVA_HOME (unchecked: the caller opening it
// reports what is wrong with it).
func Default() (string, error) {
	if j, err := exec.LookPath("java"); err == nil {
		if home, err := Of(j); err == nil {
			return home, nil
		}
	}
	if h := os.Getenv("JAVA_HOME"); h != "" {
		return h, nil
	}
	return "", errors.New("no JDK found: put java on PATH, set JAVA_HOME or pass --java-home")
}

// Of returns the home of the JDK whose java launcher is at java, symlinks
// resolved (so /usr/bin/java finds /usr/lib/jvm/...). The home must have a
// modules image, lib/modules.
func Of(java string) (string, error) {
	r, err := filepath.EvalSymlinks(java)
	if err != nil {
		return "", err
	}
	home := filepath.Dir(filepath.Dir(r))
	if _, err := os.Stat(filepath.Join(home, "lib", "modules")); err != nil {
		return "", fmt.Errorf("%s is not a JDK with a modules image (the home of %s): %v", home, java, err)
	}
	return home, nil
}
