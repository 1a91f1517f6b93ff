package main

import (
	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// runOptions are weft run's flags.
type runOptions struct {
	wovenRunOptions
	loadTime  launch.LoadTimeOptions
	weaveInfo string
	aspects   []string
	adviceCP  string
	xlint     lintLevel
}

func newRunCmd() *cobra.Command {
	opts := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run [-a ASPECT...] [--advice-cp CP] [--Xlint ignore] -- COMMAND ARGS...",
		Short: "Weave the JDK and the application (both cached) and run java on them",
		Long: `run weaves the JDK (as "weft jdk" does) and the classes on the application's
-cp / -jar (as "weft weave" does), then runs the java command on the woven
classes. stdin, stdout and stderr are the program's; signals are passed on
and weft exits with the program's exit code.

Both weavings are cached under $WEFT_CACHE (default: the user cache
directory's weft/). The JDK's is keyed by the JDK's release and build, the
aspect files, the advice classes' bytes, the modules chosen and weft itself;
the application's by that and the class path's contents. A second run with
the same inputs starts java at once. The cache is bounded (--cache-max,
$WEFT_CACHE_MAX, else 5G): the entries used least recently are removed,
never those a running JVM uses; "weft cache" lists and prunes it.

The woven JDK runs as a runtime image linked from it (as "weft jdk
--image" links one, cached with it): the command is run from the image's
bin/, which needs no options and maps a class data sharing archive of its
own. From a program's second run on (java's, or a JDK tool's), the
image maps an archive of the program's classes too, made once from the
classes its first run loaded (docs/jdk.md, "The application's archive";
--app-cds=false: no archive). --patches runs the stock JDK with --patch-module instead, as
"weft jdk -o" writes it: no linking on the first run, slower start-ups.

Advice classes are put on the boot class path, so the JDK's woven code can
call them; compile them against "weft runtime -o weft-rt.jar" but do not
put that jar on the class path: in JDK mode the runtime is in java.base.
They are looked up on --advice-cp, then on the program's class path: an
entry there that holds one goes on the boot class path too (so all its
classes are loaded from there, unwoven: keep advice in its own directory
or jar). An advice whose class is on neither is an error, as in
"weft check". Advice that advised no join point of the JDK or the class
path is warned of as ajc does ("advice defined in A has not been applied
[Xlint:adviceDidNotMatch]") when run weaves; --Xlint ignore silences it.
So are the aspects' declare warnings and errors, as "weft weave" reports
them; a declare error stops run before java starts.

AspectJ's aspects run too: the @AspectJ aspects (classes annotated
@org.aspectj.lang.annotation.Aspect, compiled by javac against aspectjrt)
that the META-INF/aop.xml files on a java command's class path list, with
no -a needed. An AspectJ load-time weaving command line runs as it is,
prefixed: weft takes the place of -javaagent:aspectjweaver.jar, which does
not run, and weaves the JDK too (docs/ataspectj.md).

The command may be any launcher of the JDK's bin/: java gets the woven
JDK's options as @DIR/weft.args, the others (javac, jar, jshell, jdeps,
javadoc...) as -J options (jshell also as -R options, for the JVM that
runs its snippets), and no class path of theirs is woven. By hand, with
DIR from "weft jdk" or "weft run -v":

  java @DIR/weft.args -cp app Main
  javac $(cat DIR/weft.jargs) -d out Hello.java

The command may also be any other program: a shell script, mvn, ant,
gradle, an application's launcher script. Every JVM of its process tree
on the JDK woven runs on the woven runtime image, with this run's
load-time weaving: the JVMs started from java.home (Ant's <java fork>,
Maven's surefire, ProcessBuilder on java.home), and those that find java
on PATH or in JAVA_HOME where that is the JDK woven (weft puts the image
there). They inherit WEFT_LTW, the socket's path: a program that clears
its children's environment, or starts a java by another path, escapes
it (docs/ltw.md, "Process trees"). Their class paths are woven as their
classes are defined; the JDK is the one --java-home names, else the java
on PATH, else $JAVA_HOME.

Examples:

  # the leak tracker of examples/leak, by hand ("weft leak" does all this)
  weft runtime -o /tmp/weft-rt.jar
  javac -cp /tmp/weft-rt.jar -d /tmp/adv examples/leak/weft/tools/leak/*.java
  javac -d /tmp/demo examples/leak/demo/Requests.java
  weft run -a examples/leak/leak.weft --advice-cp /tmp/adv -- \
      java -Xmx32m -cp /tmp/demo Requests

  # the JDK only (no class path to weave), one module
  weft run -a count.weft --advice-cp adv --modules java.base -- java -version

  # javac on the woven JDK (javac lives in jdk.compiler)
  weft run -a count.weft --advice-cp adv -- javac -d out Hello.java

  # AspectJ's load-time weaving command line: the aspects of aop.xml
  weft run -- java -javaagent:/usr/share/java/aspectjweaver.jar -cp app:aspects Main

  # a build's JVMs: Maven's own and the test JVM surefire forks
  weft run -a count.weft --advice-cp adv -- mvn -q test`,
		Args: javaCommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := opts.options(args)
			o.Aspects, o.AdviceCP, o.IgnoreUnmatched = opts.aspects, opts.adviceCP, opts.xlint.ignore()
			o.LoadTime.Report, o.LoadTime.Timeout, o.WeaveInfo = opts.loadTime.Report, opts.loadTime.Timeout, opts.weaveInfo
			r, err := runProgram(cmd, o)
			if err != nil {
				return err
			}
			return exitCode(r.Code)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.aspects, "aspect", "a", nil, "a .weft aspect file (repeatable)")
	f.StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	addWovenRunFlags(f, &opts.wovenRunOptions, "all", "weave")
	addLoadTimeFlags(f, &opts.loadTime, &opts.weaveInfo, "")
	addLintFlag(f, &opts.xlint)
	return cmd
}
