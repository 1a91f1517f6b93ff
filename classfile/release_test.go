package classfile

import (
	"bytes"
	"testing"
)

// TestPoolRelease: after java/lang/Long's pool (room for 648 constants) is
// released, Math's and StrictMath's, parsed in turn, each take the entries
// the previous one gave back (fresh, they would have room for 509 and 429:
// less than 512), encode to their own bytes and take a new constant at
// their end; a released pool is empty.
func TestPoolRelease(t *testing.T) {
	src := jdkSource(t)
	names := []string{"java/lang/Long", "java/lang/Math", "java/lang/StrictMath", "java/lang/Math", "java/lang/StrictMath"}
	for round, name := range names {
		data, err := src.Class(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		if round > 0 && cap(c.Pool.entries) < 512 {
			t.Errorf("round %d: %s has room for %d constants: it did not reuse the entries released before", round, name, cap(c.Pool.entries))
		}
		if !bytes.Equal(c.Bytes(), data) {
			t.Errorf("round %d: %s re-encodes differently", round, name)
		}
		if c.Pool.Add(Constant{Tag: TagUtf8, Str: "weft"}) != uint16(c.Pool.Len()-1) {
			t.Errorf("round %d: a new constant did not go at the end", round)
		}
		c.Pool.Release()
		if c.Pool.Len() != 0 {
			t.Errorf("round %d: released pool has %d entries", round, c.Pool.Len())
		}
	}
}
