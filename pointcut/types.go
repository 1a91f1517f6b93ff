package pointcut

import (
	"errors"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Types are handled as JVM descriptors throughout ("I", "Ljava/lang/String;",
// "[[I"): shadows carry descriptors and internal names, and advice binding
// compares descriptors with the advice class file's. classfile.Type parses
// and names them; this file holds the Java language's rules on top.

// widens[a] lists the primitives a widens to (JLS 5.1.2), a itself included.
var widens = map[string]string{
	"Z": "Z", "B": "BSIJFD", "S": "SIJFD", "C": "CIJFD", "I": "IJFD", "J": "JFD", "F": "FD", "D": "D",
}

// javaLang is the public top-level types of java.lang (JDK 17), which
// AspectJ lets an aspect name without their package, as Java does.
var javaLang = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`AbstractMethodError Appendable ArithmeticException
	ArrayIndexOutOfBoundsException ArrayStoreException AssertionError AutoCloseable Boolean
	BootstrapMethodError Byte Character CharSequence Class ClassCastException ClassCircularityError
	ClassFormatError ClassLoader ClassNotFoundException ClassValue CloneNotSupportedException
	Cloneable Comparable Compiler Deprecated Double Enum EnumConstantNotPresentException Error
	Exception ExceptionInInitializerError Float FunctionalInterface IllegalAccessError
	IllegalAccessException IllegalArgumentException IllegalCallerException
	IllegalMonitorStateException IllegalStateException IllegalThreadStateException
	IncompatibleClassChangeError IndexOutOfBoundsException InheritableThreadLocal
	InstantiationError InstantiationException Integer InternalError InterruptedException
	Iterable LayerInstantiationException LinkageError Long Math MatchException Module ModuleLayer
	NegativeArraySizeException NoClassDefFoundError NoSuchFieldError NoSuchFieldException
	NoSuchMethodError NoSuchMethodException NullPointerException Number NumberFormatException
	Object OutOfMemoryError Override Package Process ProcessBuilder ProcessHandle Readable Record
	ReflectiveOperationException Runnable Runtime RuntimeException RuntimePermission SafeVarargs
	SecurityException SecurityManager Short StackOverflowError StackTraceElement StackWalker
	StrictMath String StringBuffer StringBuilder StringIndexOutOfBoundsException
	SuppressWarnings System Thread ThreadDeath ThreadGroup ThreadLocal Throwable
	TypeNotPresentException UnknownError UnsatisfiedLinkError UnsupportedClassVersionError
	UnsupportedOperationException VerifyError VirtualMachineError Void`) {
		javaLang[n] = true
	}
}

// isKeywordType reports whether name is a primitive type's or void.
func isKeywordType(name string) bool {
	_, ok := classfile.KeywordType(name)
	return ok
}

// typeNameDesc turns an exact Java type as written (dotted parts, array
// dimensions) into a descriptor. Unqualified names must be primitives or
// java.lang types. A part starting with an upper-case letter after another
// such part is taken as a nested class (java.util.Map.Entry →
// java/util/Map$Entry), following Java's naming conventions.
func typeNameDesc(parts []string, ndims int) (string, error) {
	for _, p := range parts {
		if isWild(p) {
			return "", errors.New("a wildcard is not allowed here: write an exact type")
		}
	}
	arr := strings.Repeat("[", ndims)
	if len(parts) == 1 {
		if t, ok := classfile.KeywordType(parts[0]); ok {
			if t == classfile.Void && ndims > 0 {
				return "", errors.New("void[] is not a type")
			}
			return arr + string(t), nil
		}
		if javaLang[parts[0]] {
			return arr + "Ljava/lang/" + parts[0] + ";", nil
		}
		return "", errors.New("unknown type " + parts[0] + ": only primitives and java.lang types may be written without their package")
	}
	var b strings.Builder
	inClass := false
	for i, p := range parts {
		if i > 0 {
			if inClass {
				b.WriteByte('$')
			} else {
				b.WriteByte('/')
			}
		}
		b.WriteString(p)
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			inClass = true
		}
	}
	return arr + "L" + b.String() + ";", nil
}

