package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// weaveOptions are weft weave's flags.
type weaveOptions struct {
	aspects    []string
	aspectPath string
	adviceCP   string
	classPath  string
	out        string
	weaveInfo  string // a file, "-" for standard output
	idBase     int32
	javaHome   string
	quiet      bool
	xlint      lintLevel
	scope      launch.ScopeOptions
}

func newWeaveCmd() *cobra.Command {
	opts := &weaveOptions{}
	cmd := &cobra.Command{
		Use:   "weave (-a ASPECT... [--advice-cp CP] | --aspectpath PATH) [-cp CP] [--Xlint ignore] -o OUT INPUT...",
		Short: "Weave aspects into application jars, class directories and class files",
		Long: `weave applies the advice of .weft aspects to the classes of jars, class
directories and single .class files, and writes the woven copies.

Each woven method keeps its original body: a guard at entry runs it while
the thread bypasses woven code (for example inside advice), so advice that
calls back into woven code does not recurse. Static data the woven code
needs lives in sister classes (Foo$weft$jp) added next to each woven class.
Everything else (resources, manifests, classes no advice touches, classes
that cannot be parsed) is copied unchanged, with a warning for the latter.

With one INPUT, OUT is the woven jar or directory; for a .class file, OUT
is the woven class file, or a directory to write it into (under its own
name, its sister class next to it). With several INPUTs, OUT is a
directory receiving each input under its base name. A jar is written to a
temporary file next to OUT, renamed at the end. The runtime (weft.rt) is
written into a directory output, else as weft-rt.jar next to the jar or
class file output (in OUT for a class file woven into the directory OUT).

Each "declare warning" and "declare error" of the aspects is reported at
every join point its pointcut selects, as ajc does
("p/A.java:12: warning: message"); a declare error fails the command and
nothing is written (the inputs are then checked before weaving).

The advice classes are looked up on --advice-cp, then on the inputs and
-cp: an advice whose class is on none of them is an error, as in
"weft check". Advice that advised no join point of any input is warned of
as ajc does ("advice defined in A has not been applied
[Xlint:adviceDidNotMatch]"); --Xlint ignore silences it.

AspectJ's aspects are woven as ajc -aspectpath weaves them: --aspectpath
(or ajc's spelling, -aspectpath) names jars and directories whose @AspectJ
aspects (classes annotated @org.aspectj.lang.annotation.Aspect, compiled
by javac against aspectjrt) are all woven (docs/ataspectj.md). The classes
their woven code calls (weft.at) are written with the runtime; at run time
the class path holds the woven output, the runtime, the aspect path and
aspectjrt.

Examples:

  # AspectJ's aspects, as ajc -inpath app.jar -aspectpath aspects.jar weaves them
  weft weave --aspectpath aspects.jar -cp aspectjrt.jar -o out/app.jar app.jar
  java -cp out/app.jar:out/weft-rt.jar:aspects.jar:aspectjrt.jar Main

  # weave a jar, print what was advised (AspectJ's -showWeaveInfo lines)
  weft weave -a examples/count/count.weft --advice-cp count.jar \
      -o out/app.jar --weave-info - app.jar
  java -cp out/app.jar:out/weft-rt.jar:count.jar Main

  # weave a class directory against its libraries
  weft weave -a trace.weft --advice-cp build/advice -cp lib/guava.jar \
      -o build/woven build/classes

  # weave only one package's classes (the rest copied byte for byte)
  weft weave -a count.weft --advice-cp adv --include 'com/google/common/collect/**' \
      -o out/guava.jar guava.jar`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := launch.CheckWeaveInfo(opts.weaveInfo, args); err != nil {
				return err
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, inputs []string) error { return runWeave(cmd, opts, inputs) },
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&opts.aspectPath, "aspectpath", "", "jars and directories of @AspectJ aspects to weave, as ajc's -aspectpath (':'-separated)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	f.StringVar(&opts.classPath, "cp", "", "class path of the inputs' dependencies, for type resolution")
	f.StringVarP(&opts.out, "out", "o", "", "output jar, directory or class file")
	addWeaveInfoFlag(f, &opts.weaveInfo, "")
	f.Int32Var(&opts.idBase, "id-base", 0, "first join point id (keep runs sharing a JVM disjoint)")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK for type resolution and for building the runtime")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no summary line")
	addLintFlag(f, &opts.xlint)
	addScopeFlags(f, &opts.scope)
	cmd.MarkFlagRequired("out")
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if err.Error() == "flag needs an argument: --weave-info" {
			return errors.New(launch.WeaveInfoTakesFile)
		}
		return err
	})
	return cmd
}

// javaSpellings returns weft's arguments with -cp, the Java spelling, and
// -aspectpath, ajc's, written --cp and --aspectpath for weft weave and
// serve (pflag
// shorthands are one letter), up to "--".
func javaSpellings(args []string) []string {
	if len(args) == 0 || (args[0] != "weave" && args[0] != "serve") {
		return args
	}
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == "--" {
			break
		}
		if a == "-cp" || a == "-aspectpath" {
			out[i] = "-" + a
		}
	}
	return out
}

func runWeave(cmd *cobra.Command, opts *weaveOptions, inputs []string) error {
	if len(opts.aspects) == 0 && opts.aspectPath == "" {
		return errors.New("weave: no aspect: give -a ASPECT.weft (repeatable) or --aspectpath with @AspectJ aspects")
	}
	o := launch.Options{Aspects: opts.aspects, AspectPath: opts.aspectPath, AdviceCP: opts.adviceCP, JavaHome: opts.javaHome, Scope: opts.scope,
		IgnoreUnmatched: opts.xlint.ignore(), Inputs: inputs, ClassPath: opts.classPath, Out: opts.out, IDBase: opts.idBase,
		WeaveInfo: opts.weaveInfo, Quiet: opts.quiet}
	return launch.Weave(withStreams(cmd, o))
}
