package launch

import "path/filepath"

// classPathEntries returns the entries of class path cp, the empty ones
// dropped.
func classPathEntries(cp string) []string {
	var out []string
	for _, p := range filepath.SplitList(cp) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// absPaths returns the paths made absolute, for a reader elsewhere.
func absPaths(ps []string) []string {
	var out []string
	for _, p := range ps {
		if abs, err := filepath.Abs(p); err == nil && p != "" {
			p = abs
		}
		out = append(out, p)
	}
	return out
}
