package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// allWeft advises every execution, constructor call and array
// construction, with after advice at every method's exits (a handler over
// each body: the frames of the whole method are computed).
const allWeft = `aspect CountAll {
    before(): (execution(* *(..)) || execution(new(..)) || call(new(..)) || call(*[].new(..))) {
        weft.tools.count.Counter.hit(joinPointId);
    }
    after(): execution(* *(..)) {
        weft.tools.count.Counter.hit(joinPointId);
    }
}
`

// linkSrc links (so verifies, under -Xverify:all) every class of each
// woven jar named, in a class loader of its own over the jar and its
// dependencies: arguments are pairs JAR CLASSPATH. Class.forName does not
// initialize; getDeclaredMethods links. It prints one line per
// VerifyError and then "linked N verify-errors V other O".
const linkSrc = `import java.io.File;
import java.net.*;
import java.util.*;
import java.util.zip.*;
public class Link {
    public static void main(String[] a) throws Exception {
        int ok = 0, bad = 0, other = 0;
        for (int i = 0; i < a.length; i += 2) {
            List<URL> urls = new ArrayList<>();
            urls.add(new File(a[i]).toURI().toURL());
            for (String p : a[i + 1].split(File.pathSeparator)) urls.add(new File(p).toURI().toURL());
            ClassLoader l = new URLClassLoader(urls.toArray(new URL[0]), Link.class.getClassLoader());
            try (ZipFile z = new ZipFile(a[i])) {
                for (ZipEntry e : Collections.list(z.entries())) {
                    String n = e.getName();
                    if (!n.endsWith(".class") || n.contains("$weft$jp") || n.endsWith("module-info.class") || n.startsWith("META-INF/")) continue;
                    String cn = n.substring(0, n.length() - 6).replace('/', '.');
                    try { Class.forName(cn, false, l).getDeclaredMethods(); ok++; }
                    catch (VerifyError ve) { bad++; System.out.println("VerifyError " + cn + ": " + ve.getMessage().split("\n")[0]); }
                    catch (Throwable t) { other++; } // a dependency Debian does not ship, say: not weft's
                }
            }
        }
        System.out.println("linked " + ok + " verify-errors " + bad + " other " + other);
    }
}
`

// TestWeaveJarAlone weaves real jars of Debian's packages each alone,
// without its dependencies on -cp, as a user may: the types their frames
// merge are then unknown to weft, and the woven frames must be the
// compiler's, never a guess. Then every class of each woven jar is linked
// under -Xverify:all with its dependencies present. The build before
// frames were kept wrote classes the verifier rejects, without a word:
// catalina.jar 8, jasper.jar 5, jetty9-server.jar 3, jetty9-servlet.jar 3,
// gpars.jar 1 (groovy-all.jar 1; left out of this test for its time).
func TestWeaveJarAlone(t *testing.T) {
	tomcat, java := "/usr/share/tomcat10", "/usr/share/java"
	tomcatCP := glob(t, tomcat+"/lib/*.jar") + ":" + tomcat + "/bin/tomcat-juli.jar:" + tomcat + "/bin/bootstrap.jar"
	jettyCP := glob(t, java+"/jetty9-*.jar") + ":" + glob(t, java+"/servlet-api*.jar")
	jars := []struct{ jar, deps, pkg string }{
		{tomcat + "/lib/catalina.jar", tomcatCP, "tomcat10"},
		{tomcat + "/lib/jasper.jar", tomcatCP, "tomcat10"},
		{java + "/jetty9-server.jar", jettyCP, "libjetty9-java"},
		{java + "/jetty9-servlet.jar", jettyCP, "libjetty9-java"},
		{java + "/gpars.jar", java + "/groovy-all.jar:" + java + "/jsr166y.jar:" + java + "/multiverse-core.jar", "groovy"},
	}
	for _, j := range jars {
		if _, err := os.Stat(j.jar); err != nil {
			t.Fatalf("%v: install Debian's %s (bash .ci/run does)", err, j.pkg)
		}
	}
	adv := countAdvice(t)
	aspect := writeFile(t, "all.weft", allWeft)
	out := t.TempDir()
	var linkArgs []string
	for _, j := range jars {
		woven := filepath.Join(out, filepath.Base(j.jar))
		_, stderr, code := weft(t, nil, "weave", "-a", aspect, "--advice-cp", adv, "-o", woven, j.jar)
		if code != 0 {
			t.Fatalf("weft weave %s: exit %d\n%s", j.jar, code, stderr)
		}
		t.Logf("%s: %s", filepath.Base(j.jar), strings.TrimSpace(stderr))
		if strings.Contains(stderr, "left unwoven") {
			t.Errorf("%s: methods left unwoven (their frames keep the compiler's types):\n%s", j.jar, stderr)
		}
		linkArgs = append(linkArgs, woven, j.deps+":"+filepath.Join(out, "weft-rt.jar")+":"+adv)
	}
	link := jvmtest.Compile(t, map[string]string{"Link.java": linkSrc})
	stdout, _ := jvmtest.Run(t, append([]string{"-Xverify:all", "-cp", link, "Link"}, linkArgs...)...)
	t.Log(strings.TrimSpace(stdout))
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 6 || f[0] != "linked" {
		t.Fatalf("link: %q", stdout)
	}
	linked, _ := strconv.Atoi(f[1])
	if f[3] != "0" || linked < 2300 { // 2,426 of these jars' classes link here
		t.Errorf("woven alone, linked with their dependencies: %d classes linked (want at least 2,300), %s verify errors:\n%s", linked, f[3], stdout)
	}
}

// glob returns the files matching pattern as a class path; none fails t.
func glob(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no file matches %s", pattern)
	}
	return strings.Join(m, string(filepath.ListSeparator))
}
