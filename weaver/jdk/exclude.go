package jdk

import (
	"bytes"
	"sync"

	"github.com/weft-aop/weft/classfile"
)

// Exclusions is the JDK exclusion list: the methods that must stay
// unwoven for the JVM to run at all (docs/jdk.md has one entry per rule,
// each with the test that shows why). It is deliberately minimal:
// everything else in the JDK, <clinit>, <init>, java.lang.invoke, Unsafe
// and annotated methods included, is woven.
//
//  1. An empty finalize()V (its code is a lone `return`). HotSpot registers
//     an object for finalization only when its class overrides finalize
//     with a non-empty body; Object.finalize is empty. Weaving it would
//     make every object finalizable (and crashes during bootstrap).
//  2. Every method of a JFR instrumentor (a class of jdk.jfr annotated
//     @JIInstrumentationTarget): JFR copies these methods into the JDK
//     class they name (FileChannelImpl, Throwable, ...) when a recording
//     starts, where their calls of the instrumentor's sister class cannot
//     link (a package-private class of jdk.jfr, from java.base): the
//     merged methods throw IllegalAccessError and the JVM does not start.
//
// Some rules depend on the method's code, so the driver calls Note on each
// class before the weaver asks Excluded about its methods.
type Exclusions struct {
	emptyFinalize    sync.Map // class internal name → true
	jfrInstrumentors sync.Map // class internal name → true
}

// jfrInstrumentor is the annotation JFR's instrumentor classes carry; its
// name is enough for the driver to tell which classes to Note.
const jfrInstrumentor = "Ljdk/jfr/internal/instrument/JIInstrumentationTarget;"

// Note records the code-dependent exclusions of class c.
func (x *Exclusions) Note(c *classfile.Class) {
	if m := c.FindMethod("finalize", "()V"); m != nil && isEmptyMethod(c, m) {
		x.emptyFinalize.Store(c.Name(), true)
	}
	if ok, _ := c.HasAnnotation(c.Attributes, jfrInstrumentor); ok {
		x.jfrInstrumentors.Store(c.Name(), true)
	}
}

// Notable reports whether Note may learn anything from a class's bytes.
func Notable(data []byte) bool {
	return bytes.Contains(data, []byte("finalize")) || bytes.Contains(data, []byte(jfrInstrumentor))
}

// Excluded reports whether the method must not be woven.
func (x *Exclusions) Excluded(class, method, desc string) bool {
	if _, ok := x.jfrInstrumentors.Load(class); ok {
		return true
	}
	if method == "finalize" && desc == "()V" {
		_, ok := x.emptyFinalize.Load(class)
		return ok
	}
	return false
}

// isEmptyMethod reports whether m's code is a lone `return`, which is
// what HotSpot's Method::is_empty_method tests.
func isEmptyMethod(c *classfile.Class, m *classfile.Member) bool {
	a := c.Attr(m.Attributes, "Code")
	// max_stack u2, max_locals u2, code_length u4, code...
	return a != nil && len(a.Info) >= 9 && a.Info[4] == 0 && a.Info[5] == 0 && a.Info[6] == 0 &&
		a.Info[7] == 1 && a.Info[8] == classfile.OpReturn
}
