package jvmopts

import (
	"fmt"
	"math/bits"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/weaver"
)

// jitPolicies are the JIT options of the tools' --jit, given before the
// program's own (an option the program gives again wins). The woven JDK
// has much more code to compile, and C2 compiling it is the largest cost
// of a short run (docs/profile.md, "The JIT policy"): "c1", the default,
// stops at C1 (javac compiling 120 files, calls and allocations: 15.7
// against 30.8 CPU-s; the same in one JVM 12 times: 123 against 148; the
// time calibration measures C1's code then), "delayed" raises C2's
// thresholds tenfold, so that C2 compiles only what stays hot. With c1,
// C1 does not inline the sister classes' advice helpers (a0, a1, ...) into
// the woven methods either: it inlines every method under 35 bytes, and a
// helper is that small, so every return of every woven method and its
// handler got a copy of the exit helper, with the tool's call and the
// bypass flag's stores; not inlined, C1 compiles half the bytecode and
// javac's profile (--no-time) costs 8-10 % less CPU (docs/profile.md).
// "quiet" keeps the JVM from printing the command on the program's output.
// c1's compiler threads are added by JIT.
var jitPolicies = map[string][]string{
	"delayed": {"-XX:Tier4InvocationThreshold=50000", "-XX:Tier4MinInvocationThreshold=6000",
		"-XX:Tier4CompileThreshold=150000", "-XX:Tier4BackEdgeThreshold=400000"},
	"c1": {"-XX:TieredStopAtLevel=1", "-XX:CompileCommand=quiet",
		"-XX:CompileCommand=dontinline,*" + weaver.SisterSuffix + "::a*"},
	"stock": nil,
}

// CheckJIT reports whether name is a JIT policy (--jit), before anything
// is woven.
func CheckJIT(name string) error {
	if _, ok := jitPolicies[name]; !ok {
		return fmt.Errorf("--jit %q: want c1, delayed or stock", name)
	}
	return nil
}

// JIT returns the JVM options of JIT policy name (--jit) for the
// command line, less those the command or the JVM's option variables set
// themselves (withoutChosen). With C1 only, the JVM gives C1 every
// compiler thread, the ones its tiered policy gives C2 too: two on a
// machine of up to three processors, where the program's own thread then
// shares the processors with both whenever they compile at once. c1 gives C1 the threads the JVM's tiered policy gives
// it, one up to fifteen processors (counted as the JVM counts them):
// javac under weft profile --no-time on two processors, 8 rounds
// alternated with the JVM's two threads, ×0.89 of their wall time and
// ×0.91 of their CPU time (docs/profile.md).
func JIT(name string, line *javacmd.Line) ([]string, error) {
	if err := CheckJIT(name); err != nil {
		return nil, err
	}
	opts := jitPolicies[name]
	if name == "c1" {
		threads := tieredC1Threads(processors())
		opts = append(append([]string(nil), opts...), "-XX:CICompilerCount="+strconv.Itoa(threads))
	}
	return withoutChosen(line, opts), nil
}

// xxFlag matches a -XX option, its flag's name the submatch.
var xxFlag = regexp.MustCompile(`^-XX:[+-]?([A-Za-z0-9_]+)`)

// withoutChosen returns opts less the -XX options whose flag the command
// or the JVM's option variables set: on the command line ours come before
// the program's, whose own then win, but JAVA_TOOL_OPTIONS and
// JDK_JAVA_OPTIONS come before ours. CompileCommand adds to what is set
// rather than replacing it, and is kept.
func withoutChosen(line *javacmd.Line, opts []string) []string {
	var out []string
	for _, o := range opts {
		m := xxFlag.FindStringSubmatch(o)
		if m != nil && m[1] != "CompileCommand" && commandChooses(line, regexp.MustCompile(`^-XX:[+-]?`+m[1]+`\b`)) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// tieredC1Threads is the number of C1 threads HotSpot's tiered policy
// starts on a machine of cpus processors (CompilationPolicy::initialize,
// CICompilerCountPerCPU): of log2(n)·log2(log2(n))·3/2 compiler threads,
// at least two, a third are C1's, at least one.
func tieredC1Threads(cpus int) int {
	log := bits.Len(uint(max(cpus, 1))) - 1
	loglog := bits.Len(uint(max(log, 1))) - 1
	return max(max(log*loglog*3/2, 2)/3, 1)
}

// processors returns the number of processors the JVM sizes its compiler
// threads by: those this process may run on, or its control groups' CPU
// quota if lower, as HotSpot's container support counts (see cgroupCPUs).
func processors() int {
	n := runtime.NumCPU()
	procCgroup, _ := os.ReadFile("/proc/self/cgroup")
	if q := cgroupCPUs("/sys/fs/cgroup", procCgroup); q > 0 && q < n {
		n = q
	}
	return n
}

// cgroupCPUs returns the least CPU quota, in processors, of the control
// groups procCgroup (/proc/self/cgroup's text) names and their parents,
// under root (where the hierarchies are mounted): cgroup v2's cpu.max,
// v1's cpu.cfs_quota_us over cpu.cfs_period_us. 0 if none has a quota.
// A group is looked for both at its path and at the mount's root, which
// is the group itself in a container with its own cgroup namespace.
func cgroupCPUs(root string, procCgroup []byte) int {
	least := 0
	take := func(n int) {
		if n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	for _, line := range strings.Split(string(procCgroup), "\n") {
		// hierarchy-ID:controllers:path; v2's controllers are empty.
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || !strings.HasPrefix(f[2], "/") {
			continue
		}
		v2 := f[1] == ""
		if !v2 && !slices.Contains(strings.Split(f[1], ","), "cpu") {
			continue
		}
		mounts := []string{root}
		if !v2 {
			mounts = []string{filepath.Join(root, "cpu"), filepath.Join(root, "cpu,cpuacct"), filepath.Join(root, "cpuacct,cpu")}
		}
		for _, mnt := range mounts {
			for dir := f[2]; ; dir = path.Dir(dir) {
				if v2 {
					if b, err := os.ReadFile(filepath.Join(mnt, dir, "cpu.max")); err == nil {
						take(quotaCPUs(string(b)))
					}
				} else {
					quota, err1 := os.ReadFile(filepath.Join(mnt, dir, "cpu.cfs_quota_us"))
					period, err2 := os.ReadFile(filepath.Join(mnt, dir, "cpu.cfs_period_us"))
					if err1 == nil && err2 == nil {
						take(quotaCPUs(string(quota) + " " + string(period)))
					}
				}
				if dir == "/" {
					break
				}
			}
		}
	}
	return least
}

// quotaCPUs reads "QUOTA PERIOD" (microseconds; cpu.max's form) as
// processors, rounded up: 0 for no quota ("max", -1) or text it cannot read.
func quotaCPUs(s string) int {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0
	}
	quota, err1 := strconv.ParseInt(f[0], 10, 64)
	period, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || quota <= 0 || period <= 0 {
		return 0
	}
	return int((quota + period - 1) / period)
}
