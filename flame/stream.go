package flame

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// ErrNotCanonical reports a calling-context file that WriteCCTHTML cannot
// stream: read it with ReadCCT (and Sort) and write it with WriteHTML.
var ErrNotCanonical = errors.New("flame: the calling-context file is not in canonical order")

// WriteCCTHTML writes the flame graph of a calling-context file in
// canonical order — every context right after its parent's subtree so
// far (preorder), the children of a context in increasing order of their
// frame names, no two with the same name — as WriteHTML writes it after
// ReadCCT and Sort, byte for byte, without building the tree: weft's
// profiler writes its file so, and a javac profile has a million
// contexts, whose nodes cost more to make (memory, page faults) than the
// page costs to write. It returns ErrNotCanonical, having written nothing,
// for any other file, a malformed one included.
func WriteCCTHTML(w io.Writer, r io.Reader, title string) error {
	metrics, frames, root, err := streamCCT(r)
	if err != nil {
		return err
	}
	return writePage(w, title, func(bw *bufio.Writer) error {
		return writeDataObject(bw, metrics, frames, func() error {
			for _, c := range root {
				bw.Write(c)
			}
			return nil
		})
	})
}

// open is a context of the path from the root to the one last read.
type open struct {
	context int    // its number in the file (the root is 0)
	last    string // the name of its last child so far ("" before the first)
	any     bool   // it has a child
}

// chunks hold the page's data as it is made, in blocks that are never
// copied (a growing slice copies and faults in twice the memory).
type chunks struct {
	done [][]byte
	cur  []byte
}

const chunkSize = 1 << 20

// room makes room for n more bytes in cur.
func (c *chunks) room(n int) {
	if cap(c.cur)-len(c.cur) < n {
		if len(c.cur) > 0 {
			c.done = append(c.done, c.cur)
		}
		c.cur = make([]byte, 0, max(chunkSize, n))
	}
}

func (c *chunks) all() [][]byte { return append(c.done, c.cur) }

// maxNumber bounds a value as appendNumber writes it.
const maxNumber = 32

// streamCCT reads a calling-context file in canonical order into the
// page's data: the metric names, the frame names in the page's numbering
// (preorder of first use, the root's "all" first) and the root's JSON
// array (in chunks), as writeData writes them.
func streamCCT(r io.Reader) (metrics, names []string, root [][]byte, err error) {
	sc, err := newCCTScanner(r)
	if err != nil {
		return nil, nil, nil, ErrNotCanonical
	}
	metrics = sc.metrics
	nm := len(metrics)

	var (
		index []int // the file's frame number to the page's, -1 before its first use
		page  = map[string]int{"all": 0}
		path  = []open{{context: 0}}
	)
	names = []string{"all"}
	var data chunks
	data.room(5)
	data.cur = append(data.cur, "[0,[]"...) // the root's values: all zero
	for {
		ok, err := sc.next()
		if err != nil {
			return nil, nil, nil, ErrNotCanonical
		}
		if !ok {
			break
		}
		if sc.isFrame {
			index = append(index, -1)
			continue
		}
		// Close the contexts the parent is below.
		for len(path) > 0 && path[len(path)-1].context != sc.parent {
			path = path[:len(path)-1]
			data.room(1)
			data.cur = append(data.cur, ']')
		}
		if len(path) == 0 {
			return nil, nil, nil, ErrNotCanonical // not preorder
		}
		name := sc.frames[sc.frame]
		top := &path[len(path)-1]
		if top.any && name <= top.last {
			return nil, nil, nil, ErrNotCanonical // out of order, or a name twice
		}
		top.last, top.any = name, true
		k := index[sc.frame]
		if k < 0 {
			var seen bool
			if k, seen = page[name]; !seen {
				k = len(names)
				page[name] = k
				names = append(names, name)
			}
			index[sc.frame] = k
		}
		data.room(2*maxNumber + nm*(maxNumber+1))
		b := append(data.cur, ",["...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, ",["...)
		values := sc.values
		for len(values) > 0 && isZero(values[len(values)-1]) {
			values = values[:len(values)-1]
		}
		for i, s := range values {
			if i > 0 {
				b = append(b, ',')
			}
			if canonicalInteger(s) {
				b = append(b, s...)
				continue
			}
			v, ok := parseValue(s)
			if !ok {
				return nil, nil, nil, ErrNotCanonical
			}
			b = appendNumber(b, v)
		}
		data.cur = append(b, ']')
		path = append(path, open{context: sc.contexts - 1})
	}
	for range path {
		data.room(1)
		data.cur = append(data.cur, ']')
	}
	return metrics, names, data.all(), nil
}

// canonicalInteger reports whether s is a number appendNumber writes as
// it is: decimal digits without a leading zero, exact in a float64.
func canonicalInteger(s []byte) bool {
	if len(s) == 0 || len(s) > 15 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
