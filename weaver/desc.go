package weaver

import (
	"strings"

	"github.com/weft-aop/weft/classfile"
)

// splitDesc splits a method descriptor into parameter descriptors and the
// return descriptor. Malformed descriptors give what could be read.
func splitDesc(desc string) (params []string, ret string) {
	i := strings.IndexByte(desc, '(')
	j := strings.LastIndexByte(desc, ')')
	if i != 0 || j < 0 {
		return nil, "V"
	}
	s := desc[1:j]
	for len(s) > 0 {
		n := fieldDescLen(s)
		params = append(params, s[:n])
		s = s[n:]
	}
	return params, desc[j+1:]
}

// fieldDescLen returns the length of the field descriptor at the start of s.
func fieldDescLen(s string) int {
	i := 0
	for i < len(s) && s[i] == '[' {
		i++
	}
	if i < len(s) && s[i] == 'L' {
		if k := strings.IndexByte(s[i:], ';'); k >= 0 {
			return i + k + 1
		}
		return len(s)
	}
	if i < len(s) {
		return i + 1
	}
	return len(s)
}

// slots is the number of local/stack slots a value of descriptor d takes.
func slots(d string) int {
	switch d {
	case "J", "D":
		return 2
	case "V":
		return 0
	}
	return 1
}

func isPrim(d string) bool { return len(d) == 1 }

// loadOp, storeOp and returnOp pick the typed instruction for descriptor d.
func loadOp(d string) uint16 {
	switch d {
	case "J":
		return classfile.OpLload
	case "F":
		return classfile.OpFload
	case "D":
		return classfile.OpDload
	case "I", "Z", "B", "C", "S":
		return classfile.OpIload
	}
	return classfile.OpAload
}

// storeOp is loadOp's store: the JVM numbers xstore as xload plus a constant.
func storeOp(d string) uint16 { return loadOp(d) + classfile.OpIstore - classfile.OpIload }

// classDesc turns an internal class name or array descriptor into a field
// descriptor.
func classDesc(name string) string {
	if strings.HasPrefix(name, "[") {
		return name
	}
	return "L" + name + ";"
}

// descClass turns a reference field descriptor into the operand of
// checkcast/instanceof (internal name or array descriptor).
func descClass(d string) string {
	if strings.HasPrefix(d, "L") && strings.HasSuffix(d, ";") {
		return d[1 : len(d)-1]
	}
	return d
}

// vtype is the verification type of a value of descriptor d.
func vtype(d string) classfile.VType {
	switch d {
	case "I", "Z", "B", "C", "S":
		return classfile.VType{Kind: classfile.VInteger}
	case "F":
		return classfile.VType{Kind: classfile.VFloat}
	case "J":
		return classfile.VType{Kind: classfile.VLong}
	case "D":
		return classfile.VType{Kind: classfile.VDouble}
	}
	return classfile.VType{Kind: classfile.VObject, Class: descClass(d)}
}

// boxes maps a primitive descriptor to its wrapper class.
var boxes = map[string]string{
	"I": "java/lang/Integer", "Z": "java/lang/Boolean", "B": "java/lang/Byte",
	"C": "java/lang/Character", "S": "java/lang/Short", "J": "java/lang/Long",
	"F": "java/lang/Float", "D": "java/lang/Double",
}

// unboxers names the method that unboxes a wrapper to the primitive.
var unboxers = map[string]string{
	"I": "intValue", "Z": "booleanValue", "B": "byteValue", "C": "charValue",
	"S": "shortValue", "J": "longValue", "F": "floatValue", "D": "doubleValue",
}

// typeName writes a field descriptor as AspectJ prints types: "int",
// "java.lang.String[]", "java.util.Map$Entry".
func typeName(d string) string {
	dims := 0
	for dims < len(d) && d[dims] == '[' {
		dims++
	}
	base := d[dims:]
	var s string
	switch base {
	case "I":
		s = "int"
	case "Z":
		s = "boolean"
	case "B":
		s = "byte"
	case "C":
		s = "char"
	case "S":
		s = "short"
	case "J":
		s = "long"
	case "F":
		s = "float"
	case "D":
		s = "double"
	case "V":
		s = "void"
	default:
		s = binaryName(descClass(base))
	}
	return s + strings.Repeat("[]", dims)
}

// binaryName turns an internal name into a binary name (dots for slashes).
func binaryName(internal string) string {
	if strings.HasPrefix(internal, "[") {
		return typeName(internal)
	}
	return strings.ReplaceAll(internal, "/", ".")
}
