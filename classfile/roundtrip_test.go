package classfile

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// rewriteClass is the round trip of `weft classfile rewrite` without
// --frames: parse, decode and re-encode every method body, encode the class.
func rewriteClass(name string, b []byte) ([]byte, error) {
	c, err := Parse(name, b)
	if err != nil {
		return nil, err
	}
	if _, err := ReencodeCode(c, EncodeOptions{}); err != nil {
		return nil, err
	}
	return c.Bytes(), nil
}

// roundTripSource rewrites every class of src on all cores and compares
// each with its original bytes. It fails the test naming the classes that
// differ (up to ten, and how many) and returns the class count. each, if
// not nil, is called with every class's bytes on the test's goroutine, in
// the source's order, before the class is rewritten: other checks of every
// class share the one read.
func roundTripSource(t *testing.T, src TestSource, each func(e TestEntry, b []byte) error) int {
	t.Helper()
	type class struct {
		e TestEntry
		b []byte
	}
	classes := make(chan class, 64)
	var (
		mu    sync.Mutex
		n     int
		fails []string
		wg    sync.WaitGroup
	)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range classes {
				msg := roundTripClassBytes(c.e, c.b)
				mu.Lock()
				n++
				if msg != "" {
					fails = append(fails, path.Join(c.e.Module, c.e.Path)+": "+msg)
				}
				mu.Unlock()
			}
		}()
	}
	err := src.Walk(func(e TestEntry) error {
		b, err := e.Read()
		if err != nil {
			return fmt.Errorf("%s/%s: %v", e.Module, e.Path, err)
		}
		if each != nil {
			if err := each(e, b); err != nil {
				return err
			}
		}
		classes <- class{e, b}
		return nil
	})
	close(classes)
	wg.Wait()
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if len(fails) > 0 {
		slices.Sort(fails)
		t.Fatalf("%s: %d of %d classes do not round-trip byte for byte:\n%s",
			src, len(fails), n, strings.Join(fails[:min(10, len(fails))], "\n"))
	}
	return n
}

// roundTripClassBytes rewrites one class and says how its bytes differ
// from the original b, or returns "".
func roundTripClassBytes(e TestEntry, b []byte) string {
	out, err := rewriteClass(e.Path, b)
	if err != nil {
		return err.Error()
	}
	if bytes.Equal(out, b) {
		return ""
	}
	return describeDifference(e.Path, b, out)
}

// describeDifference names the first method whose Code attribute changed,
// or else the first differing byte of the class.
func describeDifference(name string, orig, out []byte) string {
	c0, err0 := Parse(name, orig)
	c1, err1 := Parse(name, out)
	if err0 == nil && err1 == nil && len(c0.Methods) == len(c1.Methods) {
		for i, m := range c0.Methods {
			a0, a1 := c0.Attr(m.Attributes, "Code"), c1.Attr(c1.Methods[i].Attributes, "Code")
			if a0 != nil && a1 != nil && !bytes.Equal(a0.Info, a1.Info) {
				return fmt.Sprintf("method %s%s: Code attribute %v became %v", c0.MemberName(m), c0.MemberDesc(m),
					codeAttrNames(c0, a0.Info), codeAttrNames(c1, a1.Info))
			}
		}
	}
	i := 0
	for i < len(out) && i < len(orig) && out[i] == orig[i] {
		i++
	}
	return fmt.Sprintf("differs from offset %d (%d bytes in, %d out)", i, len(orig), len(out))
}

// codeAttrNames lists the attributes of a Code attribute's info, each
// with its length.
func codeAttrNames(c *Class, info []byte) []string {
	r := &reader{b: info}
	r.u2()
	r.u2()
	r.bytes(int(r.u4()))
	r.bytes(8 * r.count(8))
	var names []string
	for i, n := 0, r.count(6); i < n && r.err == nil; i++ {
		name := c.Pool.Utf8(r.u2())
		size := r.u4()
		r.bytes(int(size))
		names = append(names, fmt.Sprintf("%s(%d)", name, size))
	}
	return names
}

