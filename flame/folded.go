package flame

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// maxLine bounds one line of a folded file (a stack of a few thousand
// frames fits many times over).
const maxLine = 4 << 20

// ReadFolded adds the folded stacks read from r as values of metric m of
// p. Each line is `frame;frame;... value`, the root frame first; blank
// lines are skipped. name labels errors (file:line: what).
func ReadFolded(r io.Reader, name string, p *Profile, m int) error {
	if m < 0 || m >= len(p.Metrics) {
		return fmt.Errorf("%s: no metric %d in a profile of %d", name, m, len(p.Metrics))
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), " \t\r")
		if text == "" {
			continue
		}
		sp := strings.LastIndexAny(text, " \t")
		if sp < 0 {
			return fmt.Errorf("%s:%d: want `frame;frame;... value`, found no value", name, line)
		}
		v, err := strconv.ParseFloat(text[sp+1:], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("%s:%d: the value %q is not a non-negative number", name, line, text[sp+1:])
		}
		stack := strings.TrimRight(text[:sp], " \t")
		if stack == "" {
			return fmt.Errorf("%s:%d: a value with no stack", name, line)
		}
		p.Add(strings.Split(stack, ";"), m, v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return nil
}

// WriteFolded writes metric m of p as folded stacks, one line per context
// with a non-zero self value, in tree order.
func WriteFolded(w io.Writer, p *Profile, m int) error {
	bw := bufio.NewWriter(w)
	p.Walk(func(stack []string, n *Node) {
		if n.Self[m] != 0 {
			bw.WriteString(strings.Join(stack, ";"))
			bw.WriteByte(' ')
			bw.WriteString(formatValue(n.Self[m]))
			bw.WriteByte('\n')
		}
	})
	return bw.Flush()
}

// formatValue writes whole numbers without a fraction, as counts are.
func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
