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

// matrixRequests is how many times each page is fetched: each fetch runs
// its probe 10 times.
const matrixRequests = 3

// fetchPages fetches each path at base matrixRequests times (?n=1...) and
// returns the bodies, in order.
func fetchPages(t *testing.T, base string, paths ...string) []string {
	t.Helper()
	var bodies []string
	for _, p := range paths {
		for n := 1; n <= matrixRequests; n++ {
			url := fmt.Sprintf("%s%s?n=%d", base, p, n)
			body, ok := get(url)
			if !ok {
				t.Errorf("GET %s failed: %q", url, body)
			}
			bodies = append(bodies, body)
		}
	}
	return bodies
}

// checkPages compares a woven run's pages with the stock run's.
func checkPages(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("pages %q, want the stock run's %q", got, want)
	}
}

const tomcatHome = "/usr/share/tomcat10"

// tomcat runs Tomcat 10 (CATALINA_HOME Debian's, CATALINA_BASE a new one
// each run, its conf Debian's with the HTTP connector on 127.0.0.1 at a
// free port) with a webapp holding a JSP page, which Jasper compiles as it
// is first requested (a class the JVM defines at run time), and a
// servlet; each is fetched 3 times and calls probeSq 10 times a request.
// weft run is stopped by SIGTERM.
func (m *matrix) tomcat(t *testing.T) {
	needFiles(t, "tomcat10", tomcatHome+"/bin/bootstrap.jar", tomcatHome+"/bin/tomcat-juli.jar", tomcatHome+"/etc/server.xml",
		tomcatHome+"/lib/servlet-api.jar", debJava+"eclipse-jdt-core.jar")
	classes := jvmtest.Compile(t, matrixSources(t, "tomcat/src", "matrix/SqServlet.java"), "-cp", tomcatHome+"/lib/servlet-api.jar")
	var want []string
	m.modes(t, nil, func(t *testing.T, mode matrixMode) {
		port := freePort(t)
		base := tomcatBase(t, port, classes)
		s := m.start(t, mode, base,
			"-Djava.util.logging.config.file="+base+"/conf/logging.properties",
			"-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager",
			"--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
			"--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
			"--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED",
			"-Dcatalina.base="+base, "-Dcatalina.home="+tomcatHome, "-Djava.io.tmpdir="+base+"/temp",
			"-cp", tomcatHome+"/bin/bootstrap.jar:"+tomcatHome+"/bin/tomcat-juli.jar",
			"org.apache.catalina.startup.Bootstrap", "start")
		url := "http://127.0.0.1:" + strconv.Itoa(port)
		s.waitFor(t, "servlet served", func() bool { _, ok := get(url + "/matrix/sq"); return ok })
		s.checkListeners(t, port)
		pages := fetchPages(t, url, "/matrix/probeSq.jsp", "/matrix/sq")
		o := s.stop(t, syscall.SIGTERM)
		if mode == stockMode {
			want = pages
			if !strings.HasPrefix(want[0], "jsp 285 1") || want[matrixRequests] != "tomcat servlet 285 1\n" {
				t.Fatalf("pages %q; stderr:\n%s", want, tail(o.stderr))
			}
			return
		}
		checkPages(t, pages, want)
		// The readiness probe fetched the servlet once more.
		checkWoven(t, mode, "tomcat", o, map[string]int{"org.apache.jsp.probeSq_jsp.probeSq(int)": 10 * matrixRequests,
			"probeSq_jsp._jspService(": matrixRequests, "matrix.SqServlet.probeSq(int)": 10 * (matrixRequests + 1)})
	})
}

// tomcatBase makes a CATALINA_BASE: Debian's conf with the HTTP connector
// on 127.0.0.1 at port, and the webapp matrix (testdata/matrix/tomcat,
// its servlet's classes compiled in classes).
func tomcatBase(t *testing.T, port int, classes string) string {
	t.Helper()
	base := t.TempDir()
	for _, d := range []string{"conf", "logs", "temp", "work", "webapps/matrix/WEB-INF/classes"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := copyTree(filepath.Join(base, "conf"), tomcatHome+"/etc"); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(base, "conf", "server.xml")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	const connector = `<Connector port="8080" protocol="HTTP/1.1"`
	if !strings.Contains(string(b), connector) || !strings.Contains(string(b), `<Server port="-1"`) {
		t.Fatalf("%s: no %s, or a shutdown port", conf, connector)
	}
	b = []byte(strings.Replace(string(b), connector, fmt.Sprintf(`<Connector port="%d" address="127.0.0.1" protocol="HTTP/1.1"`, port), 1))
	if err := os.WriteFile(conf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(base, "webapps", "matrix")
	for _, err := range []error{
		copyTree(app, filepath.Join(matrixDir, "tomcat")), os.RemoveAll(filepath.Join(app, "src")),
		copyTree(filepath.Join(app, "WEB-INF", "classes"), classes),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return base
}

// copyTree copies the files under src into dst (symbolic links followed).
func copyTree(dst, src string) error {
	return filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil {
			err = os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, rel), b, 0o644)
		}
		return err
	})
}

