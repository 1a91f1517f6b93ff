package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The matrix's servers: started in a mode, checked to listen on 127.0.0.1
// only, stopped by a signal with bounded waits, and their process trees
// checked gone.

// matrixServer is a server program running in a mode.
type matrixServer struct {
	mode           matrixMode
	out            matrixOut
	cmd            interface{ Signal(os.Signal) error }
	pid            int
	stdout, stderr bytes.Buffer
	done           chan struct{} // closed once the process is waited for
	cpu            string        // the CPU time it took, once done
}

// start starts java with args in mode, in dir.
func (m *matrix) start(t *testing.T, mode matrixMode, dir string, args ...string) *matrixServer {
	t.Helper()
	s := &matrixServer{mode: mode, done: make(chan struct{}), out: matrixOut{report: filepath.Join(t.TempDir(), "ltw.json")}}
	c := m.command(t, mode, s.out.report, args...)
	c.Dir = dir
	c.Stdout, c.Stderr = &s.stdout, &s.stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	s.cmd, s.pid = c.Process, c.Process.Pid
	go func() {
		c.Wait()
		s.out.stdout, s.out.stderr, s.out.code = s.stdout.String(), s.stderr.String(), c.ProcessState.ExitCode()
		s.cpu = cpu(c.ProcessState)
		close(s.done)
	}()
	t.Cleanup(func() { // a test that gave up: kill what is left
		select {
		case <-s.done:
		default:
			syscall.Kill(-s.pid, syscall.SIGKILL)
			<-s.done
		}
	})
	return s
}

// exited reports whether the server's process has ended.
func (s *matrixServer) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// waitFor calls ready every 100 ms until it returns true, for 2 minutes at
// most; it fails the test if the server exits or the time runs out.
func (s *matrixServer) waitFor(t *testing.T, what string, ready func() bool) {
	t.Helper()
	start := time.Now()
	for deadline := start.Add(2 * time.Minute); !ready(); time.Sleep(100 * time.Millisecond) {
		if s.exited() {
			t.Fatalf("%s: exited (%d) before %s:\n%s\n%s", s.mode, s.out.code, what, tail(s.out.stdout), tail(s.out.stderr))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no %s in 2 minutes", s.mode, what)
		}
	}
	t.Logf("%s: %s after %v", s.mode, what, time.Since(start).Round(time.Millisecond))
}

// stop sends sig to the server's first process (java, or weft run), waits
// a minute at most for it to end and checks that every process of its tree
// (weft run's JVM included) is gone, and that its exit code is the JVM's
// for sig (128+sig; weft run exits with the JVM's code).
func (s *matrixServer) stop(t *testing.T, sig syscall.Signal) matrixOut {
	t.Helper()
	tree := processTree(s.pid)
	s.cmd.Signal(sig)
	select {
	case <-s.done:
	case <-time.After(time.Minute):
		syscall.Kill(-s.pid, syscall.SIGKILL)
		<-s.done
		t.Errorf("%s: still running a minute after %v; killed", s.mode, sig)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var left []string
		for _, p := range tree {
			if p.alive() {
				left = append(left, fmt.Sprintf("%d (%s)", p.pid, p.comm))
			}
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: after %v, processes of the server left running: %v", s.mode, sig, left)
			for _, p := range tree {
				syscall.Kill(p.pid, syscall.SIGKILL)
			}
			break
		}
	}
	t.Logf("%s: stopped by %v, %s", s.mode, sig, s.cpu)
	if want := 128 + int(sig); s.out.code != want {
		t.Errorf("%s: exit %d after %v, want %d; stderr:\n%s", s.mode, s.out.code, sig, want, tail(s.out.stderr))
	}
	return s.out
}

// checkListeners checks that the server's processes listen on TCP at
// 127.0.0.1 only, port among them.
func (s *matrixServer) checkListeners(t *testing.T, port int) {
	t.Helper()
	ls := tcpListeners(t, s.pid)
	var bad []string
	found := false
	for _, l := range ls {
		if !l.local {
			bad = append(bad, l.String())
		}
		found = found || l.port == port
	}
	if len(bad) > 0 || !found {
		t.Errorf("%s: listening beyond 127.0.0.1: %v; on port %d: %v", s.mode, bad, port, found)
	}
}

// listener is a listening TCP socket.
type listener struct {
	addr  string // as /proc/net/tcp* spells it
	port  int
	local bool // 127.0.0.1 or ::ffff:127.0.0.1
}

func (l listener) String() string { return fmt.Sprintf("%s port %d", l.addr, l.port) }

// tcpListeners returns the TCP sockets the process pid and its
// descendants listen on.
func tcpListeners(t *testing.T, pid int) []listener {
	t.Helper()
	inodes := map[string]bool{}
	for _, p := range processTree(pid) {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.pid))
		for _, fd := range fds {
			l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", p.pid, fd.Name()))
			if err == nil && strings.HasPrefix(l, "socket:[") {
				inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
			}
		}
	}
	var ls []listener
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) < 10 || fs[3] != "0A" || !inodes[fs[9]] { // 0A: LISTEN
				continue
			}
			addr, portHex, _ := strings.Cut(fs[1], ":")
			p, _ := strconv.ParseInt(portHex, 16, 32)
			ls = append(ls, listener{addr: addr, port: int(p),
				local: addr == "0100007F" || addr == "0000000000000000FFFF00000100007F"})
		}
	}
	return ls
}

// proc is a process: its pid, name and start time (against pid reuse).
type proc struct {
	pid         int
	comm, start string
}

// alive reports whether the process still runs (a zombie does not).
func (p proc) alive() bool {
	q, ok := readProc(p.pid)
	return ok && q.start == p.start
}

// readProc reads /proc/PID/stat; ok is false for a process gone or a zombie.
func readProc(pid int) (p proc, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return p, false
	}
	s := string(b)
	i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if i < 0 || j < i {
		return p, false
	}
	fs := strings.Fields(s[j+1:]) // state, ppid, ..., starttime (field 22 of stat)
	if len(fs) < 20 || fs[0] == "Z" {
		return p, false
	}
	return proc{pid: pid, comm: s[i+1 : j], start: fs[19]}, true
}

// processTree is the process pid and its descendants.
func processTree(pid int) []proc {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		if j := strings.LastIndexByte(s, ')'); j > 0 {
			if fs := strings.Fields(s[j+1:]); len(fs) > 1 {
				pp, _ := strconv.Atoi(fs[1])
				children[pp] = append(children[pp], n)
			}
		}
	}
	var tree []proc
	for todo := []int{pid}; len(todo) > 0; todo = todo[1:] {
		if p, ok := readProc(todo[0]); ok {
			tree = append(tree, p)
		}
		todo = append(todo, children[todo[0]]...)
	}
	return tree
}

// freePort returns a TCP port free on 127.0.0.1 now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// httpClient fetches over 127.0.0.1 only: no proxy, 30 s a request at most
// (the first request of a JSP page compiles it).
var httpClient = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

// get fetches url; ok is false unless the status is 200.
func get(url string) (body string, ok bool) {
	r, err := httpClient.Get(url)
	if err != nil {
		return "", false
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	return string(b), err == nil && r.StatusCode == http.StatusOK
}

// canDial reports whether something accepts TCP connections at addr.
func canDial(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}
