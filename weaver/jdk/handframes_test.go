package jdk

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/framecheck"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestHandFramesMatchAnalysis runs the frame analysis over the code this
// package writes frames for by hand: every class definer's wrapper
// (definers.go), whose frames must be the analysis's, and EntryHook's
// entry (hand.go) in every method of a few java.base classes, whose frame
// after the hook must be the analysis's there (the methods' other frames
// are javac's).
func TestHandFramesMatchAnalysis(t *testing.T) {
	jdk, err := classpath.OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer jdk.Close()
	h := classpath.NewHierarchy(jdk)
	read := func(name string, patch func(string, []byte) ([]byte, error)) (orig, out *classfile.Class) {
		b, err := jdk.Class(name)
		if err != nil {
			t.Fatal(err)
		}
		patched, err := patch(name, b)
		if err != nil {
			t.Fatal(err)
		}
		if orig, err = classfile.Parse(name, b); err == nil {
			out, err = classfile.Parse(name, patched)
		}
		if err != nil {
			t.Fatal(err)
		}
		return orig, out
	}

	wrappers := 0
	for owner := range definers {
		_, c := read(owner, PatchDefiners)
		for _, m := range c.Methods {
			if !strings.HasPrefix(c.MemberName(m), "weft$") {
				continue
			}
			wrappers++
			if n, err := framecheck.Method(c, m, h); err != nil || n == 0 {
				t.Errorf("wrapper: %d frames, %v", n, err)
			}
		}
	}
	if want := len(definers["java/lang/ClassLoader"]) + len(definers["jdk/internal/misc/Unsafe"]); wrappers != want {
		t.Errorf("%d wrappers checked, want %d", wrappers, want)
	}

	hook := &EntryHook{Owner: "weft/rt/Hook", Name: "enter"}
	entries := 0
	for _, name := range []string{"java/lang/String", "java/util/ArrayList", "java/util/HashMap"} {
		orig, c := read(name, func(name string, b []byte) ([]byte, error) {
			w, err := hook.WeaveClass(name+".class", b)
			if err != nil || len(w.Warnings) > 0 {
				t.Fatalf("%s: %v %q", name, err, w.Warnings)
			}
			return w.Class, nil
		})
		for i, m := range c.Methods {
			code, err := classfile.DecodeCode(orig, orig.Methods[i])
			if err != nil {
				t.Fatal(err)
			}
			if code == nil || len(code.Frames) > 0 && code.Frames[0].At.Offset == 0 {
				continue // javac's frame at the entry stands
			}
			woven, err := classfile.DecodeCode(c, m)
			if err != nil || len(woven.Frames) == 0 {
				t.Fatalf("%s.%s: no frame after the hook (%v)", name, c.MemberName(m), err)
			}
			entries++
			if err := framecheck.At(c, m, h, woven.Frames[0].At.Offset); err != nil {
				t.Errorf("entry hook: %v", err)
			}
		}
	}
	if entries < 100 {
		t.Errorf("%d hooked entries checked: want every method of String, ArrayList and HashMap", entries)
	}
}
