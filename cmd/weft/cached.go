package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/launch"
)

// This file is the cache's part of the commands (the cache itself is
// launch.Cache over internal/cache): the flag that bounds it, weft's
// identity in every key, and the progress bar a weaving of the JDK draws.

// addCacheMaxFlag adds --cache-max to the flags of a command that makes
// cache entries.
func addCacheMaxFlag(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "cache-max", "",
		"bound the cache to `SIZE` (e.g. 2G, 500M), evicting the least recently used entries not in use (default: "+launch.CacheMaxHelp+")")
}

// weftDigest is launch.Identity of this weft, computed once: cached
// weavings depend on it.
var weftDigest = sync.OnceValue(func() []byte { return launch.Identity(version) })

// progressOn returns a progress bar drawn on w if it is a terminal (the
// bar redraws its line), else nil.
func progressOn(w io.Writer) launch.Progress {
	term, ok := w.(*os.File)
	if !ok || !isTerminal(term) {
		return nil
	}
	return &progressBar{w: term, start: time.Now()}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "[=====>    ] 12345/26588 classes" on one line.
type progressBar struct {
	w     io.Writer
	start time.Time
	drawn bool
}

func (p *progressBar) Update(done, total int) {
	const width = 40
	n := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\rweaving [%s%s] %d/%d classes %.1fs", strings.Repeat("=", n), strings.Repeat(" ", width-n),
		done, total, time.Since(p.start).Seconds())
	p.drawn = true
}

func (p *progressBar) Done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
	p.drawn = false
}
