package main

import (
	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// jdkOptions are weft jdk's flags.
type jdkOptions struct {
	aspects  []string
	adviceCP string
	javaHome string
	modules  string
	out      string
	image    string
	quiet    bool
	dirs     bool
	xlint    lintLevel
	scope    launch.ScopeOptions
}

func newJDKCmd() *cobra.Command {
	opts := &jdkOptions{}
	cmd := &cobra.Command{
		Use:   "jdk -a ASPECT... --advice-cp CP [--java-home H] [--modules all|M,...] [--Xlint ignore] (-o DIR | --image IMG)",
		Short: "Weave the JDK's own modules (java.base included) into a runtime image or patches for java",
		Long: `jdk weaves the classes of the JDK's modules, read from its modules image,
on all cores, and writes what the JVM needs to run them in place of the
originals:

  DIR/patch/<module>.jar  woven classes and their sister classes (with
                          --patch-dirs: a class tree DIR/patch/<module>/); java.base
                          also gets weft's JDK-mode runtime (package weft.rt),
                          a java.lang.Thread with the per-thread bypass field
                          and a java.lang.System that ends bootstrap
  DIR/weft.args           options for java @DIR/weft.args: --patch-module per
                          module, the advice on -Xbootclasspath/a, the
                          --add-reads/--add-exports the woven code needs
  DIR/weft.jargs          the same options for the JDK's other launchers
                          (javac, jar, jshell...), one -J option a line:
                          javac $(cat DIR/weft.jargs) ...
  DIR/summary.json        classes and methods woven per module, classes left
                          unwoven and why, advised intrinsic methods

Each "declare warning" and "declare error" of the aspects is reported at
every join point of the JDK its pointcut selects; a declare error fails the
command before anything is written.

The advice classes must be on --advice-cp: the woven JDK calls them from
the boot class path. Advice that advised no join point of the modules
woven is warned of as ajc does ("advice defined in A has not been applied
[Xlint:adviceDidNotMatch]"); --Xlint ignore silences it.

Woven code runs the original bodies until System.initPhase3 returns (the
bootstrap flag) and inside advice (the per-thread flag, inherited by threads
the advice starts), so advice may use the whole class library.

Methods annotated @IntrinsicCandidate may be replaced by the VM with
intrinsics that skip their woven body: jdk lists those it advised, since
counts there can be partial. Empty finalize() methods are never woven
(docs/jdk.md lists the exclusions and why).

Patching the JDK disables class data sharing: start-up is slower. With
--image IMG, jdk links a complete runtime image instead (with jlink, from
the JDK's jmods/ or, for a JDK without them such as JDK 25, from jmods
rebuilt from its image): IMG/bin/java and the image's other launchers run the
woven JDK with no options, read every class from one modules image and
map a class data sharing archive made for it. The advice classes are
copied into IMG/lib/weft/advice.jar, the summary to
IMG/lib/weft/summary.json; with -o too, the patches are kept there.

Examples:

  # count every method execution of the JDK
  weft jdk -a count.weft --advice-cp build/advice -o /tmp/wjdk
  java @/tmp/wjdk/weft.args -cp app.jar Main
  javac $(cat /tmp/wjdk/weft.jargs) -d out Hello.java

  # a woven runtime image
  weft jdk -a count.weft --advice-cp build/advice --image /tmp/wimg
  /tmp/wimg/bin/java -cp app.jar Main
  /tmp/wimg/bin/javac -d out Hello.java

  # only java.base, with a given JDK
  weft jdk -a alloc.weft --advice-cp adv.jar --modules java.base \
      --java-home /usr/lib/jvm/java-17-openjdk-amd64 -o /tmp/wbase`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := launch.Options{Aspects: opts.aspects, AdviceCP: opts.adviceCP, JavaHome: opts.javaHome, Modules: opts.modules,
				Scope: opts.scope, IgnoreUnmatched: opts.xlint.ignore(), Out: opts.out, Image: opts.image, PatchDirs: opts.dirs,
				Quiet: opts.quiet}
			return launch.BuildJDK(withStreams(cmd, o))
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK to weave")
	f.StringVar(&opts.modules, "modules", "all", `modules to weave: "all" or a comma-separated list of names or globs (java.*, !jdk.jfr)`)
	addScopeFlags(f, &opts.scope)
	f.StringVarP(&opts.out, "out", "o", "", "output directory (patches and @argfile)")
	f.StringVar(&opts.image, "image", "", "link a woven runtime image into this new directory")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar nor summary")
	f.BoolVar(&opts.dirs, "patch-dirs", false, "write DIR/patch/<module>/ class trees instead of DIR/patch/<module>.jar")
	addLintFlag(f, &opts.xlint)
	cmd.MarkFlagRequired("aspect")
	return cmd
}
