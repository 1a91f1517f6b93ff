package classfile

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// FuzzParse feeds arbitrary bytes to Parse, seeded with real classes of
// java.base. Parse must not panic; its errors are *FormatError; what it
// accepts re-encodes to the same bytes, and the header reader agrees.
func FuzzParse(f *testing.F) {
	addJavaBaseSeeds(f, "java/lang/Object", "java/lang/String", "java/util/HashMap$TreeNode",
		"java/lang/invoke/MethodHandles$Lookup", "java/lang/Record", "module-info",
		"jdk/internal/math/FDBigInteger", "java/lang/annotation/Retention")
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("fuzz", b)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is no *FormatError", err, err)
			}
			if fe.Offset < 0 || fe.Offset > len(b) {
				t.Fatalf("error offset %d outside the %d-byte input: %v", fe.Offset, len(b), err)
			}
			return
		}
		if out := c.Bytes(); !bytes.Equal(out, b) {
			t.Fatalf("accepted input does not round-trip")
		}
		// Parse leaves super and interface indices unchecked; the header
		// reader rejects bad ones and must otherwise agree.
		ci, err := ReadClassInfo("fuzz", b)
		var fe *FormatError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("ReadClassInfo error %v (%T) is no *FormatError", err, err)
		}
		if want := classInfoOf(c); err == nil && !reflect.DeepEqual(ci, want) {
			t.Fatalf("ReadClassInfo = %+v, Parse says %+v", ci, want)
		}
	})
}

// addJavaBaseSeeds adds the named java.base classes to f's seed corpus.
func addJavaBaseSeeds(f *testing.F, names ...string) {
	src, err := OpenTestJDK(jvmtest.JavaHome(f), "java.base")
	if err != nil {
		f.Fatal(err)
	}
	defer src.Close()
	for _, name := range names {
		b, err := src.Class(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}
