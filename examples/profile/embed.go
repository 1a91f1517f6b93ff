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

// Bytecodes is whether and how the profiler counts the bytecode
// instructions each context runs (weft profile --bytecodes).
type Bytecodes int

const (
	NoBytecodes      Bytecodes = iota
	DefaultBytecodes           // JP's default blocks: an exception counts its block whole
	PreciseBytecodes           // JP's precise blocks, ending at every instruction that can throw
)

// Aspect returns the text of profile.weft for a run that counts only or,
// timed, also measures time: then every execution is entered and left,
// leaf ones included, so that their time is theirs and not their caller's.
// Counting bytecodes, each execution passes its count at its exit, a leaf
// one too, as it is counted (after advice then).
func Aspect(timed bool, count Bytecodes) []byte {
	b, _ := files.ReadFile("profile.weft")
	a := string(b)
	if timed {
		a = strings.Replace(a, enteredPointcut, "pointcut entered(): code();", 1)
		a = strings.Replace(a, countedPointcut, "pointcut counted(): if(false);", 1)
	}
	if count != NoBytecodes {
		value := "bytecodes"
		if count == PreciseBytecodes {
			value = "preciseBytecodes"
		}
		a = strings.Replace(a, exitAdvice, strings.Replace(exitAdvice, "exit()", "exit("+value+")", 1), 1)
		a = strings.Replace(a, leafAdvice, "after(): counted() {\n        weft.tools.profile.Profiler.leaf(joinPointId, "+value+");", 1)
	}
	return []byte(a)
}

// profile.weft's text that Aspect rewrites.
const (
	enteredPointcut = "pointcut entered(): code() && !leaf();"
	countedPointcut = "pointcut counted(): code() && leaf();"
	exitAdvice      = "weft.tools.profile.Profiler.exit();"
	leafAdvice      = "before(): counted() {\n        weft.tools.profile.Profiler.leaf(joinPointId);"
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
