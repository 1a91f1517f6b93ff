package flame

import (
	"io"
	"strings"

	"github.com/google/pprof/profile"
)

// WritePprof writes p in pprof's format (gzipped protocol buffers, as go
// tool pprof, Grafana Pyroscope, Parca and the OpenTelemetry collector's
// pprof receiver read it), with the format's own library: one sample type
// per metric (its unit nanoseconds for a metric named *-ns, bytes for
// *-bytes, else count), one
// sample per context with a non-zero self value, its locations the
// context's frames, leaf first, each a function named as the frame is.
// Exact counts stay exact: a sample's values are the context's own.
func WritePprof(w io.Writer, p *Profile) error {
	prof := &profile.Profile{}
	for _, m := range p.Metrics {
		unit := "count"
		switch {
		case strings.HasSuffix(m, "-ns"):
			unit = "nanoseconds"
		case strings.HasSuffix(m, "-bytes"):
			unit = "bytes"
		}
		prof.SampleType = append(prof.SampleType, &profile.ValueType{Type: m, Unit: unit})
	}
	if len(p.Metrics) > 0 {
		prof.DefaultSampleType = p.Metrics[0]
	}
	locations := map[string]*profile.Location{}
	location := func(frame string) *profile.Location {
		if l, ok := locations[frame]; ok {
			return l
		}
		id := uint64(len(locations) + 1)
		f := &profile.Function{ID: id, Name: frame, SystemName: frame}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
		prof.Function = append(prof.Function, f)
		prof.Location = append(prof.Location, l)
		locations[frame] = l
		return l
	}
	p.Walk(func(stack []string, n *Node) {
		nonZero := false
		for _, v := range n.Self {
			nonZero = nonZero || v != 0
		}
		if !nonZero {
			return
		}
		s := &profile.Sample{Value: make([]int64, len(n.Self)), Location: make([]*profile.Location, len(stack))}
		for i, v := range n.Self {
			s.Value[i] = int64(v)
		}
		for i, f := range stack {
			s.Location[len(stack)-1-i] = location(f)
		}
		prof.Sample = append(prof.Sample, s)
	})
	if err := prof.CheckValid(); err != nil {
		return err
	}
	return prof.Write(w)
}
