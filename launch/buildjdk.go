package launch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/weft-aop/weft/weaver/jdk"
)

// BuildJDK weaves the JDK's modules for o's aspects, as weft jdk does:
// the patches and their options into o.Out, and with o.Image a runtime
// image linked from them into that new directory. It reports what it
// wove, declare warnings and errors (an error stops it before anything is
// written) and the advice that advised nothing.
func BuildJDK(o Options) error {
	if o.Out == "" && o.Image == "" {
		return fmt.Errorf("jdk: -o DIR or --image IMG is required")
	}
	home, err := JavaHome(o.JavaHome)
	if err != nil {
		return err
	}
	if ents, err := os.ReadDir(o.Image); o.Image != "" && err == nil && len(ents) > 0 {
		return fmt.Errorf("jdk: --image %s: not empty: the image directory must be new", o.Image)
	}
	out := o.Out
	if out == "" { // the patches are the image's input only
		if out, err = os.MkdirTemp("", "weft-jdk-"); err != nil {
			return err
		}
		defer os.RemoveAll(out)
	}
	w, err := openWeaving(&o, OpenJDK(home), nil)
	if err != nil {
		return err
	}
	defer w.close()
	job := JDKJob{Matcher: w.matcher, Advice: w.advice, AdviceCP: o.AdviceCP, JDK: w.jdk,
		Modules: w.modules, Scope: w.scope, Out: out, Dirs: o.PatchDirs, Diag: o.Stderr}
	if p := o.Progress; p != nil && !o.Quiet {
		job.Progress = p.Update
	}
	sum, applied, err := WeaveJDK(job)
	if o.Progress != nil {
		o.Progress.Done()
	}
	if err != nil {
		return err
	}
	if o.Image != "" {
		var log io.Writer
		if !o.Quiet {
			log = o.Stderr
		}
		lo := jdk.LinkOptions{JavaHome: home, Woven: out, Out: o.Image, BootAppend: classPathEntries(o.AdviceCP)}
		if err := LinkImage(log, lo); err != nil {
			return err
		}
	}
	if !o.Quiet {
		printJDKSummary(o.Stderr, o.Out, o.Image, sum)
	}
	w.lint(applied)
	return nil
}

// printJDKSummary tells what was woven, what not, and where counts can be
// partial.
func printJDKSummary(w io.Writer, dir, image string, sum *jdk.Summary) {
	classes, woven, methods := sum.Totals()
	fmt.Fprintf(w, "weft: wove %d of %d classes (%d methods) in %d module%s in %.1fs\n",
		woven, classes, methods, len(sum.Modules), plural(len(sum.Modules)), sum.Seconds)
	if n := len(sum.Warnings); n > 0 {
		fmt.Fprintf(w, "weft: %d warnings (methods left unwoven, e.g. over 64 KB once woven; declared parents the JDK's classes cannot take): see \"warnings\" in %s\n",
			n, summaryPath(dir, image))
	}
	for _, u := range sum.Unwoven {
		fmt.Fprintf(w, "weft: warning: %s: %s left unwoven: %s\n", u.Module, u.Class, u.Reason)
	}
	if n := len(sum.Intrinsics); n > 0 {
		fmt.Fprintf(w, "weft: %d advised methods are intrinsic candidates: the VM may skip their woven body, so advice there can miss calls:\n", n)
		for _, m := range sum.Intrinsics {
			fmt.Fprintf(w, "  %s\n", m)
		}
	}
	if image != "" {
		fmt.Fprintf(w, "weft: run with: %s ...   (other launchers: %s ...)\n",
			filepath.Join(image, "bin", "java"), filepath.Join(image, "bin", "javac"))
	}
	if dir != "" {
		fmt.Fprintf(w, "weft: run with: java @%s ...   (other launchers: javac $(cat %s) ...)\n",
			filepath.Join(dir, "weft.args"), filepath.Join(dir, "weft.jargs"))
	}
}

// summaryPath is where weft jdk wrote the summary: in the output
// directory, else in the image.
func summaryPath(dir, image string) string {
	if dir == "" {
		return filepath.Join(image, imageSummary)
	}
	return filepath.Join(dir, "summary.json")
}
