// Package javap lists class files in a readable form, as the JDK's javap
// -c -v does: Dump writes the header, the constant pool, the members with
// their decoded code (label offsets, switch tables, exception table, line
// numbers, local variables, stack map frames) and every attribute.
//
// It reads classes through package classfile's exported API only: Parse
// for the class, DecodeAttr for attributes, DecodeCode for method bodies.
// `weft classfile dump` is its command.
package javap
