package jimage

import (
	"encoding/binary"
	"testing"
)

// FuzzImage feeds arbitrary bytes to the index parser and reads every
// entry: it must never panic, only report errors.
func FuzzImage(f *testing.F) {
	f.Add(buildImage(binary.LittleEndian, testResources()))
	f.Add(buildImage(binary.BigEndian, testResources()[38:]))
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := NewImage("fuzz", b)
		if err != nil {
			return
		}
		es, _ := img.Entries()
		for _, e := range es {
			img.ReadEntry(e)
			img.Read(e.Module, e.Name)
		}
		img.Modules()
	})
}
