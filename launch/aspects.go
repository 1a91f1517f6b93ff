package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/weft-aop/weft/pointcut"
)

// LoadAspects reads, parses and resolves the aspect files. It is how every
// command (check, weave, jdk, run) reads aspects, so all report the same
// diagnostics: the warnings, then every error of every file (parse and
// semantic, each with file:line:col, caret and hint) as one list, all
// written to w; the error returned only counts them.
func LoadAspects(w io.Writer, paths []string, opts pointcut.Options) (*pointcut.Program, error) {
	var files []*pointcut.File
	var errs pointcut.ErrorList
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		// A file with syntax errors is resolved too, as far as it parsed,
		// so its semantic errors and other files' are reported at once.
		f, err := pointcut.ParseFile(p, src)
		errs = appendErrors(errs, err)
		files = append(files, f)
	}
	prog, err := pointcut.ResolveWith(files, opts)
	errs = appendErrors(errs, err)
	for _, warn := range prog.Warnings {
		fmt.Fprintf(w, "weft: warning: %s\n", warn)
	}
	if len(errs) > 0 {
		errs.Sort()
		fmt.Fprintln(w, errs)
		return nil, fmt.Errorf("%d error%s in %s", len(errs), plural(len(errs)), strings.Join(paths, ", "))
	}
	return prog, nil
}

func appendErrors(list pointcut.ErrorList, err error) pointcut.ErrorList {
	if err == nil {
		return list
	}
	var l pointcut.ErrorList
	if errors.As(err, &l) {
		return append(list, l...)
	}
	return append(list, &pointcut.Error{Msg: err.Error()})
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
