package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// micrometerDir holds the application of TestAtAspectJMicrometer, its
// META-INF/aop.xml and the pom.xml that resolves Micrometer.
const micrometerDir = "testdata/ataspectj-micrometer"

// micrometerVersions are the releases of io.micrometer:micrometer-core
// whose TimedAspect and CountedAspect the test runs: 1.12.13, the last
// whose aspects are javac's alone and whose pointcuts AspectJ parses (1.13
// writes "and not", which only Spring AOP reads), and 1.17.2, whose
// aspects, as every release's since 1.14, ajc has woven after javac
// (aspectOf() and hasAspect() added, org.aspectj.weaver.* attributes).
var micrometerVersions = []string{"1.12.13", "1.17.2"}

// testM2 returns the local Maven repository of the tests' artifacts:
// $WEFT_TEST_M2, else the user cache directory's weft-test/m2.
func testM2(t *testing.T) string {
	t.Helper()
	if m2 := os.Getenv("WEFT_TEST_M2"); m2 != "" {
		return m2
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "weft-test", "m2")
}

// micrometerClassPath resolves micrometer-core of the version and its
// runtime dependencies into the tests' Maven repository (online the first
// time) and returns their class path.
func micrometerClassPath(t *testing.T, version string) string {
	t.Helper()
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Fatalf("%v: install Debian's maven (bash .ci/run does); the test resolves io.micrometer:micrometer-core:%s from Maven Central", err, version)
	}
	out := filepath.Join(t.TempDir(), "classpath")
	pom, err := filepath.Abs(filepath.Join(micrometerDir, "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command("mvn", "-q", "-B", "-Dmaven.repo.local="+testM2(t), "-f", pom, "-Dmicrometer.version="+version,
		"dependency:build-classpath", "-Dmdep.includeScope=runtime", "-Dmdep.outputFile="+out)
	c.Dir = t.TempDir()
	c.Env = append(os.Environ(), "PATH="+filepath.Join(jvmtest.JavaHome(t), "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("resolving io.micrometer:micrometer-core:%s with Maven (Maven Central, into %s): %v\n%s", version, testM2(t), err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cp := strings.TrimSpace(string(b))
	if !strings.Contains(cp, "micrometer-core-"+version+".jar") {
		t.Fatalf("Maven's class path lacks micrometer-core-%s.jar: %q", version, cp)
	}
	return cp
}

// TestAtAspectJMicrometer runs a real @AspectJ library nobody here wrote:
// Micrometer's TimedAspect and CountedAspect, listed in an aop.xml as
// Micrometer documents them, on an application's @Timed and @Counted
// methods. The meters its main prints (names, tags and counts) under
// AspectJ's load-time weaver (Debian's 1.9.5, JDK 17) are those weft run
// prints, AspectJ's agent replaced, on JDK 17 (-Xverify:all) and, the
// newest, on JDK 25.
func TestAtAspectJMicrometer(t *testing.T) {
	for _, jar := range []string{aspectjrtJar, aspectjweaverJar} {
		if _, err := os.Stat(jar); err != nil {
			t.Fatalf("the @AspectJ tests need AspectJ's %s: %v (bash .ci/run installs Debian's aspectj)", jar, err)
		}
	}
	env := []string{newCache(t)}
	for _, version := range micrometerVersions {
		t.Run(version, func(t *testing.T) {
			deps := micrometerClassPath(t, version)
			app := compileWithAopXML(t, micrometerDir, "-cp", deps)
			cp := app + string(filepath.ListSeparator) + deps

			aspectJ, aspectJErr := jvmtest.Run(t, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-javaagent:"+aspectjweaverJar,
				"-cp", cp, "demo.Main")
			const timed = "\nmethod.timed{class=demo.Shop,exception=none,method=buy} timer count=3\n"
			if !strings.Contains(aspectJ, timed) || !strings.Contains(aspectJ, "\nshop.pay{class=demo.Shop,currency=eur,exception=IllegalArgumentException,method=pay} timer count=1\n") {
				t.Fatalf("AspectJ's own weaver did not time the program's methods: stdout:\n%s\nstderr:\n%s", aspectJ, aspectJErr)
			}

			stdout, stderr, code := weft(t, env, "run", "--modules", "java.base", "--patches", "--", jvmtest.Java(t), "-Xverify:all",
				"-javaagent:"+aspectjweaverJar, "-cp", cp, "demo.Main")
			if code != 0 || stdout != aspectJ || !strings.Contains(stderr, "weft: AspectJ's agent ("+aspectjweaverJar+") does not run") {
				t.Errorf("weft run of AspectJ's command line, JDK 17: exit %d, stdout:\n%s\nwant (AspectJ's):\n%s\nstderr:\n%s", code, stdout, aspectJ, stderr)
			}

			if version != micrometerVersions[len(micrometerVersions)-1] {
				return // JDK 25 with the newest only: each run weaves a JDK of its own
			}
			t.Run("JDK25", func(t *testing.T) {
				java25 := filepath.Join(jvmtest.JDK25(t), "bin", "java")
				stdout, stderr, code := weft(t, env, "run", "--modules", "java.base", "--patches", "--", java25,
					"-javaagent:"+aspectjweaverJar, "-cp", cp, "demo.Main")
				if code != 0 || stdout != aspectJ {
					t.Errorf("weft run of AspectJ's command line, JDK 25: exit %d, stdout:\n%s\nwant (AspectJ's on JDK 17):\n%s\nstderr:\n%s", code, stdout, aspectJ, stderr)
				}
			})
		})
	}
}
