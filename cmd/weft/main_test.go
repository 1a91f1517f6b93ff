package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// asWeft makes the test binary run as weft: tests that run a JVM start
// it in a process of its own with this variable set (weft run passes
// signals on, and the JVM takes the terminal's streams; weftInProcess
// runs the other commands).
const asWeft = "WEFT_TEST_AS_WEFT"

func TestMain(m *testing.M) {
	if os.Getenv(asWeft) == "1" {
		main()
		os.Exit(0)
	}
	code := m.Run()
	for _, d := range []string{sharedCacheDir, runtimeDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
	os.Exit(code)
}

var (
	sharedCacheOnce sync.Once
	sharedCacheDir  string
	runtimeOnce     sync.Once
	runtimeDir      string
)

// sharedCache returns a WEFT_CACHE setting shared by the tests of this
// package that weave the JDK the same way (same aspect, same modules): the
// first weaves it, the others start at once.
func sharedCache(t *testing.T) string {
	sharedCacheOnce.Do(func() {
		d, err := os.MkdirTemp("", "weft-test-cache-")
		if err != nil {
			t.Fatal(err)
		}
		linkRuntime(t, d)
		sharedCacheDir = d
	})
	return "WEFT_CACHE=" + sharedCacheDir
}

// newCache returns a WEFT_CACHE setting of a new cache, for a test that
// weaves the JDK its own way.
func newCache(t *testing.T) string {
	d := t.TempDir()
	linkRuntime(t, d)
	return "WEFT_CACHE=" + d
}

// linkRuntime makes the cache's rt/, where weft keeps the JDK-mode runtime
// it compiles (keyed by its sources and the JDK's Thread), one directory
// for all the package's caches: the first weft that needs the runtime
// compiles it, the others read it (javac, each time the same, took about 3
// CPU seconds per test).
func linkRuntime(t *testing.T, cache string) {
	runtimeOnce.Do(func() {
		d, err := os.MkdirTemp("", "weft-test-rt-")
		if err != nil {
			t.Fatal(err)
		}
		runtimeDir = d
	})
	if err := os.Symlink(runtimeDir, filepath.Join(cache, "rt")); err != nil {
		t.Fatal(err)
	}
}

// weftInProcess runs weft with args in this process, as main does, on a
// command tree of its own, and returns its output and error.
func weftInProcess(args ...string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	err = runWeft(args, strings.NewReader(""), &o, &e)
	return o.String(), e.String(), err
}

// weft runs weft with args in a process of its own, with extra environment
// variables, and returns its output and exit code.
func weft(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), asWeft+"=1"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("weft %v: %v", args, err)
	}
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// countAdvice compiles examples/count's advice class against the runtime
// jar: the directory holds count/Counter.class only.
func countAdvice(t testing.TB) string {
	t.Helper()
	classes, err := rtjava.Build(jvmtest.JavaHome(t), "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, classes); err != nil {
		t.Fatal(err)
	}
	counter, err := os.ReadFile("../../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	return jvmtest.Compile(t, map[string]string{"weft/tools/count/Counter.java": string(counter)}, "-cp", rtJar)
}

// countAdviceWithRuntime compiles examples/count's advice class with the
// runtime's sources beside it: one directory to weave against and to run
// woven classes with.
func countAdviceWithRuntime(t *testing.T) string {
	t.Helper()
	src := map[string]string{}
	for k, v := range rtjava.Sources() {
		src[k] = string(v)
	}
	counter, err := os.ReadFile("../../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	src["weft/tools/count/Counter.java"] = string(counter)
	return jvmtest.Compile(t, src)
}

const (
	countWeft = "../../examples/count/count.weft"
	helloSrc  = `public class Hello { public static void main(String[] a) { System.out.println("hello"); } }`
	// nowhereWeft's advice matches nothing.
	nowhereWeft = `aspect Nowhere {
    before(): execution(* nowhere.Nothing.*(..)) {
        weft.tools.count.Counter.hit(joinPointId);
    }
}
`
)

// writeFile writes text to name in a new directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
