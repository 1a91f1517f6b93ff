package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/weft-aop/weft/weaver/jdk"
)

// imageSummary is where a woven runtime image keeps the summary of the
// weaving it holds.
const imageSummary = "lib/weft/summary.json"

// buildImage links the runtime image dir from the JDK at home and the
// weaving in woven (a weft jdk output directory), with the advice class
// path adviceCP on its boot class path, and copies the weaving's summary
// into it.
func buildImage(log io.Writer, home, woven, dir, adviceCP string, progress bool) error {
	start := time.Now()
	var boot []string
	for _, p := range filepath.SplitList(adviceCP) {
		if p != "" {
			boot = append(boot, p)
		}
	}
	if progress {
		fmt.Fprintf(log, "weft: linking the runtime image %s\n", dir)
	}
	if err := jdk.LinkImage(jdk.LinkOptions{JavaHome: home, Woven: woven, Out: dir, BootAppend: boot}); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(woven, "summary.json"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, imageSummary), sum, 0o644); err != nil {
		return err
	}
	if progress {
		fmt.Fprintf(log, "weft: linked %s in %.1fs\n", dir, time.Since(start).Seconds())
	}
	return nil
}

// imageArgs returns the arguments of a launcher of the image: the image
// holds the woven JDK's options, so only extra JVM options are added (as
// -J options for launchers other than java, and -R options too for
// jshell's snippet JVM), and java's class path is the woven one.
func imageArgs(name string, tool bool, extra, args []string) []string {
	if !tool {
		return append(append([]string(nil), extra...), args...)
	}
	var out []string
	for _, x := range extra {
		out = append(out, "-J"+x)
	}
	if name == "jshell" {
		for _, x := range extra {
			out = append(out, "-R"+x)
		}
	}
	return append(out, args...)
}
