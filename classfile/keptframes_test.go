package classfile

import (
	"errors"
	"testing"
)

// unknownJoin is a static method (Z)V whose two branches store a value of
// class x or y in local 1 and join; at the join, it loads local 1 when read
// is set, and stores an int in local 2 before the branch when inserted is
// (code "inserted" past a max_locals of 2, read after the join).
func unknownJoin(c *Class, x, y string, read, inserted bool) (insns []Insn, join *Label) {
	other, join := NewLabel(), NewLabel()
	p := c.Pool
	if inserted {
		insns = append(insns, op(OpIconst1), idx(OpIstore, 2))
	}
	insns = append(insns,
		idx(OpIload, 0), jmp(OpIfeq, other),
		op(OpAconstNull), idx(OpCheckcast, p.AddClass(x)), idx(OpAstore, 1), jmp(OpGoto, join),
		lbl(other), op(OpAconstNull), idx(OpCheckcast, p.AddClass(y)), idx(OpAstore, 1),
		lbl(join))
	if read {
		insns = append(insns, idx(OpAload, 1), op(OpPop))
	}
	if inserted {
		insns = append(insns, idx(OpIload, 2), op(OpPop))
	}
	return append(insns, op(OpReturn)), join
}

func TestFramesUnknownTypeNoGuess(t *testing.T) {
	for _, tc := range []struct {
		name    string
		x, y    string
		read    bool
		wantErr string // the missing class, "" for none
		local1  string // local 1 in the join's frame
	}{
		{"known", "B", "C", true, "", "A"},
		{"unknown, never read", "B", "Unknown", false, "", ""},
		{"unknown, read", "B", "Unknown", true, "Unknown", ""},
		{"unknown superclass, read", "Orphan", "B", true, "Missing", ""},
		{"unknown and an interface", "I", "Unknown", true, "", "java/lang/Object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClass("T", "java/lang/Object", 61)
			insns, join := unknownJoin(c, tc.x, tc.y, tc.read, false)
			m := &Member{Access: AccStatic, Name: c.Pool.AddUtf8("m"), Desc: c.Pool.AddUtf8("(Z)V")}
			code := &Code{Insns: insns}
			err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy})
			if tc.wantErr != "" {
				var u *UnknownTypeError
				if !errors.As(err, &u) || u.Missing != tc.wantErr {
					t.Fatalf("Encode: %v, want an UnknownTypeError naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := "[I " + tc.local1 + "] []"
			if tc.local1 == "" {
				want = "[I] []" // local 1 is Top: trailing Tops are not written
			}
			if got := frameAt(t, code, join); got != want {
				t.Errorf("frame at the join = %s, want %s", got, want)
			}
		})
	}
}

// TestKeepFrames encodes code whose join merges two classes the hierarchy
// does not know, with a frame at the join as a compiler would have written
// it: kept, it stands (and the analysis asks the hierarchy nothing of
// those locals), while the locals past KeptLocals are computed.
func TestKeepFrames(t *testing.T) {
	c := newTestClass("T", "java/lang/Object", 61)
	insns, join := unknownJoin(c, "p/Left", "p/Right", true, true)
	m := &Member{Access: AccStatic, Name: c.Pool.AddUtf8("m"), Desc: c.Pool.AddUtf8("(Z)V")}
	given := []Frame{{At: join, Locals: []VType{{Kind: VInteger}, {Kind: VObject, Class: "p/Base"}}}}

	code := &Code{Insns: insns, Frames: given}
	err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy})
	var u *UnknownTypeError
	if !errors.As(err, &u) {
		t.Fatalf("without KeepFrames: %v, want an UnknownTypeError", err)
	}

	code = &Code{Insns: insns, Frames: given}
	if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy, KeepFrames: true, KeptLocals: 2}); err != nil {
		t.Fatal(err)
	}
	if got, want := frameAt(t, code, join), "[I p/Base I] []"; got != want {
		t.Errorf("frame at the join = %s, want %s", got, want)
	}
	if code.MaxLocals != 3 {
		t.Errorf("max locals %d, want 3", code.MaxLocals)
	}

	// A kept frame whose stack height is not the code's is an error.
	bad := []Frame{{At: join, Locals: given[0].Locals, Stack: []VType{{Kind: VInteger}}}}
	code = &Code{Insns: insns, Frames: bad}
	if err := code.Encode(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy, KeepFrames: true, KeptLocals: 2}); err == nil {
		t.Error("a kept frame with a stack the code does not have: no error")
	}
}
