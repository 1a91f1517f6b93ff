package jdk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// This file is the outcome of weaving the JDK, DIR/summary.json.

// ModuleSummary counts one module's weaving.
type ModuleSummary struct {
	Classes      int `json:"classes"`
	ClassesWoven int `json:"classesWoven"`
	MethodsWoven int `json:"methodsWoven"`
}

// Unwoven is a class left unchanged because weaving it failed.
type Unwoven struct {
	Module string `json:"module"`
	Class  string `json:"class"`
	Reason string `json:"reason"`
}

// Summary is DIR/summary.json.
type Summary struct {
	JavaHome string                    `json:"javaHome"`
	Release  string                    `json:"release"`
	Modules  map[string]*ModuleSummary `json:"modules"`
	Unwoven  []Unwoven                 `json:"unwoven"`
	// Intrinsics lists the woven methods the VM may replace with an
	// intrinsic (@IntrinsicCandidate): advice there can be skipped by the
	// interpreter or the JIT, so counts can be partial.
	Intrinsics []string `json:"intrinsics"`
	Warnings   []string `json:"warnings"`
	Seconds    float64  `json:"seconds"`
	// NextID is the first join point id not used by the woven JDK.
	NextID int32 `json:"nextId"`
}

// Totals sums the per-module counts.
func (s *Summary) Totals() (classes, woven, methods int) {
	for _, m := range s.Modules {
		classes += m.Classes
		woven += m.ClassesWoven
		methods += m.MethodsWoven
	}
	return
}

// writeSummary writes weft.args and summary.json.
func (iw *imageWeaving) writeSummary(start time.Time) (*Summary, error) {
	sum := iw.sum
	sort.Slice(sum.Unwoven, func(i, j int) bool { return sum.Unwoven[i].Class < sum.Unwoven[j].Class })
	sort.Strings(sum.Intrinsics)
	sort.Strings(sum.Warnings)
	if err := WriteArgs(iw.opts.Out, iw.opts.JavaHome, iw.opts.BootAppend); err != nil {
		return nil, err
	}
	if iw.opts.NextID != nil {
		sum.NextID = iw.opts.NextID()
	}
	sum.Seconds = time.Since(start).Seconds()
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	return sum, os.WriteFile(filepath.Join(iw.opts.Out, "summary.json"), append(b, '\n'), 0o644)
}
