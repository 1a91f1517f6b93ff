package jdk

import (
	"os"
	"sync"
	"testing"
)

var (
	rtCacheOnce sync.Once
	rtCacheDir  string
	rtCacheErr  error
)

// runtimeCache is the cache directory BuildRuntime compiles the JDK-mode
// runtime into for the package's tests: the first test that builds it
// compiles it, the others read it (the runtime is keyed by its sources and
// the JDK's Thread; javac, each time the same, took about 3 CPU seconds
// per test). TestRuntimeVariantsAgree compiles its own.
func runtimeCache(t *testing.T) string {
	t.Helper()
	rtCacheOnce.Do(func() { rtCacheDir, rtCacheErr = os.MkdirTemp("", "weft-jdk-test-rt-") })
	if rtCacheErr != nil {
		t.Fatal(rtCacheErr)
	}
	return rtCacheDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if rtCacheDir != "" {
		os.RemoveAll(rtCacheDir)
	}
	os.Exit(code)
}
