// Package classfile reads, edits and writes Java class files.
//
// The model follows ASM: Parse decodes the constant pool, members and
// attributes of a class; Class.Bytes writes them back. Attributes are kept
// as raw bytes unless a caller decodes one, so a parse followed by a write
// with no edit gives back the identical bytes. Method bodies are edited
// through the label-based code model in code.go (DecodeCode / Code.Encode);
// a body decoded and encoded again with no edit also comes back identical
// (ReencodeCode; the tests check every class of the JDK's image). frames.go
// recomputes max stack, max locals and the StackMapTable by a data-flow
// pass over that model.
//
// This package neither finds class files nor prints them: the JDK's
// modules image is read by the subpackage jimage, class sources
// (directories, jars, the image) are found by package classpath, and the
// subpackage javap lists a class as javap does. ReadClassInfo reads just
// a class's header, for a Hierarchy.
package classfile
