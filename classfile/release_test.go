package classfile

import (
	"bytes"
	"testing"
)

// TestPoolRelease: a class parsed into the entries a released pool gave
// back (a bigger class's, with longs and doubles) encodes to its own bytes
// and takes a new constant at its end; strings read before the release
// stay valid.
func TestPoolRelease(t *testing.T) {
	src := jdkSource(t)
	read := func(name string) []byte {
		b, err := src.Class(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	big, small := read("java/lang/Math"), read("java/lang/Runnable")
	for round := 0; round < 3; round++ { // the released entries are reused, not just dropped
		c, err := Parse("Math", big)
		if err != nil {
			t.Fatal(err)
		}
		name := c.Name()
		c.Pool.Release()
		if c.Pool.Len() != 0 {
			t.Errorf("released pool has %d entries", c.Pool.Len())
		}
		d, err := Parse("Runnable", small)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(d.Bytes(), small) {
			t.Errorf("round %d: Runnable parsed into released entries re-encodes differently", round)
		}
		if d.Pool.Add(Constant{Tag: TagUtf8, Str: "weft"}) != uint16(d.Pool.Len()-1) {
			t.Errorf("round %d: a new constant did not go at the end", round)
		}
		d.Pool.Release()
		if name != "java/lang/Math" {
			t.Errorf("name read before the release: %q", name)
		}
	}
}
