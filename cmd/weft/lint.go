package main

import (
	"errors"

	"github.com/spf13/pflag"
)

// lintLevel is the value of --Xlint: "warning" (the default) or "ignore",
// as ajc's -Xlint:warning and -Xlint:ignore, for the one message weft's
// lint has: adviceDidNotMatch, advice that advised no join point.
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

// ignore reports whether the warning is silenced.
func (l lintLevel) ignore() bool { return l == "ignore" }

// addLintFlag registers --Xlint on a weaving command.
func addLintFlag(f *pflag.FlagSet, l *lintLevel) {
	*l = "warning"
	f.Var(l, "Xlint", `"ignore" silences the warning for advice that advised no join point, as ajc's -Xlint:ignore`)
}
