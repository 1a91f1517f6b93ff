package jvmopts

import (
	"os"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/javacmd"
)

// TestCollectorOptions: the profiler chooses the JVM's collector only when
// the command does not: two collectors and the JVM does not start.
func TestCollectorOptions(t *testing.T) {
	t.Setenv("JDK_JAVA_OPTIONS", "")
	t.Setenv("JAVA_TOOL_OPTIONS", "")
	t.Setenv("_JAVA_OPTIONS", "")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"java", "-cp", "app", "Main"}, 1},
		{[]string{"java", "-XX:+UseG1GC", "Main"}, 0},
		{[]string{"javac", "-J-XX:+UseSerialGC", "A.java"}, 0},
		{[]string{"java", "-XX:-UseParallelGC", "Main"}, 0},
		{[]string{"java", "-XX:+UseGCOverheadLimit", "Main"}, 1}, // not a collector
		{[]string{"java", "-XX:+UseStringDeduplication", "Main"}, 1},
		{[]string{"java", "Main", "-XX:+UseG1GC"}, 1}, // the program's argument, not the JVM's
	} {
		if got := Collector(parseLine(t, c.args)); len(got) != c.want {
			t.Errorf("%q: %q", c.args, got)
		}
	}
	t.Setenv("JDK_JAVA_OPTIONS", "-Xmx1g -XX:+UseZGC")
	if got := Collector(parseLine(t, []string{"java", "Main"})); got != nil {
		t.Errorf("JDK_JAVA_OPTIONS chooses ZGC: %q", got)
	}
}

// parseLine parses a command line, its command first.
func parseLine(t *testing.T, args []string) *javacmd.Line {
	t.Helper()
	line, err := javacmd.Parse(args[0], args[1:], nil)
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// TestToolMemoryOptions: a tool's JVM starts with the metadata threshold and
// an initial heap unless the command or an option variable sizes them (an
// initial heap over the command's maximum and the JVM does not start), and
// with transparent huge pages if the kernel gives them on request.
func TestToolMemoryOptions(t *testing.T) {
	t.Setenv("JDK_JAVA_OPTIONS", "")
	t.Setenv("JAVA_TOOL_OPTIONS", "")
	t.Setenv("_JAVA_OPTIONS", "")
	has := func(opts []string, prefix string) bool {
		for _, o := range opts {
			if strings.HasPrefix(o, prefix) {
				return true
			}
		}
		return false
	}
	if physicalMemory() == 0 {
		t.Fatal("physicalMemory: 0, /proc/meminfo unreadable")
	}
	for _, c := range []struct {
		args           []string
		heap, metadata bool
	}{
		{[]string{"java", "-cp", "app", "Main"}, true, true},
		{[]string{"javac", "A.java"}, true, true},
		{[]string{"java", "-Xmx300m", "Main"}, false, true},
		{[]string{"javac", "-J-Xms64m", "A.java"}, false, true},
		{[]string{"java", "-XX:MaxRAMPercentage=50", "Main"}, false, true},
		{[]string{"java", "-XX:MetaspaceSize=64m", "Main"}, true, false},
		{[]string{"java", "Main", "-Xmx1g"}, true, true}, // the program's argument
	} {
		got := ToolMemory(parseLine(t, c.args))
		if has(got, "-Xms") != c.heap || has(got, "-XX:MetaspaceSize=") != c.metadata {
			t.Errorf("%q: %q", c.args, got)
		}
	}
	// Huge pages where the kernel gives them on request, unless the
	// command chooses its pages.
	thp := thpOnRequest()
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"java", "Main"}, thp},
		{[]string{"java", "-XX:-UseTransparentHugePages", "Main"}, false},
		{[]string{"javac", "-J-XX:+UseLargePages", "A.java"}, false},
	} {
		if got := ToolMemory(parseLine(t, c.args)); has(got, thpOption) != c.want {
			t.Errorf("%q (kernel mode %q): %q", c.args, thpMode(t), got)
		}
	}
	t.Setenv("JAVA_TOOL_OPTIONS", "-Xmx200m")
	if got := ToolMemory(parseLine(t, []string{"java", "Main"})); has(got, "-Xms") {
		t.Errorf("JAVA_TOOL_OPTIONS sizes the heap: %q", got)
	}
}

// thpMode returns the kernel's transparent huge page modes, the chosen one
// in brackets, or the reason they cannot be read.
func thpMode(t *testing.T) string {
	b, err := os.ReadFile(thpFile)
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(b))
}
