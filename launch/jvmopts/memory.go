package jvmopts

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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

// ToolMemory returns the options a tool's JVM starts with unless the
// command or the JVM's option variables choose them: the metadata
// threshold, an initial heap of a sixteenth of the machine's memory, at
// most 1 GB (the JVM's own default maximum is a quarter of it), and
// transparent huge pages where the kernel gives them on request.
func ToolMemory(line *javacmd.Line) []string {
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

// The tools' data (the profiler's calling-context tree, the leak tracker's
// contexts and weak references, recrash's recorded values) lives in the
// program's heap. A command that bounds its heap sized it for the program
// alone (kotlinc's launcher passes -Xmx256M): the tools add their own share
// to that bound, so that the program keeps the heap it asked for.

// setsMaxHeap matches a JVM option that bounds the heap.
var setsMaxHeap = regexp.MustCompile(`^-(Xmx|XX:MaxHeapSize=|XX:MaxRAMPercentage=)`)

// heapBound is the heap bound a command's JVM runs with, where it sets one.
type heapBound struct {
	option string // as given, e.g. -Xmx256M
	bytes  uint64
	// last is set when the bound comes from _JAVA_OPTIONS, which the JVM
	// reads after the command line: nothing weft adds can raise it.
	last bool
}

// commandHeapBound returns the heap bound the command's JVM would run
// with, ok false if it sets none (the JVM's default, a quarter of memory):
// the last of JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, the command's options
// and _JAVA_OPTIONS, in the order the JVM reads them.
func commandHeapBound(line *javacmd.Line) (b heapBound, ok bool) {
	sources := [][]string{strings.Fields(os.Getenv("JAVA_TOOL_OPTIONS")), strings.Fields(os.Getenv("JDK_JAVA_OPTIONS")),
		line.JVMOptions(), strings.Fields(os.Getenv("_JAVA_OPTIONS"))}
	for i, opts := range sources {
		for _, o := range opts {
			if !setsMaxHeap.MatchString(o) {
				continue
			}
			if n, err := heapOptionBytes(o); err == nil {
				b, ok = heapBound{option: o, bytes: n, last: i == len(sources)-1}, true
			}
		}
	}
	return b, ok
}

// heapOptionBytes returns the bytes a heap-bounding option sets.
func heapOptionBytes(o string) (uint64, error) {
	if p, ok := strings.CutPrefix(o, "-XX:MaxRAMPercentage="); ok {
		pct, err := strconv.ParseFloat(p, 64)
		ram := physicalMemory()
		if err != nil || pct <= 0 || ram == 0 {
			return 0, fmt.Errorf("%s: not a percentage of known memory", o)
		}
		return uint64(float64(ram) * pct / 100), nil
	}
	v := strings.TrimPrefix(strings.TrimPrefix(o, "-Xmx"), "-XX:MaxHeapSize=")
	return ParseSize(v)
}

// ParseSize reads a size as the JVM's options give it: a number of
// bytes, or of k, m, g or t (either case).
func ParseSize(s string) (uint64, error) {
	shift := 0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			shift = 10
		case 'm', 'M':
			shift = 20
		case 'g', 'G':
			shift = 30
		case 't', 'T':
			shift = 40
		}
	}
	digits := s
	if shift > 0 {
		digits = s[:len(s)-1]
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n > (1<<63)>>shift {
		return 0, fmt.Errorf("%q is not a size (a number, then k, m, g or t)", s)
	}
	return n << shift, nil
}

// HeapBoundSaid names the heap bound the command's JVM runs with.
func HeapBoundSaid(line *javacmd.Line) string {
	if b, ok := commandHeapBound(line); ok {
		return "it runs with " + b.option
	}
	return "it sets none: the JVM's default is a quarter of memory"
}

// OutOfMemory is what a JVM writes to its standard error when an
// OutOfMemoryError escapes a thread: the symptom weft's tools look for to
// say why their data is missing. (The JVM's -XX:OnOutOfMemoryError would
// tell weft of a caught one too, but announces itself on standard output,
// which is the program's.)
const OutOfMemory = "java.lang.OutOfMemoryError"

// OOMWatch passes a JVM's standard error through and notes whether
// OutOfMemory went by, across writes.
type OOMWatch struct {
	w    io.Writer
	tail []byte // the last bytes seen, shorter than OutOfMemory
	seen bool
}

func (o *OOMWatch) Write(p []byte) (int, error) {
	if !o.seen {
		buf := append(o.tail, p...)
		o.seen = bytes.Contains(buf, []byte(OutOfMemory))
		o.tail = append(o.tail[:0], buf[max(0, len(buf)-len(OutOfMemory)+1):]...)
	}
	return o.w.Write(p)
}

// ToolHeap returns the options to put after the command's own for
// a tool that needs add bytes of heap: the command's bound raised by add,
// or nothing if the command sets no bound; note says what was done, or
// why nothing could be.
func ToolHeap(line *javacmd.Line, add uint64) (after []string, note string) {
	b, ok := commandHeapBound(line)
	switch {
	case !ok || add == 0:
		return nil, ""
	case b.last:
		return nil, fmt.Sprintf("_JAVA_OPTIONS bounds the heap (%s), which weft cannot raise for the tool's data: the program has less heap than it asked for", b.option)
	}
	mb := (b.bytes + add + 1<<20 - 1) >> 20
	after = []string{fmt.Sprintf("-Xmx%dm", mb)}
	note = fmt.Sprintf("the program's heap bound %s raised to -Xmx%dm for the tool's data (--tool-heap)", b.option, mb)
	if !commandChooses(line, setsYoung) {
		// The young generation keeps the size it has under the command's
		// bound (a third of it, the collectors' NewRatio of 2): the tools'
		// data is long-lived, and the program's collections come as often
		// as on the stock JDK (weft leak samples after each).
		young := max(b.bytes/3>>10, 1024)
		after = append(after, fmt.Sprintf("-XX:MaxNewSize=%dk", young))
		note += fmt.Sprintf(", its young generation kept at most a third of the bound (-XX:MaxNewSize=%dk)", young)
	}
	return after, note
}

// setsYoung matches a JVM option that sizes the young generation.
var setsYoung = regexp.MustCompile(`^-(Xmn|XX:(Max)?NewSize=|XX:NewRatio=)`)

// NewOOMWatch returns an OOMWatch passing what it is written on to w.
func NewOOMWatch(w io.Writer) *OOMWatch { return &OOMWatch{w: w} }

// Seen reports whether an OutOfMemoryError went by.
func (o *OOMWatch) Seen() bool { return o.seen }
