package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/launch/jvmopts"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// A tool is one of the examples weft builds from its embedded sources and
// runs as a command of its own (profile, leak, recrash): an aspect and the Java
// advice it calls.
type tool struct {
	name    string
	aspect  []byte
	sources map[string][]byte
	// build compiles the advice (javaHome, cache directory).
	build func(string, string) (map[string][]byte, error)
	// finish, if set, makes the advice directory out of the compiled one
	// (javaHome, aspect file, in, out); otherwise it is the compiled one.
	finish func(home, aspect, in, out string) error
}

// install writes the tool's aspect and compiled advice into the cache,
// both named by their content (and weft's: finish may weave), and returns
// their paths.
func (t tool) install(home string) (aspect, adv string, err error) {
	classes, err := t.build(home, launch.RuntimeDir())
	if err != nil {
		return "", "", fmt.Errorf("building the %s advice: %v", t.name, err)
	}
	key := rtjava.SourcesHash(t.sources, t.aspect, weftDigest())
	aspect = filepath.Join(launch.RuntimeDir(), t.name+"-"+key+".weft")
	adv = filepath.Join(launch.RuntimeDir(), t.name+"-"+key+"-advice")
	if !fileExists(aspect) {
		if err := os.WriteFile(aspect, t.aspect, 0o644); err != nil {
			return "", "", err
		}
	}
	if fileExists(adv) {
		return aspect, adv, nil
	}
	tmp := adv + ".tmp" + strconv.Itoa(os.Getpid())
	defer os.RemoveAll(tmp)
	if err := archive.WriteClasses(tmp, archive.Dir, classes); err != nil {
		return "", "", err
	}
	if t.finish != nil {
		return aspect, adv, t.finish(home, aspect, tmp, adv)
	}
	if err := os.Rename(tmp, adv); err != nil && !fileExists(adv) { // another weft may have made it first
		return "", "", err
	}
	return aspect, adv, nil
}

// runTool runs the command in args as weft run does, with the tool's
// aspect and advice woven, then the user's aspects and advice class path,
// as the tool's options wo say, with extra's JVM options and environment
// and the tools' memory options (jvmopts.ToolMemory); advice that matches nothing is
// not warned of.
func runTool(cmd *cobra.Command, args []string, wo wovenRunOptions, aspect, adv string, aspects []string, adviceCP string,
	extra wovenRunExtras) (int, error) {
	opts := &runOptions{
		wovenRunOptions: wo,
		loadTimeOptions: loadTimeOptions{timeout: defaultLTWTimeout},
		aspects:         append([]string{aspect}, aspects...),
		adviceCP:        joinClassPath(adv, adviceCP),
		xlint:           "ignore",
	}
	extra.toolMemory = true
	heap, err := jvmopts.ParseSize(wo.toolHeap)
	if err != nil {
		return 0, fmt.Errorf("--tool-heap: %v", err)
	}
	extra.toolHeap = heap
	return runWoven(cmd, opts, args, extra)
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
