package main

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/launch"
)

// runTool runs the command in args as weft run does, with the tool's
// advice woven first, then the user's aspects and advice class path, as
// the tool's flags wo say; advice that matches nothing is not warned of.
// The tool's JVM options and environment are t's, with the tools' memory
// options (launch.Tool).
func runTool(cmd *cobra.Command, args []string, wo wovenRunOptions, t launch.Tool, aspects []string, adviceCP string) (launch.Result, error) {
	o := wo.options(args)
	o.Aspects, o.AdviceCP = aspects, adviceCP
	t.Heap = wo.toolHeap
	o.Tool = &t
	return runProgram(cmd, o)
}

// jvmsDir is where the advice of a tool writes in a JVM the command
// started (weft.rt.Output): jvms/MAIN-PID/ of the tool's directory.
const jvmsDir = "jvms"

// jvmOutputs returns the directories of dir's jvms/ that hold file, in
// name order.
func jvmOutputs(dir, file string) []string {
	found, _ := filepath.Glob(filepath.Join(dir, jvmsDir, "*", file))
	for i, f := range found {
		found[i] = filepath.Dir(f)
	}
	return found
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// The heap each tool adds to a bound the command sets: the profiler's tree
// grows with the program's contexts (125 MB for javac compiling 120
// files); the leak tracker's tables are a tenth of the heap, and it samples
// after collections, which a larger old generation makes rarer (a Rhino
// script in -Xmx32m: 98 to 358 samples, 8 with a gigabyte more), so it
// adds little; recrash keeps the values of the frames on each stack.
const (
	profileToolHeap = "1g"
	leakToolHeap    = "32m"
	recrashToolHeap = "256m"
)

// addToolHeapFlag adds --tool-heap, with the tool's default, to its flags.
func addToolHeapFlag(f *pflag.FlagSet, toolHeap *string, def string) {
	f.StringVar(toolHeap, "tool-heap", def, "heap added for the tool's data to a bound the command sets (-Xmx, -XX:MaxHeapSize, -XX:MaxRAMPercentage): `SIZE` as the JVM reads it (512m, 2g; 0: none)")
}
