package classfile

import (
	"errors"
	"reflect"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// classInfoOf is what ReadClassInfo must agree with.
func classInfoOf(c *Class) *ClassInfo {
	ci := &ClassInfo{Name: c.Name(), Super: c.SuperName(), Access: c.Access}
	if len(c.Interfaces) > 0 {
		ci.Interfaces = c.InterfaceNames()
	}
	return ci
}

// TestReadClassInfoJavaBase compares the header reader with Parse on every
// class of java.base.
func TestReadClassInfoJavaBase(t *testing.T) {
	src, err := OpenTestJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := 0
	err = src.Walk(func(e TestEntry) error {
		b, err := e.Read()
		if err != nil {
			return err
		}
		c, err := Parse(e.Path, b)
		if err != nil {
			return err
		}
		ci, err := ReadClassInfo(e.Path, b)
		if err != nil {
			return err
		}
		if want := classInfoOf(c); !reflect.DeepEqual(ci, want) {
			t.Fatalf("%s: ReadClassInfo = %+v, Parse says %+v", e.Path, ci, want)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5000 {
		t.Fatalf("only %d classes in java.base", n)
	}
}

func TestReadClassInfoMalformed(t *testing.T) {
	src, err := OpenTestJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	b, err := src.Class("java/util/ArrayList")
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for i := 0; i < len(b); i += 7 { // every prefix would be slow; most of them
		_, err := ReadClassInfo("ArrayList", b[:i])
		var fe *FormatError
		if err == nil {
			ok++ // a prefix past the interfaces is a complete header
		} else if !errors.As(err, &fe) {
			t.Fatalf("prefix %d: error %v is no *FormatError", i, err)
		}
	}
	if ok == 0 || ok == len(b)/7+1 {
		t.Fatalf("%d of the prefixes read without error", ok)
	}
}
