package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// More of the matrix's servers (matrix_servers_test.go has Tomcat, Jetty
// and H2): HSQLDB's server with a JDBC client in another JVM, a Netty echo
// server and its client in one JVM, ZooKeeper standalone with a client in
// another JVM. Each runs stock and under weft serve only (its JVMs start
// in seconds; weft run's class path woven ahead would cost more than the
// program), every JVM of the woven run woven. No output needs normalizing:
// the programs print neither ports nor times.

// checkNoneOf fails the test if a run's stderr (a server's log) has any of
// bad: a class the JVM could not load or link is logged, not always thrown
// out of main.
func checkNoneOf(t *testing.T, what, stderr string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(stderr, b) {
			t.Errorf("%s: stderr has %q:\n%s", what, b, tail(stderr))
		}
	}
}

// classErrors are what a server logs when a class could not be loaded,
// linked or initialized.
var classErrors = []string{"NoClassDefFoundError", "VerifyError", "ClassFormatError", "ExceptionInInitializerError"}

// hsqldb runs HSQLDB's server (libhsqldb-java) with an in-memory database
// on 127.0.0.1 at a free port, in a directory of its own (it reads
// server.properties there), and a JDBC client in another JVM, in the same
// mode, which declares the SQL function probeSq as the Java method
// matrix.HsqlFns.probeSq, found on the server's class path (HSQLDB calls
// only the methods hsqldb.method_class_names lists), and runs an UPDATE
// calling it once a row (10 times, in the server's JVM) and a few queries.
// The client prints the stock run's results; the server is stopped by
// SIGTERM.
func (m *matrix) hsqldb(t *testing.T) {
	hsqldb := debJava + "hsqldb.jar"
	needFiles(t, "libhsqldb-java", hsqldb)
	// One class path for the server and the client.
	cp := hsqldb + ":" + jvmtest.Compile(t, matrixSources(t, "hsqldb", "matrix/HsqlFns.java", "matrix/HsqlClient.java"))
	var want string
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		port := freePort(t)
		s := m.start(t, mode, t.TempDir(), "-Dhsqldb.method_class_names=matrix.HsqlFns.probeSq", "-cp", cp,
			"org.hsqldb.server.Server", "--database.0", "mem:matrix", "--dbname.0", "matrix",
			"--address", "127.0.0.1", "--port", strconv.Itoa(port))
		addr := "127.0.0.1:" + strconv.Itoa(port)
		s.waitFor(t, "server listening", func() bool { return canDial(addr) })
		s.checkListeners(t, port)
		c := m.run(t, mode, "", "-cp", cp, "matrix.HsqlClient", "jdbc:hsqldb:hsql://"+addr+"/matrix")
		o := s.stop(t, syscall.SIGTERM)
		checkNoneOf(t, "hsqldb server", o.stderr, classErrors...)
		if mode == stockMode {
			want = c.stdout
			if c.code != 0 || !strings.HasPrefix(want, "updated 10\n") || !strings.HasSuffix(want, "9 row 9 81\nsum 285 of 10, last row 9\nodd 5\n") {
				t.Fatalf("client: exit %d, stdout %q; stderr:\n%s\nserver:\n%s", c.code, c.stdout, tail(c.stderr), tail(o.stderr))
			}
			return
		}
		if c.code != 0 || c.stdout != want {
			t.Errorf("client: exit %d, stdout %q, want %q; stderr:\n%s", c.code, c.stdout, want, tail(c.stderr))
		}
		checkWoven(t, mode, "hsqldb client", c, nil)
		checkWoven(t, mode, "hsqldb server", o, map[string]int{"matrix.HsqlFns.probeSq(int)": 10})
	})
}

// nettyJars are the Netty 4 jars (libnetty-java) the echo program needs
// (NIO transport, its line and string codecs). No logger: Netty tries
// slf4j, then Log4j 2, whose Log4J2Logger extends a Log4j class and cannot
// be defined, stock or woven (Netty catches the error and logs to the JDK's
// logging): weft says nothing of it, as the JVM refused the woven class
// only for the supertype missing on the stock JDK too.
var nettyJars = []string{debJava + "netty-common.jar", debJava + "netty-buffer.jar", debJava + "netty-resolver.jar",
	debJava + "netty-transport.jar", debJava + "netty-codec.jar"}