// supers calls fn for each proper supertype of the class (internal name),
// breadth first, until fn returns true. It reports whether every class on
// the way was found.
func supers(h classfile.Hierarchy, class string, fn func(string) bool) (found, complete bool) {
	if h == nil {
		return false, false
	}
	if ch, ok := h.(*cachedHierarchy); ok {
		ti := ch.types.info(class)
		for _, s := range ti.ancestors {
			if fn(s) {
				return true, ti.complete
			}
		}
		return false, ti.complete
	}
	complete = true
	seen := map[string]bool{class: true}
	queue := []string{class}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		ci, err := h.Lookup(c)
		if err != nil || ci == nil {
			complete = false
			continue
		}
		next := append([]string{ci.Super}, ci.Interfaces...)
		for _, s := range next {
			if s == "" || seen[s] {
				continue
			}
			seen[s] = true
			if fn(s) {
				return true, complete
			}
			queue = append(queue, s)
		}
	}
	return false, complete
}

// Instance tests decide statically, where they can, whether a value of
// static type s (a descriptor) is an instance of t, following AspectJ's
// rules for this/target/args: Object takes every value (primitives boxed),
// a primitive type takes its own values, the wider primitives' and its
// wrapper's; a reference type takes its subtypes (Always), may take values
// of a supertype or an unrelated interface (Maybe: a runtime instanceof),
// and never takes a value of an unrelated class (Never).
func instanceTest(s, t string, h classfile.Hierarchy) advice.Verdict {
	if t == "Ljava/lang/Object;" || s == t {
		return advice.Always
	}
	st, tt := classfile.Type(s), classfile.Type(t)
	sp, tp := st.IsPrimitive(), tt.IsPrimitive()
	switch {
	case sp && tp:
		if strings.Contains(widens[s], t) {
			return advice.Always
		}
		return advice.Never
	case tp:
		if st == tt.Boxed() {
			return advice.Always
		}
		return advice.Never
	case sp:
		if tt == st.Boxed() {
			return advice.Always
		}
		return advice.Never
	}
	if assignable(s, t, h) {
		return advice.Always
	}
	if castable(s, t, h) {
		return advice.Maybe
	}
	return advice.Never
}

var arraySupers = map[string]bool{
	"Ljava/lang/Object;": true, "Ljava/lang/Cloneable;": true, "Ljava/io/Serializable;": true,
}

// assignable reports whether s is known to be a subtype of t (both
// reference descriptors).
func assignable(s, t string, h classfile.Hierarchy) bool {
	if s == t || t == "Ljava/lang/Object;" {
		return true
	}
	st, tt := classfile.Type(s), classfile.Type(t)
	ds, dt := st.Dims(), tt.Dims()
	if ds > 0 {
		if dt == 0 {
			return arraySupers[t]
		}
		es, et := st.Component(), tt.Component()
		if es.IsPrimitive() || et.IsPrimitive() {
			return es == et
		}
		return assignable(string(es), string(et), h)
	}
	if dt > 0 {
		return false
	}
	want := tt.InternalName()
	found, _ := supers(h, st.InternalName(), func(c string) bool { return c == want })
	return found
}

// castable reports whether a value of static type s may be an instance of
// t, or whether that cannot be ruled out for lack of class information.
func castable(s, t string, h classfile.Hierarchy) bool {
	if assignable(t, s, h) {
		return true
	}
	st, tt := classfile.Type(s), classfile.Type(t)
	ds, dt := st.Dims(), tt.Dims()
	if ds > 0 || dt > 0 {
		if ds > 0 && dt > 0 {
			es, et := st.Component(), tt.Component()
			if es.IsPrimitive() || et.IsPrimitive() {
				return es == et
			}
			return castable(string(es), string(et), h)
		}
		return dt > 0 && arraySupers[s]
	}
	if h == nil {
		return true
	}
	si, err1 := h.Lookup(st.InternalName())
	ti, err2 := h.Lookup(tt.InternalName())
	if err1 != nil || err2 != nil || si == nil || ti == nil {
		return true // unknown: let the runtime test decide
	}
	if si.IsInterface() && ti.IsInterface() {
		return true
	}
	if si.IsInterface() {
		return ti.Access&classfile.AccFinal == 0
	}
	if ti.IsInterface() {
		return si.Access&classfile.AccFinal == 0
	}
	return false
}
