// Package profile holds the calling-context profiler users start from: its
// aspect (profile.weft) and its advice (package weft.tools.profile, Java,
// in weft's own namespace, which weft never weaves), embedded so that weft
// profile can build and weave them in one command.
package profile

import (
	"embed"
	"strings"

	rtjava "github.com/weft-aop/weft/runtime-java"
)

//go:embed profile.weft weft/tools/profile/*.java weft/tools/profile/calibrate/*.java
var files embed.FS

// Aspect returns the text of profile.weft for a run that counts only or,
// timed, also measures time: then every execution is entered and left,
// leaf ones included, so that their time is theirs and not their caller's.
func Aspect(timed bool) []byte {
	b, _ := files.ReadFile("profile.weft")
	if !timed {
		return b
	}
	a := strings.Replace(string(b), enteredPointcut, "pointcut entered(): code();", 1)
	return []byte(strings.Replace(a, countedPointcut, "pointcut counted(): if(false);", 1))
}

// profile.weft's pointcuts that Aspect rewrites.
const (
	enteredPointcut = "pointcut entered(): code() && !leaf();"
	countedPointcut = "pointcut counted(): code() && leaf();"
)

// Sources returns the advice's Java sources by path
// ("weft/tools/profile/Profiler.java").
func Sources() map[string][]byte { return rtjava.JavaSources(files, "weft/tools/profile") }

// CalibrationPackage is the internal name prefix of the calibration class,
// the one class of the profiler that weft profile weaves: the profiler
// times its own cost on it.
const CalibrationPackage = "weft/tools/profile/calibrate/"

// Build compiles the advice against the runtime and returns its class
// files by internal name, cached in cacheDir (rtjava.BuildAdvice).
func Build(javaHome, cacheDir string) (map[string][]byte, error) {
	return rtjava.BuildAdvice(javaHome, cacheDir, "profile", Sources())
}
