package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/launch"
)

// weft's lint is ajc's -Xlint for the one message it has:
// adviceDidNotMatch, advice that advised no join point (a pointcut that
// names a type or method wrongly, a class path missing the classes meant).

// lintLevel is the value of --Xlint: "warning" (the default) or "ignore",
// as ajc's -Xlint:warning and -Xlint:ignore.
type lintLevel string

func (l *lintLevel) String() string { return string(*l) }
func (l *lintLevel) Type() string   { return "level" }

func (l *lintLevel) Set(s string) error {
	if s != "warning" && s != "ignore" {
		return errors.New(`want "warning" or "ignore"`)
	}
	*l = lintLevel(s)
	return nil
}

// addLintFlag registers --Xlint on a weaving command.
func addLintFlag(f *pflag.FlagSet, l *lintLevel) {
	*l = "warning"
	f.Var(l, "Xlint", `"ignore" silences the warning for advice that advised no join point, as ajc's -Xlint:ignore`)
}

// lintAdviceDidNotMatch warns, as ajc does, of each advice (in declaration
// order) that advised no join point.
func lintAdviceDidNotMatch(w io.Writer, level lintLevel, advs []*advice.Advice, applied launch.Applied) {
	if level == "ignore" {
		return
	}
	for _, a := range advs {
		if !applied[launch.AdviceKey(a)] {
			fmt.Fprintf(w, "weft: warning: %s:%d: advice defined in %s has not been applied [Xlint:adviceDidNotMatch]\n",
				a.File, a.Line, a.Aspect)
		}
	}
}
