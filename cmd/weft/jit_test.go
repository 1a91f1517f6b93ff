package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// compilerThreadsSrc prints the JVM's C1 and C2 compiler threads, by the
// names HotSpot gives them, from /proc (the Java API does not list them).
const compilerThreadsSrc = `
import java.nio.file.*;
public class CompilerThreads {
    public static void main(String[] args) throws Exception {
        int c1 = 0, c2 = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path t : tasks) {
                String name = Files.readString(t.resolve("comm")).trim();
                if (name.startsWith("C1 CompilerThre")) c1++;
                if (name.startsWith("C2 CompilerThre")) c2++;
            }
        }
        System.out.println(c1 + " " + c2);
    }
}
`

// TestTieredC1ThreadsMatchTheJVM checks --jit c1's compiler threads
// against the C1 threads the JVM's own tiered policy starts, on machines
// of 1 to 64 processors (-XX:ActiveProcessorCount), all started at once.
func TestTieredC1ThreadsMatchTheJVM(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"CompilerThreads.java": compilerThreadsSrc})
	for _, cpus := range []int{1, 2, 3, 4, 8, 16, 32, 64} {
		out, err := exec.Command(jvmtest.Java(t), fmt.Sprintf("-XX:ActiveProcessorCount=%d", cpus),
			"-XX:-UseDynamicNumberOfCompilerThreads", "-Xshare:auto", "-cp", app, "CompilerThreads").CombinedOutput()
		if err != nil {
			t.Fatalf("%d processors: %v\n%s", cpus, err, out)
		}
		var c1, c2 int
		if _, err := fmt.Sscan(strings.TrimSpace(string(out)), &c1, &c2); err != nil {
			t.Fatalf("%d processors: %q: %v", cpus, out, err)
		}
		if got := tieredC1Threads(cpus); got != c1 || c2 == 0 {
			t.Errorf("%d processors: tieredC1Threads %d, the JVM started %d C1 and %d C2 threads", cpus, got, c1, c2)
		}
	}
	if _, err := jitOptions("fast"); err == nil || !strings.Contains(err.Error(), `--jit "fast"`) {
		t.Errorf("jitOptions(fast): %v", err)
	}
}