// jettyJars are the jars of Jetty 9 embedded (libjetty9-java) and its
// servlet API (libservlet-api-java, which it depends on).
var jettyJars = []string{debJava + "jetty9-server.jar", debJava + "jetty9-servlet.jar", debJava + "jetty9-security.jar",
	debJava + "jetty9-http.jar", debJava + "jetty9-io.jar", debJava + "jetty9-util.jar", debJava + "servlet-api.jar"}

// jetty runs Jetty 9 embedded (testdata/matrix/jetty) on 127.0.0.1 at a
// free port, serving a servlet fetched 3 times, each calling probeSq 10
// times. weft run is stopped by SIGINT.
func (m *matrix) jetty(t *testing.T) {
	needFiles(t, "libjetty9-java", jettyJars...)
	cp := strings.Join(jettyJars, ":")
	cp += ":" + jvmtest.Compile(t, matrixSources(t, "jetty", "matrix/JettyMain.java", "matrix/JettySqServlet.java"), "-cp", cp)
	var want []string
	m.modes(t, nil, func(t *testing.T, mode matrixMode) {
		port := freePort(t)
		s := m.start(t, mode, "", "-cp", cp, "matrix.JettyMain", strconv.Itoa(port))
		url := "http://127.0.0.1:" + strconv.Itoa(port)
		s.waitFor(t, "servlet served", func() bool { _, ok := get(url + "/sq"); return ok })
		s.checkListeners(t, port)
		pages := fetchPages(t, url, "/sq")
		o := s.stop(t, syscall.SIGINT)
		if mode == stockMode {
			want = pages
			if want[0] != "jetty servlet 285 1\n" {
				t.Fatalf("pages %q; stderr:\n%s", want, tail(o.stderr))
			}
			return
		}
		checkPages(t, pages, want)
		checkWoven(t, mode, "jetty", o, map[string]int{"matrix.JettySqServlet.probeSq(int)": 10 * (matrixRequests + 1)})
	})
}

// h2 runs H2's TCP server (libh2-java) on 127.0.0.1 (h2.bindAddress) at a
// free port, with the Java function PROBE_SQ, and a JDBC client in another
// JVM, in the same mode, whose queries call it 20 times. The client prints
// the stock run's results. Not under weft run (the suite's time; Tomcat is
// stopped by SIGTERM there).
func (m *matrix) h2(t *testing.T) {
	h2 := debJava + "h2.jar"
	needFiles(t, "libh2-java", h2)
	// One class path for the server and the client: weft run weaves it once.
	cp := h2 + ":" + jvmtest.Compile(t, matrixSources(t, "h2", "matrix/H2Fns.java", "matrix/H2Client.java"))
	var want string
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		port := freePort(t)
		s := m.start(t, mode, "", "-Dh2.bindAddress=127.0.0.1", "-cp", cp, "org.h2.tools.Server",
			"-tcp", "-tcpPort", strconv.Itoa(port), "-ifNotExists")
		addr := "127.0.0.1:" + strconv.Itoa(port)
		s.waitFor(t, "server listening", func() bool { return canDial(addr) })
		s.checkListeners(t, port)
		c := m.run(t, mode, "", "-cp", cp, "matrix.H2Client", "jdbc:h2:tcp://"+addr+"/mem:matrix")
		o := s.stop(t, syscall.SIGTERM)
		if mode == stockMode {
			want = c.stdout
			if c.code != 0 || !strings.HasSuffix(want, "9 row 9 81\nsum 285 of 10\n") {
				t.Fatalf("client: exit %d, stdout %q; stderr:\n%s\nserver:\n%s", c.code, c.stdout, tail(c.stderr), tail(o.stderr))
			}
			return
		}
		if c.code != 0 || c.stdout != want {
			t.Errorf("client: exit %d, stdout %q, want %q; stderr:\n%s", c.code, c.stdout, want, tail(c.stderr))
		}
		checkWoven(t, mode, "h2 client", c, nil)
		checkWoven(t, mode, "h2 server", o, map[string]int{"matrix.H2Fns.probeSq(int)": 20})
	})
}
