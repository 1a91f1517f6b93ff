package main

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/internal/archive"
)

// A tool is an aspect of examples/ that a command of its own builds,
// weaves and runs (weft profile, weft leak): these are the steps they
// share.

// addToolRunFlags adds the flags of weft run that a tool's command keeps
// (the JDK, the modules woven, -v, load-time weaving); what names the
// tool's work in the help ("profile", "track").
func addToolRunFlags(f *pflag.FlagSet, what string) {
	f.StringVar(&runFlags.javaHome, "java-home", "", "the JDK (default: the one of the java command)")
	f.StringVar(&runFlags.modules, "modules", "all", `JDK modules to weave: "all" or a comma-separated list`)
	f.BoolVarP(&runFlags.verbose, "verbose", "v", false, "say what is woven and what comes from the cache")
	f.BoolVar(&runFlags.loadTime, "load-time", true, what+" the classes the JVM defines at run time too (docs/ltw.md)")
	f.BoolVar(&runFlags.patches, "patches", false, "run the stock JDK with --patch-module patches, not a woven runtime image")
	f.SetInterspersed(false)
}

// installTool writes a tool's aspect and compiled advice into the cache,
// both named by name and key, unless there already, and returns their
// paths. finish, if not nil, makes the advice directory out of the one the
// classes were written to, given the aspect's path (profile weaves its calibration class there);
// else that directory is the advice directory.
func installTool(name, key string, aspectText []byte, classes map[string][]byte, finish func(aspect, in, out string) error) (aspect, adv string, err error) {
	aspect = filepath.Join(cacheRoot(), name+"-"+key+".weft")
	adv = filepath.Join(cacheRoot(), name+"-"+key+"-advice")
	if !fileExists(aspect) {
		if err := os.WriteFile(aspect, aspectText, 0o644); err != nil {
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
	if finish != nil {
		return aspect, adv, finish(aspect, tmp, adv)
	}
	if err := os.Rename(tmp, adv); err != nil && !fileExists(adv) { // else another weft made it first
		return "", "", err
	}
	return aspect, adv, nil
}

// runTool runs the command in args as weft run does, with aspects woven
// (the tool's first), adviceCP their advice and env added to the
// program's environment; advice that matches nothing is not warned of.
func runTool(cmd *cobra.Command, args, aspects []string, adviceCP string, env []string) (int, error) {
	runFlags.aspects = aspects
	runFlags.adviceCP, runFlags.xlint = adviceCP, "ignore"
	return runWoven(cmd, args, env)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
