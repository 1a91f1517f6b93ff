package jdk

import (
	"bytes"
	"sync"

	"github.com/weft-aop/weft/classfile"
)

// Exclusions is the JDK exclusion list: the methods that must stay
// unwoven for the JVM to run at all, or to run advice under the right
// thread (docs/jdk.md has one entry per rule, each with the test that
// shows why). It is deliberately minimal: everything else in the JDK,
// <clinit>, <init>, java.lang.invoke, Unsafe and annotated methods
// included, is woven.
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
//  3. The code that mounts, unmounts and yields a virtual thread
//     (JDK 21 on): the methods annotated with one of mountAnnotations
//     (Thread.currentThread() changes inside them, or they run half on
//     the carrier: a guard's thread and an advice call's would differ),
//     and every method of the classes in carrierClasses (a continuation's
//     run, enter and yield: they run as the virtual thread between its
//     mount and unmount, outside its own frames, and a yield returns into
//     them on another carrier). Woven, VirtualThread.mount's after advice
//     cleared the flag of the virtual thread it had just mounted (set as
//     it parked inside advice, or inherited), and Continuation.run's
//     entry and exit, split by each yield, shifted the profiler's context
//     of the virtual thread. Data per JDK: the annotations are found in
//     the class files, the classes named here.
//
// Some rules depend on the method's code or annotations, so the driver
// calls Note on each class before the weaver asks Excluded about its
// methods.
type Exclusions struct {
	emptyFinalize    sync.Map // class internal name → true
	jfrInstrumentors sync.Map // class internal name → true
	mountMethods     sync.Map // "class.name(desc)" → true
}

// jfrInstrumentor is the annotation JFR's instrumentor classes carry; its
// name is enough for the driver to tell which classes to Note.
const jfrInstrumentor = "Ljdk/jfr/internal/instrument/JIInstrumentationTarget;"

// mountAnnotations mark the JDK's methods in a virtual thread's mount
// transitions: @ChangesCurrentThread (JDK 21 on: VirtualThread.mount,
// unmount, runContinuation, and in JDK 21 switchToCarrierThread and
// switchToVirtualThread), @JvmtiMountTransition (JDK 21's Java methods of
// the transitions; natives since), @JvmtiHideEvents (JDK 24 on: the
// continuation's entry and yield frames, the virtual thread's task
// wrapper).
var mountAnnotations = []string{
	"Ljdk/internal/vm/annotation/ChangesCurrentThread;",
	"Ljdk/internal/vm/annotation/JvmtiMountTransition;",
	"Ljdk/internal/vm/annotation/JvmtiHideEvents;",
}

// carrierClasses are left unwoven whole: every method of a continuation
// (run, enter, enter0, yield, yield0 and their helpers) runs on the
// carrier's side of a mount, in every JDK that has virtual threads.
var carrierClasses = map[string]bool{
	"jdk/internal/vm/Continuation": true,
}

// Note records the code-dependent exclusions of class c.
func (x *Exclusions) Note(c *classfile.Class) {
	if m := c.FindMethod("finalize", "()V"); m != nil && isEmptyMethod(c, m) {
		x.emptyFinalize.Store(c.Name(), true)
	}
	if ok, _ := c.HasAnnotation(c.Attributes, jfrInstrumentor); ok {
		x.jfrInstrumentors.Store(c.Name(), true)
	}
	for _, m := range c.Methods {
		for _, a := range mountAnnotations {
			if ok, _ := c.HasAnnotation(m.Attributes, a); ok {
				x.mountMethods.Store(c.Name()+"."+c.MemberName(m)+c.MemberDesc(m), true)
				break
			}
		}
	}
}

// Notable reports whether Note may learn anything from a class's bytes.
func Notable(data []byte) bool {
	if bytes.Contains(data, []byte("finalize")) || bytes.Contains(data, []byte(jfrInstrumentor)) {
		return true
	}
	for _, a := range mountAnnotations {
		if bytes.Contains(data, []byte(a)) {
			return true
		}
	}
	return false
}

// Excluded reports whether the method must not be woven.
func (x *Exclusions) Excluded(class, method, desc string) bool {
	if carrierClasses[class] {
		return true
	}
	if _, ok := x.jfrInstrumentors.Load(class); ok {
		return true
	}
	if method == "finalize" && desc == "()V" {
		_, ok := x.emptyFinalize.Load(class)
		return ok
	}
	_, ok := x.mountMethods.Load(class + "." + method + desc)
	return ok
}

// isEmptyMethod reports whether m's code is a lone `return`, which is
// what HotSpot's Method::is_empty_method tests.
func isEmptyMethod(c *classfile.Class, m *classfile.Member) bool {
	a := c.Attr(m.Attributes, "Code")
	// max_stack u2, max_locals u2, code_length u4, code...
	return a != nil && len(a.Info) >= 9 && a.Info[4] == 0 && a.Info[5] == 0 && a.Info[6] == 0 &&
		a.Info[7] == 1 && a.Info[8] == classfile.OpReturn
}
