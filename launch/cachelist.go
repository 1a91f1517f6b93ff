package launch

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/weft-aop/weft/internal/cache"
)

// CacheMaxHelp says, for a command's help, how the cache is bounded by
// default.
var CacheMaxHelp = fmt.Sprintf("$%s, else %s", cache.MaxEnv, cache.FormatSize(cache.DefaultMax))

// ListCache writes what the cache holds, least recently used (first
// evicted) first, one entry a line, then the total and the bound.
func ListCache(w io.Writer) error {
	s := cache.Open("")
	ents, err := s.List()
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	max, err := cache.Max("")
	if err != nil {
		return err
	}
	shared := cache.DiskSize(s.Shared())
	total := shared
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tKEY\tSIZE\tLAST USE\tIN USE\tHOLDS")
	for _, e := range ents {
		total += e.Size
		holds := "(no record: unfinished, or made by an older weft)"
		if e.Meta != nil {
			holds = cacheHolds(e.Meta)
		}
		inUse := ""
		if e.InUse {
			inUse = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Kind, e.Key, cache.FormatSize(e.Size),
			e.LastUse.Local().Format("2006-01-02 15:04"), inUse, holds)
	}
	if shared > 0 {
		fmt.Fprintf(tw, "rt\t\t%s\t\t\tweft's runtime and tools compiled, JDK facts\n", cache.FormatSize(shared))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s: %d entr%s, %s in all (bound %s)\n", s.Dir(), len(ents), pluralWord(len(ents), "y", "ies"),
		cache.FormatSize(total), cache.FormatSize(max))
	return err
}

// cacheHolds is what an entry holds, in a line: the aspects by file name.
func cacheHolds(m *cache.Meta) string {
	short := *m
	short.Aspects = nil
	for _, a := range m.Aspects {
		short.Aspects = append(short.Aspects, filepath.Base(a))
	}
	return strings.TrimSpace(short.Holds())
}

// PruneOptions say what PruneCache removes: the least recently used until
// the cache is under Max (cache.ParseSize's syntax; "" with neither of the
// others: the bound), those last used longer ago than OlderThan, or All.
type PruneOptions struct {
	Max       string
	OlderThan time.Duration
	All       bool
}

// PruneCache removes the entries opts says that no process uses, saying
// each on w, then the entries kept in use and the size left.
func PruneCache(w io.Writer, opts PruneOptions) error {
	p := cache.PruneOptions{Max: -1, OlderThan: opts.OlderThan, All: opts.All}
	switch {
	case opts.Max != "":
		max, err := cache.ParseSize(opts.Max)
		if err != nil {
			return fmt.Errorf("--max: %v", err)
		}
		p.Max = max
	case !opts.All && opts.OlderThan == 0: // the bound
		max, err := cache.Max("")
		if err != nil {
			return err
		}
		p.Max = max
	}
	s := cache.Open("")
	removed, size, err := s.Prune(p)
	for _, e := range removed {
		fmt.Fprintf(w, "removed %s-%s (%s)\n", e.Kind, e.Key, cache.FormatSize(e.Size))
	}
	if err != nil {
		return fmt.Errorf("cache prune: %v", err)
	}
	ents, _ := s.List()
	busy := 0
	for _, e := range ents {
		if e.InUse {
			busy++
		}
	}
	if busy > 0 {
		fmt.Fprintf(w, "kept %d entr%s in use\n", busy, pluralWord(busy, "y", "ies"))
	}
	_, err = fmt.Fprintf(w, "%s: %s\n", s.Dir(), cache.FormatSize(size))
	return err
}

// pluralWord is one if n is 1, else more.
func pluralWord(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}
