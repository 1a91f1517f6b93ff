package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/internal/javacmd"
)

// The tools' memory options. A tool's own data lives in the program's heap
// (the profiler's calling-context tree is about 125 MB for javac compiling
// 120 files) and its woven JDK loads more class metadata than the stock
// one (sister classes). Started with the heap the command asks for (javac's
// launcher asks for 8 MB), the JVM grows it through full collections as
// the tool's data grows, and collects again when the metadata passes its
// first threshold (21 MB): javac compiling 120 files under weft profile
// made 10 full collections and 152 young ones, 6.3 s of pauses on a busy
// machine, against one young collection with these options.

// metaspaceOption raises the metadata size that first triggers a
// collection; it is a threshold, not a reservation.
const metaspaceOption = "-XX:MetaspaceSize=256m"

// setsHeap matches a JVM option that sizes the heap.
var setsHeap = regexp.MustCompile(`^-(Xm[sxn]|XX:(Initial|Max|Min)HeapSize=|XX:(Initial|Max|Min)RAMPercentage=|XX:(Max)?NewSize=)`)

// setsMetaspace matches a JVM option that sets the metadata threshold.
var setsMetaspace = regexp.MustCompile(`^-XX:MetaspaceSize=`)

// thpOption backs the heap with the kernel's transparent huge pages where
// the kernel gives them only to memory that asks (madvise mode, the
// default of many distributions): the tools' data is a tree of a million
// small objects walked at every call, and javac under weft profile
// --no-time took 4-9 % less time with it (docs/profile.md).
const thpOption = "-XX:+UseTransparentHugePages"

// setsPages matches a JVM option that chooses the heap's pages.
var setsPages = regexp.MustCompile(`^-XX:[+-]Use(TransparentHugePages|LargePages)`)

// thpFile shows the kernel's transparent huge page mode, the one chosen in
// brackets: "always [madvise] never".
const thpFile = "/sys/kernel/mm/transparent_hugepage/enabled"

// toolMemoryOptions returns the options a tool's JVM starts with unless the
// command or the JVM's option variables choose them: the metadata
// threshold, an initial heap of a sixteenth of the machine's memory, at
// most 1 GB (the JVM's own default maximum is a quarter of it), and
// transparent huge pages where the kernel gives them on request.
func toolMemoryOptions(line *javacmd.Line) []string {
	var out []string
	if !commandChooses(line, setsMetaspace) {
		out = append(out, metaspaceOption)
	}
	if thpOnRequest() && !commandChooses(line, setsPages) {
		out = append(out, thpOption)
	}
	if ram := physicalMemory(); ram > 0 && !commandChooses(line, setsHeap) {
		mb := min(ram/16>>20, 1024)
		if mb >= 64 {
			out = append(out, fmt.Sprintf("-Xms%dm", mb))
		}
	}
	return out
}

// commandChooses reports whether the command's JVM options (not its
// program's arguments), or the JVM's option variables, hold an option
// that option matches.
func commandChooses(line *javacmd.Line, option *regexp.Regexp) bool {
	for _, v := range []string{"JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"} {
		for _, a := range strings.Fields(os.Getenv(v)) {
			if option.MatchString(a) {
				return true
			}
		}
	}
	for _, a := range line.JVMOptions() {
		if option.MatchString(a) {
			return true
		}
	}
	return false
}

// thpOnRequest reports whether the kernel gives transparent huge pages to
// memory that asks for them, and only to that (with "always" every heap
// has them already; with "never" the JVM would warn).
func thpOnRequest() bool {
	b, err := os.ReadFile(thpFile)
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

// physicalMemory returns the memory the JVM sizes its heap by, in bytes:
// the machine's (/proc/meminfo), or the control group's limit if lower;
// 0 where neither can be read.
func physicalMemory() uint64 {
	ram := meminfoTotal()
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if limit, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64); err == nil && limit > 0 && (ram == 0 || limit < ram) {
			ram = limit
		}
	}
	return ram
}

// meminfoTotal returns MemTotal of /proc/meminfo in bytes, 0 if unreadable.
func meminfoTotal() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
