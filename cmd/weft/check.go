package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/pointcut"
)

// checkOptions are weft check's flags.
type checkOptions struct {
	adviceCP string
	javaHome string
}

func newCheckCmd() *cobra.Command {
	opts := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check ASPECT... [--advice-cp CP] [--java-home H]",
		Short: "Parse and validate .weft aspects, and print what they contain",
		Long: `check parses and resolves .weft aspect files and prints a summary of their
aspects, named pointcuts and advice. Every error is reported with its
file:line:col, the source line and a caret; check exits non-zero if there is
any.

With --advice-cp (directories and jars, ':'-separated, as java's -cp),
check also binds each advice to its Java method: the class file must have
a public static void method whose parameters take the values the advice
passes (formals, thisJoinPoint, thisJoinPointStaticPart, joinPointId, ...), and
the summary shows the method descriptor the woven code will call. Without
it, the descriptor shown is derived from the values passed. JDK types are
resolved against the JDK that weave, jdk and run would use (--java-home,
else the java on PATH, else $JAVA_HOME), and these commands report the
same errors and warnings as check.

An aspect looks like this (see docs/language.md for the whole language):

  aspect AllocTracker {
      pointcut allocs(): call(*.new(..)) && !within(example.tracker..*);
      after() returning(Object o): allocs() {
          example.tracker.Tracker.onNew(o, thisJoinPointStaticPart);
      }
  }

Examples:

  # syntax and meaning only
  weft check examples/count/count.weft

  # also check the advice methods against their compiled classes
  weft runtime -o weft-rt.jar
  javac -d build/advice -cp weft-rt.jar examples/count/Counter.java
  weft check examples/count/count.weft --advice-cp build/advice:weft-rt.jar`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(cmd, opts, args) },
	}
	cmd.Flags().StringVar(&opts.adviceCP, "advice-cp", "", "class path of the advice classes (dirs and jars, ':'-separated)")
	javaHomeFlag(cmd, &opts.javaHome, "the JDK whose classes aspects are checked against")
	return cmd
}

func runCheck(cmd *cobra.Command, opts *checkOptions, args []string) error {
	home, err := launch.JavaHome(opts.javaHome)
	if err != nil {
		return err
	}
	prog, err := launch.LoadAspects(cmd.ErrOrStderr(), args, pointcut.Options{AdviceCP: opts.adviceCP, JavaHome: home})
	if err != nil {
		return err
	}
	writeSummary(cmd.OutOrStdout(), prog.Files, prog)
	return nil
}

// writeSummary prints aspects, pointcuts and advice in declaration order.
func writeSummary(w io.Writer, files []*pointcut.File, prog *pointcut.Program) {
	pcs := map[string][]pointcut.PointcutInfo{}
	for _, p := range prog.Pointcuts {
		pcs[p.Aspect] = append(pcs[p.Aspect], p)
	}
	advs := map[string][]pointcut.AdviceInfo{}
	for _, a := range prog.AdviceInfo() {
		advs[a.Advice.Aspect] = append(advs[a.Advice.Aspect], a)
	}
	decls := map[string][]pointcut.DeclareInfo{}
	for _, d := range prog.DeclareInfo() {
		decls[d.Aspect] = append(decls[d.Aspect], d)
	}
	naspects := 0
	for _, f := range files {
		for _, a := range f.Aspects {
			naspects++
			fmt.Fprintf(w, "aspect %s (%s:%d)\n", a.Name, f.Name, a.Pos.Line)
			for _, p := range pcs[a.Name] {
				fmt.Fprintf(w, "  pointcut %s(%s): %s\n", p.Name, strings.Join(p.Formals, ", "), p.Expr)
			}
			for _, ai := range advs[a.Name] {
				fmt.Fprintf(w, "  %s: %s\n", adviceHeader(ai), ai.Pointcut)
				m := ai.Advice.Method
				var vals []string
				for _, v := range ai.Advice.Args {
					vals = append(vals, valueName(v))
				}
				fmt.Fprintf(w, "      calls %s.%s%s  with (%s)\n", strings.ReplaceAll(m.Owner, "/", "."), m.Name, m.Desc, strings.Join(vals, ", "))
			}
			for _, d := range decls[a.Name] {
				if d.Kind == "precedence" {
					fmt.Fprintf(w, "  declare precedence: %s\n", d.Text)
				} else {
					fmt.Fprintf(w, "  declare %s: %s : %s\n", d.Kind, d.Text, d.Message)
				}
			}
		}
	}
	checked := "advice methods checked against --advice-cp"
	if !prog.Checked {
		checked = "advice methods not checked (no --advice-cp)"
	}
	declares := ""
	if n := len(prog.DeclareInfo()); n > 0 {
		declares = fmt.Sprintf(", %d declare", n)
	}
	fmt.Fprintf(w, "%d aspect%s, %d pointcut%s, %d advice%s; %s\n", naspects, plural(naspects),
		len(prog.Pointcuts), plural(len(prog.Pointcuts)), len(prog.AdviceInfo()), declares, checked)
}

// adviceHeader renders an advice's kind and formals as written:
// "after(int x) returning(Object o)".
func adviceHeader(ai pointcut.AdviceInfo) string {
	a := ai.Advice
	formals := ai.Formals
	exit := ""
	switch a.Kind {
	case advice.AfterReturning, advice.AfterThrowing:
		clause := "returning"
		typ := a.ReturnType
		if a.Kind == advice.AfterThrowing {
			clause, typ = "throwing", a.ThrowType
		}
		exit = " " + clause
		if typ != "" && len(formals) > 0 {
			exit += "(" + formals[len(formals)-1] + ")"
			formals = formals[:len(formals)-1]
		}
	}
	kind := "before"
	switch a.Kind {
	case advice.Before:
	case advice.Around:
		kind = classfile.Type(a.AroundType).JavaName() + " around"
	default:
		kind = "after"
	}
	return fmt.Sprintf("%s:%d %s(%s)%s", a.File, a.Line, kind, strings.Join(formals, ", "), exit)
}

func valueName(v advice.Value) string {
	if v.Kind == advice.Arg {
		if v.Index < 0 {
			return "arg"
		}
		return fmt.Sprintf("arg%d", v.Index)
	}
	return v.Kind.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
