package scope

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

// ReadFile reads a scope file: one pattern a line; a line starting with !
// excludes; "module GLOB" (or "!module GLOB") is a pattern over JDK
// modules; blank lines and lines starting with # are ignored. Errors name
// the file and line.
func ReadFile(path string) ([]Pattern, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, b)
}

// ParseFile parses a scope file's text; path names it in errors and in
// each pattern's Where.
func ParseFile(path string, text []byte) ([]Pattern, error) {
	var out []Pattern
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := Pattern{Where: fmt.Sprintf("%s:%d", path, n)}
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			p.Exclude, line = true, strings.TrimSpace(rest)
		}
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			p.Module, line = true, strings.TrimSpace(rest)
		}
		if line == "" || strings.ContainsAny(line, " \t") {
			return nil, fmt.Errorf("%s: %q: want one pattern a line (!PATTERN to exclude, module PATTERN for JDK modules)", p.Where, sc.Text())
		}
		if strings.Contains(line, ".") && !strings.Contains(line, "/") && !p.Module {
			return nil, fmt.Errorf("%s: %q names classes with dots: patterns are over internal names (com/acme/**, not com.acme..*)", p.Where, line)
		}
		p.Glob = line
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
