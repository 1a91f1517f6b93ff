package jdk

import (
	"os"
	"path/filepath"
	"strings"
)

// Release returns the JDK's release and build, e.g. "17.0.15+6-Debian-1deb12u1",
// from $JAVA_HOME/release (JAVA_RUNTIME_VERSION, else JAVA_VERSION).
func Release(javaHome string) string {
	b, err := os.ReadFile(filepath.Join(javaHome, "release"))
	if err != nil {
		return ""
	}
	vals := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			vals[k] = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	if v := vals["JAVA_RUNTIME_VERSION"]; v != "" {
		return v
	}
	return vals["JAVA_VERSION"]
}
