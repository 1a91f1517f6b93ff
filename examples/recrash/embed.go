// Package recrash holds the ReCrash recorder users start from: its aspect
// (recrash.weft) and its advice (package weft.tools.recrash, Java, in
// weft's own namespace, which weft never weaves), embedded so that
// weft recrash can build and weave them in one command, and the part of
// the advice the generated tests need to load a crash's state.
package recrash

import (
	"embed"
	"strings"

	rtjava "github.com/weft-aop/weft/runtime-java"
)

//go:embed recrash.weft weft/tools/recrash/*.java
var files embed.FS

// jdkPackages are the JDK's packages left out of the aspect without JDK
// frames: those of every JDK 17 module (java.base's are the first five).
var jdkPackages = []string{"java", "javax", "jdk", "sun", "com.sun", "org.w3c", "org.xml", "org.ietf", "org.jcp", "netscape"}

// codePointcut is the body of recrash.weft's code() pointcut, which
// Aspect narrows; copiedPointcut is copied()'s, which Aspect widens.
const (
	codePointcut   = "execution(* *(..)) || execution(new(..))"
	copiedPointcut = "code() && (execution(* *(.., *[], ..)) || execution(new(.., *[], ..)))"
)

// Aspect returns the text of recrash.weft; without jdkFrames, its frames
// leave out the JDK's classes; with deep (copies on entry deeper than
// arrays, --depth), every execution's arguments are copied on entry.
func Aspect(jdkFrames, deep bool) []byte {
	b, _ := files.ReadFile("recrash.weft")
	a := string(b)
	if deep {
		a = strings.Replace(a, copiedPointcut+";", "code();", 1)
	}
	if jdkFrames {
		return []byte(a)
	}
	code := "(" + codePointcut + ")"
	for _, p := range jdkPackages {
		code += " && !within(" + p + "..*)"
	}
	return []byte(strings.Replace(a, codePointcut+";", code+";", 1))
}

// Sources returns the advice's Java sources by path
// ("weft/tools/recrash/Recorder.java").
func Sources() map[string][]byte { return rtjava.JavaSources(files, "weft/tools/recrash") }

// SupportPackage is the package of what the generated tests call (Replay),
// as Java names it.
const SupportPackage = "weft.tools.recrash"

// TestSources returns the sources the generated tests compile with: what
// loads a crash's state and calls a member again.
func TestSources() map[string][]byte {
	m := map[string][]byte{}
	for _, p := range []string{"weft/tools/recrash/Replay.java", "weft/tools/recrash/Rebuilt.java", "weft/tools/recrash/Fields.java"} {
		m[p], _ = files.ReadFile(p)
	}
	return m
}

// Build compiles the advice with javaHome's javac against the runtime's
// sources and returns its class files by internal name (the runtime's own
// classes left out: the woven JDK has them). Results are cached in
// cacheDir, keyed by the sources.
func Build(javaHome, cacheDir string) (map[string][]byte, error) {
	return rtjava.BuildAdvice(javaHome, cacheDir, "recrash", Sources())
}
