package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestCacheStore runs weft's commands with HOME an empty directory and
// $WEFT_CACHE set: HOME stays empty. Two sets of aspects (java.base woven
// as patches, the cheapest weaving) under a bound that holds one evict the
// older; an entry a running JVM uses survives weft cache prune, and goes
// once the JVM is done; weft cache lists what the cache holds.
func TestCacheStore(t *testing.T) {
	adv := countAdvice(t)
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc, "Wait.java": `public class Wait {
    public static void main(String[] a) throws Exception {
        System.out.println("waiting");
        while (System.in.read() >= 0) {}
    }
}`})
	nowhere := writeFile(t, "nowhere.weft", nowhereWeft)
	home := t.TempDir()
	cacheEnv := newCache(t)
	root := strings.TrimPrefix(cacheEnv, "WEFT_CACHE=")
	env := []string{cacheEnv, "HOME=" + home, "XDG_CACHE_HOME=", cache.MaxEnv + "="}
	must := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := weft(t, env, args...)
		if code != 0 {
			t.Fatalf("weft %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		return stdout + stderr
	}
	out := t.TempDir()
	must("runtime", "-o", filepath.Join(out, "weft-rt.jar"))
	must("check", countWeft, "--advice-cp", adv)
	must("weave", "-q", "-a", countWeft, "--advice-cp", adv, "-o", filepath.Join(out, "woven"), app)
	must("jdk", "-q", "-a", countWeft, "--advice-cp", adv, "--modules", "java.base", "-o", filepath.Join(out, "wjdk"))
	run := func(aspects []string, extra ...string) string {
		t.Helper()
		args := []string{"run", "--patches", "--modules", "java.base", "--advice-cp", adv}
		for _, a := range aspects {
			args = append(args, "-a", a)
		}
		args = append(args, extra...)
		return must(append(args, "--", jvmtest.Java(t), "-cp", app, "Hello")...)
	}
	run([]string{countWeft})
	first := entries(t, root, "jdk")
	if len(first) != 1 {
		t.Fatalf("jdk entries after one run: %v", first)
	}
	// A bound that holds the first run's entries and half as much again;
	// the second aspects (Nowhere's advises nothing) weave as much.
	var size int64
	ents, _ := cache.Open(root).List()
	for _, e := range ents {
		size += e.Size
	}
	bound := strconv.FormatInt(size*3/2, 10)
	if got := run([]string{countWeft, nowhere}, "--cache-max", bound); !strings.Contains(got, "weft: cache over ") {
		t.Errorf("the second aspects' run evicted nothing:\n%s", got)
	}
	second := entries(t, root, "jdk")
	if len(second) != 1 || second[0] == first[0] {
		t.Errorf("jdk entries under a bound of one: %v, first %v", second, first)
	}
	if got := cache.DiskSize(root); got > size*3/2 {
		t.Errorf("the cache holds %d bytes, over its bound %s", got, bound)
	}

	// The list says what each entry holds.
	list := must("cache", "list")
	for _, want := range []string{"jdk ", "app ", "ltw ", "count.weft,nowhere.weft; " + jvmtest.JavaHome(t), "modules java.base; -cp " + app,
		root + ": 5 entries"} { // the first aspects' app and ltw entries too: small, and used after their jdk
		if !strings.Contains(list, want) {
			t.Errorf("weft cache list has no %q:\n%s", want, list)
		}
	}

	// A JVM running on the second aspects' entries keeps them through
	// prune; they go once it is done.
	c := exec.Command(os.Args[0], "run", "--patches", "--modules", "java.base", "--advice-cp", adv, "-a", countWeft, "-a", nowhere, "--",
		jvmtest.Java(t), "-cp", app, "Wait")
	c.Env = append(append(os.Environ(), asWeft+"=1"), env...)
	stdin, _ := c.StdinPipe()
	stdout, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("waiting"))
	if _, err := io.ReadFull(stdout, buf); err != nil {
		t.Fatalf("the waiting JVM: %v", err)
	}
	if got := must("cache", "list"); strings.Count(got, " yes ") != 3 {
		t.Errorf("entries in use (jdk, app, ltw), weft cache list:\n%s", got)
	}
	if got := must("cache", "prune", "--all"); !strings.Contains(got, "kept 3 entries in use") {
		t.Errorf("prune --all while a JVM runs:\n%s", got)
	}
	if got := entries(t, root, "jdk"); len(got) != 1 || got[0] != second[0] {
		t.Errorf("jdk entries after prune --all while in use: %v", got)
	}
	stdin.Close()
	io.Copy(io.Discard, stdout)
	if err := c.Wait(); err != nil {
		t.Errorf("the waiting run: %v", err)
	}
	if got := must("cache", "prune", "--all"); strings.Count(got, "removed ") != 3 {
		t.Errorf("prune --all once the JVM is done:\n%s", got)
	}
	if got := must("cache"); !strings.Contains(got, root+": 0 entries, 0B in all") {
		t.Errorf("weft cache after prune --all:\n%s", got)
	}

	if left, _ := os.ReadDir(home); len(left) > 0 {
		var names []string
		filepath.WalkDir(home, func(p string, _ os.DirEntry, _ error) error {
			names = append(names, p)
			return nil
		})
		t.Errorf("HOME written to:\n%s", strings.Join(names, "\n"))
	}
}

// entries returns the keys of the cache's entries of a kind.
func entries(t *testing.T, root, kind string) []string {
	t.Helper()
	ents, err := cache.Open(root).List()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range ents {
		if e.Kind == kind {
			keys = append(keys, e.Key)
		}
	}
	return keys
}
