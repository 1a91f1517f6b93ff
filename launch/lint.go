package launch

import (
	"fmt"
	"io"

	"github.com/weft-aop/weft/advice"
)

// weft's lint is ajc's -Xlint for the one message it has:
// adviceDidNotMatch, advice that advised no join point (a pointcut that
// names a type or method wrongly, a class path missing the classes meant).

// lintAdviceDidNotMatch warns, as ajc does, of each advice (in declaration
// order) that advised no join point.
func lintAdviceDidNotMatch(w io.Writer, ignore bool, advs []*advice.Advice, applied Applied) {
	if ignore {
		return
	}
	for _, a := range advs {
		if !applied[adviceKey(a)] {
			fmt.Fprintf(w, "weft: warning: %s:%d: advice defined in %s has not been applied [Xlint:adviceDidNotMatch]\n",
				a.File, a.Line, a.Aspect)
		}
	}
}
