package jvmopts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// compilerThreadsSrc prints the JVM's C1 and C2 compiler threads, by the
// names HotSpot gives them, from /proc (the Java API does not list them),
// and the processors it counts.
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
        System.out.println(c1 + " " + c2 + " " + Runtime.getRuntime().availableProcessors());
    }
}
`

// compilerThreads runs compilerThreadsSrc's class in app with the JVM
// options given, every compiler thread started at once.
func compilerThreads(t *testing.T, app string, opts ...string) (c1, c2, processors int) {
	t.Helper()
	args := append(append([]string{"-XX:-UseDynamicNumberOfCompilerThreads"}, opts...), "-cp", app, "CompilerThreads")
	out, err := exec.Command(jvmtest.Java(t), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", opts, err, out)
	}
	if _, err := fmt.Sscan(strings.TrimSpace(string(out)), &c1, &c2, &processors); err != nil {
		t.Fatalf("%v: %q: %v", opts, out, err)
	}
	return c1, c2, processors
}

// TestTieredC1ThreadsMatchTheJVM checks --jit c1's compiler threads
// against the C1 threads the JVM's own tiered policy starts, on machines
// of 1 to 64 processors (-XX:ActiveProcessorCount), and the processors
// weft counts against the JVM's count on this machine.
func TestTieredC1ThreadsMatchTheJVM(t *testing.T) {
	app := jvmtest.Compile(t, map[string]string{"CompilerThreads.java": compilerThreadsSrc})
	for _, cpus := range []int{1, 2, 3, 4, 8, 16, 32, 64} {
		c1, c2, _ := compilerThreads(t, app, fmt.Sprintf("-XX:ActiveProcessorCount=%d", cpus))
		if got := tieredC1Threads(cpus); got != c1 || c2 == 0 {
			t.Errorf("%d processors: tieredC1Threads %d, the JVM started %d C1 and %d C2 threads", cpus, got, c1, c2)
		}
	}
	// More than the JVM counts would give C1 more threads than its own
	// policy; fewer, a parent group's quota the JVM does not read, fewer.
	if _, _, jvm := compilerThreads(t, app); processors() > jvm {
		t.Errorf("weft counts %d processors, the JVM %d", processors(), jvm)
	}
	if _, err := JIT("fast", nil); err == nil || !strings.Contains(err.Error(), `--jit "fast"`) {
		t.Errorf("JIT(fast): %v", err)
	}
}

// TestQuotaCPUs reads control group CPU quotas as processors, rounded up.
func TestQuotaCPUs(t *testing.T) {
	for in, want := range map[string]int{
		"max 100000\n": 0, "200000 100000\n": 2, "150000 100000": 2, "50000 100000": 1,
		"-1\n 100000\n": 0, "100000": 0, "x 100000": 0, "100000 0": 0, "": 0,
	} {
		if got := quotaCPUs(in); got != want {
			t.Errorf("quotaCPUs(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestCgroupCPUs finds the least quota of a process's control groups and
// their parents, in cgroup v2's and v1's layouts, a container's own
// namespace (its group at the mount's root) included.
func TestCgroupCPUs(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cpu.max", "max 100000\n")
	write("kubepods/pod1/cpu.max", "400000 100000\n")
	write("kubepods/pod1/c1/cpu.max", "max 100000\n")
	write("cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "150000\n")
	write("cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n")
	for _, c := range []struct {
		procCgroup string
		want       int
	}{
		{"0::/kubepods/pod1/c1\n", 4}, // the parent's quota
		{"0::/\n", 0},                 // the root: none
		{"4:memory:/x\n3:cpu,cpuacct:/docker/abc\n0::/\n", 2},
		{"3:cpu,cpuacct:/elsewhere\n", 0},
		{"garbage\n", 0},
	} {
		if got := cgroupCPUs(root, []byte(c.procCgroup)); got != c.want {
			t.Errorf("cgroupCPUs(%q) = %d, want %d", c.procCgroup, got, c.want)
		}
	}
}

// TestJITOptionsYieldToTheCommand: a -XX flag of the policy's that the
// command or JAVA_TOOL_OPTIONS sets is left to them (the command's own
// would win anyway; the variable's would not); CompileCommand adds, and
// stays; a flag whose name only begins like one of ours does not count.
func TestJITOptionsYieldToTheCommand(t *testing.T) {
	count := "-XX:CICompilerCount=" + strconv.Itoa(tieredC1Threads(processors()))
	for _, c := range []struct {
		toolOptions string
		args        []string
		want, not   []string
	}{
		{"", []string{"-version"}, []string{"-XX:TieredStopAtLevel=1", count, "-XX:CompileCommand=quiet"}, nil},
		{"", []string{"-XX:CICompilerCount=3", "-version"}, []string{"-XX:TieredStopAtLevel=1", "-XX:CompileCommand=quiet"}, []string{count}},
		{"-XX:TieredStopAtLevel=4", []string{"-version"}, []string{count}, []string{"-XX:TieredStopAtLevel=1"}},
		{"", []string{"-XX:-CICompilerCountPerCPU", "-version"}, []string{count}, nil},
	} {
		t.Setenv("JAVA_TOOL_OPTIONS", c.toolOptions)
		line, err := javacmd.ParseJava(jvmtest.Java(t), c.args, os.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		opts, err := JIT("c1", line)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range c.want {
			if !slices.Contains(opts, o) {
				t.Errorf("JAVA_TOOL_OPTIONS=%q %v: %v lacks %s", c.toolOptions, c.args, opts, o)
			}
		}
		for _, o := range c.not {
			if slices.Contains(opts, o) {
				t.Errorf("JAVA_TOOL_OPTIONS=%q %v: %v has %s", c.toolOptions, c.args, opts, o)
			}
		}
	}
}
