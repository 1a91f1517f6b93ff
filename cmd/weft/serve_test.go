package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestInterruptWeavingJDK sends weft serve and weft run, each alone in its
// process group, a SIGINT while it weaves java.base into an empty cache, a
// helper of the weave running: it stops within seconds with exit status
// 130, saying so, its helpers (java, javac) gone with it, no weft.args
// written (serve) and nothing in the cache recorded as complete.
// Also when it starts with SIGINT ignored, as a script's background job
// ("weft serve ... &") does: serve lost the signal then, and served on.
func TestInterruptWeavingJDK(t *testing.T) {
	adv := countAdvice(t)
	for _, ignored := range []bool{false, true} {
		for _, command := range []string{"serve", "run"} {
			t.Run(command+"/ignored="+strconv.FormatBool(ignored), func(t *testing.T) { interruptWeavingJDK(t, command, adv, ignored) })
		}
	}
}

// interruptWeavingJDK is one case of TestInterruptWeavingJDK.
func interruptWeavingJDK(t *testing.T, command, adv string, ignored bool) {
	start := time.Now()
	// A cache of its own, without the package's shared runtime
	// (newCache): weft compiles the JDK-mode runtime with javac and
	// asks java for the boot layer, helpers the signal finds running.
	env := "WEFT_CACHE=" + t.TempDir()
	dir := filepath.Join(t.TempDir(), "serve")
	args := []string{"serve", "-a", countWeft, "--advice-cp", adv, "--modules", "java.base", "--Xlint", "ignore", "--dir", dir}
	said := "stopped before serving"
	if command == "run" {
		args = []string{"run", "-a", countWeft, "--advice-cp", adv, "--modules", "java.base", "--Xlint", "ignore", "--", "java", "-version"}
		said = "stopped before the program started"
	}
	c := exec.Command(os.Args[0], args...)
	if ignored {
		// sh ignores SIGINT, then runs weft in its place.
		c = exec.Command("/bin/sh", append([]string{"-c", `trap "" INT; exec "$0" "$@"`, os.Args[0]}, args...)...)
	}
	c.Env = append(os.Environ(), asWeft+"=1", env)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.WaitDelay = 10 * time.Second
	stderr := &watchedBuffer{want: "weft: weaving the JDK", seen: make(chan struct{})}
	c.Stderr = stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := c.Process.Pid
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	})
	select {
	case <-stderr.seen:
	case <-done:
		t.Fatalf("weft %s exited before weaving the JDK:\n%s", command, stderr)
	case <-time.After(2 * time.Minute):
		t.Fatalf("weft %s did not start weaving the JDK in 2 minutes:\n%s", command, stderr)
	}
	for deadline := time.Now().Add(30 * time.Second); len(groupProcesses(pgid)) < 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("at the signal, its process group held %q", groupProcesses(pgid))
	interrupted := time.Now()
	syscall.Kill(pgid, syscall.SIGINT) // weft only, as kill(1) does
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("weft %s still running 30 s after SIGINT:\n%s", command, stderr)
	}
	t.Logf("exit %d, %v after SIGINT, %s; %v in all", c.ProcessState.ExitCode(),
		time.Since(interrupted).Round(time.Millisecond), cpu(c.ProcessState), time.Since(start).Round(time.Millisecond))
	if code := c.ProcessState.ExitCode(); code != 128+int(syscall.SIGINT) || !strings.Contains(stderr.String(), said) {
		t.Errorf("weft %s: exit %d (%v), want 130 and why:\n%s", command, code, c.ProcessState, stderr)
	}
	// The kernel kills the helpers as weft exits: give it a moment.
	var left []string
	for deadline := time.Now().Add(500 * time.Millisecond); ; time.Sleep(20 * time.Millisecond) {
		if left = groupProcesses(pgid); len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("processes left in weft %s's group: %q", command, left)
	}
	if _, err := os.Stat(filepath.Join(dir, "weft.args")); err == nil {
		t.Errorf("%s/weft.args written", dir)
	}
	cacheDir := strings.TrimPrefix(env, "WEFT_CACHE=")
	ents, err := os.ReadDir(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") { // an entry's record: it is complete
			t.Errorf("the cache records an entry made as complete: %s", e.Name())
		}
	}
}

// groupProcesses returns "PID (NAME)" of each live process of process
// group pgid (zombies, already dead, are left out).
func groupProcesses(pgid int) []string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []string
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		// After the name: state, parent, group.
		fields := strings.Fields(s[i+1:])
		if len(fields) < 3 || fields[0] == "Z" || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		out = append(out, s[:i+1])
	}
	return out
}

// watchedBuffer is a process's output, whose channel seen is closed once
// it holds want.
type watchedBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
