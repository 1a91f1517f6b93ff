package classfile

import (
	"bytes"
	"testing"
)

// TestPoolRelease: classes parsed, in turn, into the entries the other's
// released pool gave back (pools of a similar size, with longs and
// doubles) encode to their own bytes and take a new constant at their
// end; a released pool is empty; strings read before the release stay
// valid.
func TestPoolRelease(t *testing.T) {
	src := jdkSource(t)
	names := []string{"java/lang/Math", "java/lang/StrictMath"}
	var data [2][]byte
	for i, n := range names {
		b, err := src.Class(n)
		if err != nil {
			t.Fatal(err)
		}
		data[i] = b
	}
	for round := 0; round < 6; round++ {
		i := round % 2
		c, err := Parse(names[i], data[i])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.Bytes(), data[i]) {
			t.Errorf("round %d: %s re-encodes differently", round, names[i])
		}
		if c.Pool.Add(Constant{Tag: TagUtf8, Str: "weft"}) != uint16(c.Pool.Len()-1) {
			t.Errorf("round %d: a new constant did not go at the end", round)
		}
		name := c.Name()
		c.Pool.Release()
		if c.Pool.Len() != 0 {
			t.Errorf("round %d: released pool has %d entries", round, c.Pool.Len())
		}
		if name != names[i] {
			t.Errorf("round %d: name read before the release: %q", round, name)
		}
	}
}