// TestJDKEveryClass reads every class of every module of the local JDK's
// image once and checks two things of each (one walk, not one per check):
//   - rewritten as `weft classfile rewrite jdk:` does, its bytes are the
//     image's (all must be identical);
//   - every modelled attribute decodes and re-encodes to the same bytes
//     (attrRoundTrip), and every attribute the JDK holds is seen.
//
// That javap.Dump lists every class is TestDumpJDKEveryClass's check, in
// package javap (which imports classfile).
func TestJDKEveryClass(t *testing.T) {
	src, err := OpenTestJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	start := time.Now()
	attrs := newAttrRoundTrip(t)
	n := roundTripSource(t, src, func(e TestEntry, b []byte) error {
		c, err := Parse(e.Module+"/"+e.Path, b)
		if err != nil {
			return err
		}
		attrs.check(c)
		if t.Failed() {
			return errors.New("stopping at the first failing class")
		}
		return nil
	})
	t.Logf("%d classes of %d modules rewritten byte-identically in %v", n, len(src.Modules()), time.Since(start))
	if n <= 20000 {
		t.Fatalf("only %d classes in the JDK image: is it complete?", n)
	}
	attrs.report(n)
}

// TestRoundTripEmptyLocalVariableTable: the static initializer of
// java.util.logging.LogManager$7 has a LocalVariableTable with no entries
// (as have 348 other JDK classes); the code model used to drop it.
func TestRoundTripEmptyLocalVariableTable(t *testing.T) {
	src, err := OpenTestJDK(jvmtest.JavaHome(t), "java.logging")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	const name = "java/util/logging/LogManager$7"
	b, err := src.Class(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	m := c.FindMethod("<clinit>", "()V")
	if m == nil {
		t.Fatalf("%s has no static initializer", name)
	}
	if attrs := codeAttrNames(c, c.Attr(m.Attributes, "Code").Info); !slices.Contains(attrs, "LocalVariableTable(2)") {
		t.Fatalf("%s.<clinit> has no empty LocalVariableTable any more (%v): pick another class", name, attrs)
	}
	checkRoundTrip(t, name, b)
}

// objectWithInit returns java/lang/Object's class file with the Code
// attribute of <init> replaced by the one build returns, given the pool.
func objectWithInit(t *testing.T, build func(p *Pool) []byte) []byte {
	t.Helper()
	src, err := OpenTestJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	b, err := src.Class("java/lang/Object")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("java/lang/Object", b)
	if err != nil {
		t.Fatal(err)
	}
	c.Attr(c.FindMethod("<init>", "()V").Attributes, "Code").Info = build(c.Pool)
	return c.Bytes()
}

// checkRoundTrip fails the test if the class does not round-trip
// byte for byte.
func checkRoundTrip(t *testing.T, name string, b []byte) {
	t.Helper()
	out, err := rewriteClass(name, b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Fatalf("%s: %s", name, describeDifference(name, b, out))
	}
}

// TestRoundTripEmptyTables: every table the code model owns comes back
// when the method had it with no entries, in its place (ASM, for one,
// writes StackMapTable first).
func TestRoundTripEmptyTables(t *testing.T) {
	b := objectWithInit(t, func(p *Pool) []byte {
		info := []byte{0, 0, 0, 1, 0, 0, 0, 1, OpReturn, 0, 0, 0, 4}
		for _, table := range []string{"StackMapTable", "LocalVariableTypeTable", "LineNumberTable", "LocalVariableTable"} {
			info = be16(info, p.AddUtf8(table))
			info = append(info, 0, 0, 0, 2, 0, 0)
		}
		return info
	})
	checkRoundTrip(t, "java/lang/Object", b)
}

// TestRoundTripFrameForms: frames written in a longer form than needed
// (as ecj writes them) keep that form.
func TestRoundTripFrameForms(t *testing.T) {
	b := objectWithInit(t, func(p *Pool) []byte {
		code := []byte{
			OpIconst0, OpIfeq, 0, 3,
			OpIconst0, OpIfeq, 0, 3, // a frame here: same_frame_extended, delta 4
			OpReturn, // and here: full_frame, though nothing changed
		}
		info := []byte{0, 1, 0, 1, 0, 0, 0, byte(len(code))}
		info = append(info, code...)
		info = append(info, 0, 0, 0, 1)
		info = be16(info, p.AddUtf8("StackMapTable"))
		info = append(info, 0, 0, 0, 15, 0, 2, 251, 0, 4, 255, 0, 3, 0, 1, VObject)
		info = be16(info, p.AddClass("java/lang/Object"))
		return append(info, 0, 0)
	})
	checkRoundTrip(t, "java/lang/Object", b)
}