// netty runs a Netty echo server and its client in one JVM
// (testdata/matrix/netty): over NIO on 127.0.0.1 (a port the system
// picks), the client sends 1,000 lines and reads them back (a minute at
// most), then both shut down gracefully and the JVM ends by itself. The
// server's handler calls probeSq on its first 10 lines. The program prints
// the count, a checksum of the lines read back and the probes' sum, the
// stock run's.
func (m *matrix) netty(t *testing.T) {
	needFiles(t, "libnetty-java", nettyJars...)
	cp := strings.Join(nettyJars, ":")
	cp += ":" + jvmtest.Compile(t, matrixSources(t, "netty", "matrix/NettyEcho.java"), "-cp", cp)
	var want string
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		o := m.run(t, mode, "", "-cp", cp, "matrix.NettyEcho")
		if mode == stockMode {
			want = o.stdout
			if o.code != 0 || want != "echoed 1000 of 1000 lines, crc32 f7b38e9c\nprobes 285\nshut down\n" {
				t.Fatalf("exit %d, stdout %q; stderr:\n%s", o.code, o.stdout, tail(o.stderr))
			}
			return
		}
		if o.code != 0 || o.stdout != want {
			t.Errorf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
		}
		checkNoneOf(t, "netty", o.stderr, classErrors...)
		checkWoven(t, mode, "netty", o, map[string]int{"matrix.NettyEcho.probeSq(int)": 10})
	})
}

// zookeeperJars are ZooKeeper's jars (zookeeper, libzookeeper-java;
// zookeeper.jar's manifest names its other dependencies, which Debian's
// zookeeper package depends on) and slf4j's simple logger (libslf4j-java),
// which logs to stderr.
var zookeeperJars = []string{debJava + "zookeeper.jar", debJava + "zookeeper-jute.jar", debJava + "slf4j-api.jar",
	debJava + "slf4j-simple.jar"}

// zookeeper runs ZooKeeper standalone (ZooKeeperServerMain with a config
// file: the client port on 127.0.0.1 at a free port, a new data directory,
// no admin HTTP server, which would listen on 8080, and no four-letter-word
// command whitelisted; ZooKeeper keeps srvr, on the client port) and a
// client in another JVM, in the same mode (testdata/matrix/zookeeper),
// which connects, creates /matrix and 10 children holding probeSq of their
// number (10 calls in the client's JVM), sets and reads data, lists and
// reads the children, deletes them and closes. ZooKeeper logs a lot,
// differently each run: only the client's stdout is compared with the
// stock run's; both JVMs' logs are checked for classes not loaded, linked
// or initialized. The server is stopped by SIGTERM.
func (m *matrix) zookeeper(t *testing.T) {
	needFiles(t, "zookeeper", zookeeperJars[:2]...)
	needFiles(t, "libslf4j-java", zookeeperJars[2:]...)
	cp := strings.Join(zookeeperJars, ":")
	cp += ":" + jvmtest.Compile(t, matrixSources(t, "zookeeper", "matrix/ZkClient.java"), "-cp", cp)
	var want string
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		port := freePort(t)
		dir := t.TempDir()
		conf := filepath.Join(dir, "zoo.cfg")
		cfg := fmt.Sprintf("tickTime=2000\ndataDir=%s\nclientPort=%d\nclientPortAddress=127.0.0.1\n"+
			"admin.enableServer=false\n4lw.commands.whitelist=\n", filepath.Join(dir, "data"), port)
		if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		s := m.start(t, mode, dir, "-cp", cp, "org.apache.zookeeper.server.ZooKeeperServerMain", conf)
		addr := "127.0.0.1:" + strconv.Itoa(port)
		s.waitFor(t, "server listening", func() bool { return canDial(addr) })
		s.checkListeners(t, port)
		c := m.run(t, mode, "", "-cp", cp, "matrix.ZkClient", addr)
		o := s.stop(t, syscall.SIGTERM)
		checkNoneOf(t, "zookeeper client", c.stderr, classErrors...)
		checkNoneOf(t, "zookeeper server", o.stderr, classErrors...)
		if mode == stockMode {
			want = c.stdout
			if c.code != 0 || !strings.HasPrefix(want, "created /matrix\n") || !strings.HasSuffix(want, "n9 81\nsum 285 of 10\ndeleted; /matrix exists: false\nclosed\n") {
				t.Fatalf("client: exit %d, stdout %q; stderr:\n%s\nserver:\n%s", c.code, c.stdout, tail(c.stderr), tail(o.stderr))
			}
			return
		}
		if c.code != 0 || c.stdout != want {
			t.Errorf("client: exit %d, stdout %q, want %q; stderr:\n%s", c.code, c.stdout, want, tail(c.stderr))
		}
		checkWoven(t, mode, "zookeeper client", c, map[string]int{"matrix.ZkClient.probeSq(int)": 10})
		checkWoven(t, mode, "zookeeper server", o, nil)
	})
}
