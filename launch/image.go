package launch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/weft-aop/weft/weaver/jdk"
)

// imageSummary is where a woven runtime image keeps the summary of the
// weaving it holds.
const imageSummary = "lib/weft/summary.json"

// LinkImage links the runtime image o.Out from the JDK o.JavaHome and the
// weaving in o.Woven (a WeaveJDK output), and copies the weaving's summary
// into it (imageSummary). It says what it does on log, if not nil.
func LinkImage(log io.Writer, o jdk.LinkOptions) error {
	start := time.Now()
	if log != nil {
		fmt.Fprintf(log, "weft: linking the runtime image %s\n", o.Out)
	}
	if err := jdk.LinkImage(o); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(o.Woven, "summary.json"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.Out, imageSummary), sum, 0o644); err != nil {
		return err
	}
	if log != nil {
		fmt.Fprintf(log, "weft: linked %s in %.1fs\n", o.Out, time.Since(start).Seconds())
	}
	return nil
}
