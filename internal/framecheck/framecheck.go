// Package framecheck compares the stack map frames a method has, as a
// generator wrote them by hand, with the ones the frame analysis computes
// for its code, for the tests of the generators.
package framecheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/classfile"
)

// Method runs the frame analysis over a copy of m's code and returns the
// number of frames m has and, if they are not the analysis's (the same
// offsets and types), an error showing both.
func Method(c *classfile.Class, m *classfile.Member, h classfile.Hierarchy) (int, error) {
	written, computed, err := frames(c, m, h)
	if err != nil {
		return 0, err
	}
	if !slices.Equal(written, computed) {
		return 0, fmt.Errorf("%s: written frames\n\t%s\nthe analysis's\n\t%s", name(c, m),
			strings.Join(written, "\n\t"), strings.Join(computed, "\n\t"))
	}
	return len(written), nil
}

// At is Method for the frame at one code offset only: code inserted into
// a method whose other frames are its compiler's, which may name declared
// types where the analysis finds narrower ones.
func At(c *classfile.Class, m *classfile.Member, h classfile.Hierarchy, offset int) error {
	written, computed, err := frames(c, m, h)
	if err != nil {
		return err
	}
	prefix := strconv.Itoa(offset) + ": "
	w, a := find(written, prefix), find(computed, prefix)
	if w == "" || w != a {
		return fmt.Errorf("%s: written frame %q, the analysis's %q", name(c, m), w, a)
	}
	return nil
}

// frames returns m's frames and the analysis's, formatted by frameText.
func frames(c *classfile.Class, m *classfile.Member, h classfile.Hierarchy) (written, computed []string, err error) {
	code, err := classfile.DecodeCode(c, m)
	if err != nil || code == nil {
		return nil, nil, fmt.Errorf("%s: no code to check (%v)", name(c, m), err)
	}
	for _, f := range code.Frames {
		written = append(written, frameText(f))
	}
	// Encode writes the Code attribute: a copy of m's takes it.
	cp := *m
	cp.Attributes = slices.Clone(m.Attributes)
	if err := code.Encode(c, &cp, classfile.EncodeOptions{Frames: true, Hierarchy: h}); err != nil {
		return nil, nil, err
	}
	for _, f := range code.Frames {
		computed = append(computed, frameText(f))
	}
	return written, computed, nil
}

func find(frames []string, prefix string) string {
	for _, f := range frames {
		if strings.HasPrefix(f, prefix) {
			return f
		}
	}
	return ""
}

// frameText formats a frame as "offset: [locals] [stack]".
func frameText(f classfile.Frame) string {
	return strconv.Itoa(f.At.Offset) + ": " + typesText(f.Locals) + " " + typesText(f.Stack)
}

var kindNames = [...]string{"top", "int", "float", "double", "long", "null", "uninitializedThis"}

func typesText(ts []classfile.VType) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		switch t.Kind {
		case classfile.VObject:
			parts[i] = t.Class
		case classfile.VUninitialized:
			parts[i] = "uninitialized@" + strconv.Itoa(t.New.Offset)
		default:
			parts[i] = kindNames[t.Kind]
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func name(c *classfile.Class, m *classfile.Member) string {
	return c.Name() + "." + c.MemberName(m) + c.MemberDesc(m)
}
