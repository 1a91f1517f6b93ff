package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/weaver"
)

// Applied is the set of advice that advised a join point, by adviceKey:
// what ajc's adviceDidNotMatch lint is decided on, across the JDK, the
// class path and load time.
type Applied map[string]bool

// adviceKey names an advice across runs of weft on the same aspects.
func adviceKey(a *advice.Advice) string { return fmt.Sprintf("%s#%d", a.Aspect, a.Order) }

// Add notes the advice of the shadows as applied.
func (s Applied) Add(shadows []weaver.WeaveInfo) {
	var last *advice.Advice // shadows in a row share their advice: one key each
	for i := range shadows {
		if a := shadows[i].Advice; a != last {
			s[adviceKey(a)] = true
			last = a
		}
	}
}

// AddAdvice notes the advice of advs as applied.
func (s Applied) AddAdvice(advs []*advice.Advice) {
	for _, a := range advs {
		s[adviceKey(a)] = true
	}
}

// appliedFile lists, in a woven JDK's cache directory, the advice that
// advised a join point there (adviceKey, one a line), for the lint of a
// later run that weaves only the class path.
const appliedFile = "advice-applied"

// writeApplied writes s to dir's appliedFile.
func writeApplied(dir string, s Applied) error {
	var ks []string
	for k := range s {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k + "\n")
	}
	return os.WriteFile(filepath.Join(dir, appliedFile), []byte(b.String()), 0o644)
}

// readApplied adds dir's appliedFile to into.
func readApplied(dir string, into Applied) error {
	b, err := os.ReadFile(filepath.Join(dir, appliedFile))
	if err != nil {
		return err
	}
	for _, k := range strings.Fields(string(b)) {
		into[k] = true
	}
	return nil
}
