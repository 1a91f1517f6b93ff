package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/internal/archive"
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
	classes, err := t.build(home, rtCache())
	if err != nil {
		return "", "", fmt.Errorf("building the %s advice: %v", t.name, err)
	}
	key := rtjava.SourcesHash(t.sources, t.aspect, weftDigest())
	aspect = filepath.Join(rtCache(), t.name+"-"+key+".weft")
	adv = filepath.Join(rtCache(), t.name+"-"+key+"-advice")
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
// and env added to the program's environment; advice that matches nothing
// is not warned of. modules are the JDK modules the tool's --modules chose.
func runTool(cmd *cobra.Command, args []string, aspect, adv string, aspects []string, adviceCP, modules string,
	env []string) (int, error) {
	runFlags.aspects = append([]string{aspect}, aspects...)
	runFlags.adviceCP, runFlags.xlint = joinClassPath(adv, adviceCP), "ignore"
	runFlags.modules = modules
	return runWoven(cmd, args, env)
}

// addWovenRunFlags adds to a tool's command the options of weft run it
// shares; all but --modules set runFlags. --modules sets *modules, whose
// default is the tool's own: runTool copies it into runFlags (a default
// given to runFlags.modules here would be overwritten by the next
// command's registration). what names the tool's work in the help.
func addWovenRunFlags(f *pflag.FlagSet, modules *string, defaultModules, what string) {
	f.StringVar(&runFlags.javaHome, "java-home", "", "the JDK (default: the one of the java command)")
	f.StringVar(modules, "modules", defaultModules, `JDK modules to weave: "all" or a comma-separated list`)
	f.BoolVarP(&runFlags.verbose, "verbose", "v", false, "say what is woven and what comes from the cache")
	f.BoolVar(&runFlags.loadTime, "load-time", true, what+" the classes the JVM defines at run time too (docs/ltw.md)")
	f.BoolVar(&runFlags.patches, "patches", false, "run the stock JDK with --patch-module patches, not a woven runtime image")
	addAppCDSFlag(f)
	addCacheMaxFlag(f, &runFlags.cacheMax)
	f.SetInterspersed(false)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
