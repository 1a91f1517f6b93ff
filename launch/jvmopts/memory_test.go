package jvmopts

import (
	"slices"
	"strings"
	"testing"
)

// TestParseJVMSize: sizes as the JVM's options spell them.
func TestParseJVMSize(t *testing.T) {
	for s, want := range map[string]uint64{"0": 0, "4096": 4096, "48m": 48 << 20, "256M": 256 << 20, "2g": 2 << 30, "1T": 1 << 40, "64k": 64 << 10} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "m", "1.5g", "-1m", "12q", "99999999999999999999", "17179869184g"} {
		if got, err := ParseSize(s); err == nil {
			t.Errorf("%q: %d, want an error", s, got)
		}
	}
}

// TestToolHeapOptions: a heap bound the command sets, on its command line
// or in the variables the JVM reads before it, is raised by the tool's
// share after the command's options (where it wins); none is added when
// the command sets no bound, and _JAVA_OPTIONS, read after the command
// line, is said to be out of reach.
func TestToolHeapOptions(t *testing.T) {
	for _, v := range []string{"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"} {
		t.Setenv(v, "")
	}
	const add = 1 << 30
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"java", "-cp", "app", "Main"}, nil},
		{[]string{"java", "-Xmx256M", "-Xms32M", "-cp", "app", "Main"}, []string{"-Xmx1280m", "-XX:MaxNewSize=87381k"}},
		{[]string{"java", "-Xmx1g", "-XX:MaxHeapSize=48m", "Main"}, []string{"-Xmx1072m", "-XX:MaxNewSize=16384k"}},
		{[]string{"javac", "-J-Xmx64m", "A.java"}, []string{"-Xmx1088m", "-XX:MaxNewSize=21845k"}},
		{[]string{"java", "-Xmx64m", "-Xmn8m", "Main"}, []string{"-Xmx1088m"}}, // the command sizes the young generation
		{[]string{"java", "Main", "-Xmx64m"}, nil},                             // the program's argument
	} {
		got, note := ToolHeap(parseLine(t, c.args), add)
		if !slices.Equal(got, c.want) || (c.want != nil) != strings.Contains(note, "raised to") {
			t.Errorf("%q: %q (%s), want %q", c.args, got, note, c.want)
		}
	}
	if got, _ := ToolHeap(parseLine(t, []string{"java", "-Xmx64m", "Main"}), 0); got != nil {
		t.Errorf("--tool-heap 0: %q, want nothing added", got)
	}
	t.Setenv("JAVA_TOOL_OPTIONS", "-Xmx100m")
	if got, _ := ToolHeap(parseLine(t, []string{"java", "Main"}), add); !slices.Equal(got, []string{"-Xmx1124m", "-XX:MaxNewSize=34133k"}) {
		t.Errorf("JAVA_TOOL_OPTIONS=-Xmx100m: %q", got)
	}
	t.Setenv("_JAVA_OPTIONS", "-Xmx50m")
	if got, note := ToolHeap(parseLine(t, []string{"java", "-Xmx1g", "Main"}), add); got != nil || !strings.Contains(note, "_JAVA_OPTIONS") {
		t.Errorf("_JAVA_OPTIONS=-Xmx50m: %q (%s), want nothing added and the reason", got, note)
	}
}

// TestOOMWatch: the error's name is seen whole or split across writes,
// and everything passes through unchanged.
func TestOOMWatch(t *testing.T) {
	for _, writes := range [][]string{
		{"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n"},
		{"Exception in thread \"main\" java.lang.OutOfMem", "oryError: Java heap space\n"},
		{"java.", "lang", ".", "OutOfMemoryError"},
	} {
		var out strings.Builder
		w := &OOMWatch{w: &out}
		for _, s := range writes {
			w.Write([]byte(s))
		}
		if !w.seen || out.String() != strings.Join(writes, "") {
			t.Errorf("%q: seen %v, passed %q", writes, w.seen, out.String())
		}
	}
	w := &OOMWatch{w: &strings.Builder{}}
	w.Write([]byte("java.lang.OutOfMemory"))
	w.Write([]byte("Exception: no"))
	if w.seen {
		t.Errorf("seen in %q", "java.lang.OutOfMemoryException")
	}
}
