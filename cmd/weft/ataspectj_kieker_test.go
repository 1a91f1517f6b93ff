package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// kiekerDir holds the application of TestAtAspectJKieker with its
// META-INF/aop.xml (app), and an aop.xml adding java.util.ArrayList to the
// types woven (jdk).
const kiekerDir = "testdata/ataspectj-kieker"

// kiekerVersion is the release of Kieker's monitoring agent the test runs:
// net.kieker-monitoring:kieker's aspectj jar, which bundles AspectJ 1.9.7's
// load-time weaver, Kieker's ajc-woven @AspectJ probes and their
// dependencies.
const kiekerVersion = "1.15.2"

// kiekerAgent resolves Kieker's agent jar into the tests' Maven repository
// (online the first time) and returns its path.
func kiekerAgent(t *testing.T) string {
	t.Helper()
	jar := filepath.Join(testM2(t), "net", "kieker-monitoring", "kieker", kiekerVersion, "kieker-"+kiekerVersion+"-aspectj.jar")
	if _, err := os.Stat(jar); err == nil {
		return jar
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Fatalf("%v: install Debian's maven (bash .ci/run does); the test resolves net.kieker-monitoring:kieker:%s from Maven Central", err, kiekerVersion)
	}
	c := exec.Command("mvn", "-q", "-B", "-Dmaven.repo.local="+testM2(t), "dependency:get",
		"-Dartifact=net.kieker-monitoring:kieker:"+kiekerVersion+":jar:aspectj", "-Dtransitive=false")
	c.Dir = t.TempDir()
	c.Env = append(os.Environ(), "PATH="+filepath.Join(jvmtest.JavaHome(t), "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("resolving Kieker %s's agent with Maven (Maven Central, into %s): %v\n%s", kiekerVersion, testM2(t), err, b)
	}
	return jar
}

// kiekerRecord is what a Kieker OperationExecutionRecord says of an
// execution that does not change from run to run: the operation, its
// order in its trace (eoi) and its depth there (ess).
type kiekerRecord struct{ operation, eoi, ess string }

// kiekerRecords reads the OperationExecutionRecords Kieker's file writer
// wrote under dir, in the order written.
func kiekerRecords(t *testing.T, dir string) []kiekerRecord {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "kieker-*", "kieker-*.dat"))
	if len(files) != 1 {
		t.Fatalf("Kieker wrote %d record files under %s, want 1: %v", len(files), dir, files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []kiekerRecord
	for _, line := range strings.Split(string(b), "\n") {
		// $1;time;operation;session;trace;tin;tout;host;eoi;ess
		f := strings.Split(line, ";")
		if f[0] == "$1" && len(f) == 10 {
			out = append(out, kiekerRecord{f[2], f[8], f[9]})
		}
	}
	return out
}

// TestAtAspectJKieker runs Kieker's monitoring agent, a real @AspectJ
// library: its OperationExecutionAspectFull, ajc-woven, listed in the
// application's aop.xml as Kieker's documentation has it. Under weft run
// the agent's command line records what it records under the agent itself
// (AspectJ 1.9.7, JDK 17): the same executions, in the same order, at the
// same depths. The agent's jar, which holds Kieker's classes, joins the
// class path as the JVM's agent loading does; only aspectjrt's classes of
// it go on the boot class path. With java.util.ArrayList added to the
// types woven, on JDK 25 under weft profile, the records also hold the
// JDK's executions, which AspectJ's weaver cannot reach, and the profile
// the program's calls.
func TestAtAspectJKieker(t *testing.T) {
	agent := kiekerAgent(t)
	app := compileWithAopXML(t, filepath.Join(kiekerDir, "app"), "-g")
	const wantOut = "squares [0, 1, 4], fib 3, check -1\n"
	records := func(out string) string {
		return "-Dkieker.monitoring.writer.filesystem.FileWriter.customStoragePath=" + out
	}

	byAgent := t.TempDir()
	stdout, stderr := jvmtest.Run(t, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-javaagent:"+agent, records(byAgent),
		"-cp", app, "demo.Main")
	want := kiekerRecords(t, byAgent)
	if stdout != wantOut || len(want) < 10 || want[len(want)-1] != (kiekerRecord{"public static void demo.Main.main(java.lang.String[])", "0", "0"}) {
		t.Fatalf("Kieker's agent: stdout:\n%s\nrecords %v\nstderr:\n%s", stdout, want, stderr)
	}

	env := []string{newCache(t)}
	byWeft := t.TempDir()
	stdout, stderr, code := weft(t, env, "run", "--modules", "java.base", "--", jvmtest.Java(t), "-Xverify:all",
		"-javaagent:"+agent, records(byWeft), "-cp", app, "demo.Main")
	if code != 0 || stdout != wantOut || !strings.Contains(stderr, "weft: AspectJ's agent ("+agent+") does not run") {
		t.Fatalf("weft run of Kieker's command line: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := kiekerRecords(t, byWeft); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("weft run of Kieker's command line records\n%v\nwant (Kieker's agent's)\n%v", got, want)
	}

	// On JDK 25, under weft profile: the profiler's aspects and Kieker's
	// run side by side.
	t.Run("JDK25", func(t *testing.T) {
		java25 := filepath.Join(jvmtest.JDK25(t), "bin", "java")
		jdk := filepath.Join(kiekerDir, "jdk")
		out, profile := t.TempDir(), t.TempDir()
		stdout, stderr, code := weft(t, env, "profile", "--no-time", "--write-folded", "-o", profile, "--modules", "java.base", "--patches", "--",
			java25, "-javaagent:"+agent, records(out), "-cp", jdk+string(filepath.ListSeparator)+app, "demo.Main")
		if code != 0 || stdout != wantOut {
			t.Fatalf("weft profile with the JDK's ArrayList, JDK 25: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if b, err := os.ReadFile(filepath.Join(profile, "calls.folded")); err != nil ||
			!strings.Contains(string(b), "demo.Main.fill;demo.Main.square 3\n") {
			t.Errorf("weft profile beside Kieker: calls.folded lacks fill's calls of square (%v):\n%.2000s", err, b)
		}
		// The program's records are the agent's, but for their order
		// in the trace, which the JDK's records now share.
		var program []kiekerRecord
		adds := 0
		for _, r := range kiekerRecords(t, out) {
			switch {
			case strings.Contains(r.operation, " demo."):
				program = append(program, kiekerRecord{r.operation, "", r.ess})
			case r.operation == "public boolean java.util.ArrayList.add(java.lang.Object)" && r.ess == "2":
				adds++ // under fill, under main
			}
		}
		var wantProgram []kiekerRecord
		for _, r := range want {
			wantProgram = append(wantProgram, kiekerRecord{r.operation, "", r.ess})
		}
		if fmt.Sprint(program) != fmt.Sprint(wantProgram) || adds != 3 {
			t.Errorf("JDK 25 with ArrayList: the program's records\n%v\nwant\n%v\nand %d records of ArrayList.add under fill, want 3",
				program, wantProgram, adds)
		}
	})
}
