package jdk

import (
	jdkrt "github.com/weft-aop/weft/runtime-java/jdk"
)

// BuildRuntime returns the JDK-mode runtime classes for the JDK at
// javaHome, compiled against its patched java.lang.Thread (cached in
// cacheDir).
func BuildRuntime(javaHome, cacheDir string) (map[string][]byte, error) {
	b, err := BaseClass(javaHome, "java/lang/Thread")
	if err != nil {
		return nil, err
	}
	t, err := PatchThread(b)
	if err != nil {
		return nil, err
	}
	return jdkrt.Build(javaHome, cacheDir, t)
}
