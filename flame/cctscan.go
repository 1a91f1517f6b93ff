package flame

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// cctScanner reads a calling-context file record by record, for ReadCCT,
// which builds the tree, and streamCCT, which writes the page from the
// records in canonical order. It checks what both need: the header, the
// metrics line, and that every context names a frame and a parent defined
// before it with one value per metric. The values are left as read.
type cctScanner struct {
	sc      *bufio.Scanner
	line    int      // of the record last read
	metrics []string // the metric names
	frames  []string // the frame names so far, by index

	// The context last read (next returned true, isFrame false).
	isFrame bool
	parent  int      // its parent context (the root is 0)
	frame   int      // its frame index
	values  [][]byte // its values as written, one per metric but for zeros left out at the end

	contexts int      // contexts so far, the root included
	fields   [][]byte // scratch for splitting a line
}

// newCCTScanner reads the header and the metrics line of r.
func newCCTScanner(r io.Reader) (*cctScanner, error) {
	s := &cctScanner{sc: bufio.NewScanner(r), contexts: 1}
	s.sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if h, ok := s.text(); !ok || string(h) != cctHeader {
		return s, s.fail("not a weft calling-context file (want the first line %q)", cctHeader)
	}
	m, ok := s.text()
	metrics := strings.Fields(string(m))
	if !ok || len(metrics) < 2 || metrics[0] != "metrics" || len(metrics) > maxMetrics+1 {
		return s, s.fail("want `metrics NAME...` (1 to %d names)", maxMetrics)
	}
	s.metrics = metrics[1:]
	return s, nil
}

// CCTMetrics returns the metric names of a calling-context file, read
// from its first two lines.
func CCTMetrics(r io.Reader) ([]string, error) {
	s, err := newCCTScanner(r)
	if err != nil {
		return nil, err
	}
	return s.metrics, nil
}

// text returns the next line, without a carriage return at its end. Lines
// are read as bytes and split in place: a javac profile has a million.
func (s *cctScanner) text() ([]byte, bool) {
	if !s.sc.Scan() {
		return nil, false
	}
	s.line++
	return bytes.TrimRight(s.sc.Bytes(), "\r"), true
}

// fail returns an error at the line last read.
func (s *cctScanner) fail(format string, args ...any) error {
	return fmt.Errorf("%d: %s", s.line, fmt.Sprintf(format, args...))
}

// next reads the next frame or context, skipping empty lines; it returns
// false at the end of the file or on an error.
func (s *cctScanner) next() (bool, error) {
	for {
		text, ok := s.text()
		if !ok {
			if err := s.sc.Err(); err != nil {
				s.line++
				return false, s.fail("%v", err)
			}
			return false, nil
		}
		switch {
		case len(text) == 0:
			continue
		case bytes.HasPrefix(text, []byte("f ")):
			s.frames = append(s.frames, string(text[2:]))
			s.isFrame = true
			return true, nil
		case bytes.HasPrefix(text, []byte("n ")):
			return true, s.context(text[2:])
		default:
			return false, s.fail("want `f NAME` or `n PARENT FRAME VALUES...`")
		}
	}
}

// context reads the fields of an n line.
func (s *cctScanner) context(text []byte) error {
	f := fields(s.fields[:0], text)
	s.fields = f
	if len(f) < 2 || len(f) > 2+len(s.metrics) {
		return s.fail("want `n PARENT FRAME` and at most %d values, found %d fields", len(s.metrics), len(f))
	}
	parent, err1 := strconv.Atoi(string(f[0]))
	frame, err2 := strconv.Atoi(string(f[1]))
	if err1 != nil || parent < 0 || parent >= s.contexts {
		return s.fail("parent %q is not a context defined before", f[0])
	}
	if err2 != nil || frame < 0 || frame >= len(s.frames) {
		return s.fail("frame %q is not a frame defined before", f[1])
	}
	s.isFrame, s.parent, s.frame, s.values = false, parent, frame, f[2:]
	s.contexts++
	return nil
}
