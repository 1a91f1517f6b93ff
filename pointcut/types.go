package pointcut

import (
	"errors"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Types are handled as JVM descriptors throughout ("I", "Ljava/lang/String;",
// "[[I"): shadows carry descriptors and internal names, and advice binding
// compares descriptors with the advice class file's.

var primDesc = map[string]string{
	"boolean": "Z", "byte": "B", "char": "C", "short": "S", "int": "I",
	"long": "J", "float": "F", "double": "D", "void": "V",
}

var primName = map[byte]string{
	'Z': "boolean", 'B': "byte", 'C': "char", 'S': "short", 'I': "int",
	'J': "long", 'F': "float", 'D': "double", 'V': "void",
}

// boxOf maps a primitive descriptor to its wrapper's internal name.
var boxOf = map[string]string{
	"Z": "java/lang/Boolean", "B": "java/lang/Byte", "C": "java/lang/Character",
	"S": "java/lang/Short", "I": "java/lang/Integer", "J": "java/lang/Long",
	"F": "java/lang/Float", "D": "java/lang/Double",
}

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

// dims returns the number of leading '[' of a descriptor.
func dims(desc string) int {
	n := 0
	for n < len(desc) && desc[n] == '[' {
		n++
	}
	return n
}

func isPrimDesc(d string) bool { return len(d) == 1 && primName[d[0]] != "" }

func isRefDesc(d string) bool {
	switch {
	case len(d) >= 2 && d[0] == '[':
		e := d[dims(d):]
		return isPrimDesc(e) && e != "V" || isRefDesc(e)
	case len(d) > 2 && d[0] == 'L':
		return d[len(d)-1] == ';'
	}
	return false
}

// classDesc returns the descriptor of an internal name or array descriptor.
func classDesc(internal string) string {
	if strings.HasPrefix(internal, "[") {
		return internal
	}
	return "L" + internal + ";"
}

// internalOf returns the internal name of a class descriptor, or the array
// descriptor itself (what checkcast and instanceof take).
func internalOf(desc string) string {
	if strings.HasPrefix(desc, "L") && strings.HasSuffix(desc, ";") {
		return desc[1 : len(desc)-1]
	}
	return desc
}

// javaName returns the source form of a descriptor: "java.lang.String[]".
func javaName(desc string) string {
	n := dims(desc)
	e := desc[n:]
	var s string
	if len(e) == 1 && primName[e[0]] != "" {
		s = primName[e[0]]
	} else {
		s = strings.ReplaceAll(internalOf(e), "/", ".")
	}
	return s + strings.Repeat("[]", n)
}

// splitMethodDesc returns the parameter descriptors and the return
// descriptor of a method descriptor.
func splitMethodDesc(desc string) (params []string, ret string, ok bool) {
	if !strings.HasPrefix(desc, "(") {
		return nil, "", false
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		j := i
		for j < len(desc) && desc[j] == '[' {
			j++
		}
		if j >= len(desc) {
			return nil, "", false
		}
		if desc[j] == 'L' {
			k := strings.IndexByte(desc[j:], ';')
			if k < 2 { // no ';', or an empty class name
				return nil, "", false
			}
			j += k
		} else if primName[desc[j]] == "" || desc[j] == 'V' {
			return nil, "", false
		}
		params = append(params, desc[i:j+1])
		i = j + 1
	}
	if i >= len(desc) {
		return nil, "", false
	}
	ret = desc[i+1:]
	if !(ret == "V" || isPrimDesc(ret) || isRefDesc(ret)) {
		return nil, "", false
	}
	return params, ret, true
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
		if d, ok := primDesc[parts[0]]; ok {
			if d == "V" && ndims > 0 {
				return "", errors.New("void[] is not a type")
			}
			return arr + d, nil
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
	sp, tp := isPrimDesc(s), isPrimDesc(t)
	switch {
	case sp && tp:
		if strings.Contains(widens[s], t) {
			return advice.Always
		}
		return advice.Never
	case tp:
		if s == classDesc(boxOf[t]) {
			return advice.Always
		}
		return advice.Never
	case sp:
		if t == classDesc(boxOf[s]) {
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
	ds, dt := dims(s), dims(t)
	if ds > 0 {
		if dt == 0 {
			return arraySupers[t]
		}
		es, et := s[1:], t[1:]
		if isPrimDesc(es) || isPrimDesc(et) {
			return es == et
		}
		return assignable(es, et, h)
	}
	if dt > 0 {
		return false
	}
	want := internalOf(t)
	found, _ := supers(h, internalOf(s), func(c string) bool { return c == want })
	return found
}

// castable reports whether a value of static type s may be an instance of
// t, or whether that cannot be ruled out for lack of class information.
func castable(s, t string, h classfile.Hierarchy) bool {
	if assignable(t, s, h) {
		return true
	}
	ds, dt := dims(s), dims(t)
	if ds > 0 || dt > 0 {
		if ds > 0 && dt > 0 {
			es, et := s[1:], t[1:]
			if isPrimDesc(es) || isPrimDesc(et) {
				return es == et
			}
			return castable(es, et, h)
		}
		return dt > 0 && arraySupers[s]
	}
	if h == nil {
		return true
	}
	si, err1 := h.Lookup(internalOf(s))
	ti, err2 := h.Lookup(internalOf(t))
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
