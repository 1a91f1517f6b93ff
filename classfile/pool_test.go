package classfile

import "testing"

// TestIntSlot: an Integer slot is never returned by AddInt for its value,
// and EntryOffsets finds it in the encoded class, where setting its four
// bytes sets the value the parsed class reads.
func TestIntSlot(t *testing.T) {
	c := &Class{Major: 52, Pool: NewPool()}
	c.This = c.Pool.AddClass("p/C")
	c.Super = c.Pool.AddClass("java/lang/Object")
	c.Pool.AddLong(1 << 40) // two slots before the ones asked
	seven := c.Pool.AddInt(7)
	s1 := c.Pool.AddIntSlot(7)
	c.Pool.AddUtf8("between")
	s2 := c.Pool.AddIntSlot(8)
	if s1 == seven || c.Pool.AddInt(7) != seven || c.Pool.AddInt(8) == s2 {
		t.Fatalf("slots %d, %d; AddInt(7) %d then %d, AddInt(8) %d: want slots apart from AddInt's entries",
			s1, s2, seven, c.Pool.AddInt(7), c.Pool.AddInt(8))
	}
	b := c.Bytes()
	offs := c.Pool.EntryOffsets([]uint16{s1, s2})
	if len(offs) != 2 {
		t.Fatalf("EntryOffsets: %v", offs)
	}
	for k, v := range []uint32{1001, 1002} {
		if b[offs[k]] != TagInteger {
			t.Fatalf("offset %d: tag %d, want Integer", offs[k], b[offs[k]])
		}
		b[offs[k]+1], b[offs[k]+2], b[offs[k]+3], b[offs[k]+4] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	back, err := Parse("p/C", b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Pool.Int(s1) != 1001 || back.Pool.Int(s2) != 1002 || back.Pool.Int(seven) != 7 {
		t.Errorf("after setting the slots: %d, %d (want 1001, 1002), AddInt's 7 reads %d",
			back.Pool.Int(s1), back.Pool.Int(s2), back.Pool.Int(seven))
	}
}
