package flame

import (
	"encoding/json"
	"io"
)

// WriteSpeedscope writes p in speedscope's file format: one "sampled"
// profile per metric, each context with a non-zero self value a sample
// weighted by it.
func WriteSpeedscope(w io.Writer, p *Profile, name string) error {
	type frame struct {
		Name string `json:"name"`
	}
	type profile struct {
		Type       string    `json:"type"`
		Name       string    `json:"name"`
		Unit       string    `json:"unit"`
		StartValue float64   `json:"startValue"`
		EndValue   float64   `json:"endValue"`
		Samples    [][]int   `json:"samples"`
		Weights    []float64 `json:"weights"`
	}
	var file struct {
		Schema string `json:"$schema"`
		Shared struct {
			Frames []frame `json:"frames"`
		} `json:"shared"`
		Profiles []profile `json:"profiles"`
		Name     string    `json:"name"`
		Exporter string    `json:"exporter"`
	}
	file.Schema = "https://www.speedscope.app/file-format-schema.json"
	file.Name, file.Exporter = name, "weft"
	index := map[string]int{}
	for m, metric := range p.Metrics {
		pr := profile{Type: "sampled", Name: name + " " + metric, Unit: "none", EndValue: p.Root.Total[m],
			Samples: [][]int{}, Weights: []float64{}}
		p.Walk(func(stack []string, n *Node) {
			if n.Self[m] == 0 {
				return
			}
			s := make([]int, len(stack))
			for i, f := range stack {
				k, ok := index[f]
				if !ok {
					k = len(file.Shared.Frames)
					index[f] = k
					file.Shared.Frames = append(file.Shared.Frames, frame{f})
				}
				s[i] = k
			}
			pr.Samples = append(pr.Samples, s)
			pr.Weights = append(pr.Weights, n.Self[m])
		})
		file.Profiles = append(file.Profiles, pr)
	}
	if file.Shared.Frames == nil {
		file.Shared.Frames = []frame{}
	}
	enc := json.NewEncoder(w)
	return enc.Encode(&file)
}
