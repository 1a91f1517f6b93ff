// Package classpath finds the class files that weaving reads: directories,
// jars, single class files and a JDK's modules image.
//
// A Source supplies a class's bytes by internal name and walks every class
// it holds; OpenSource opens one from its command-line spec ("DIR",
// "FILE.jar", "FILE.class", "jdk:" or "jdk:M1,M2") and OpenClassPath a
// class path of them, in order. SourceHierarchy (NewHierarchy) answers the
// classfile.Hierarchy questions of frame computation and type matching
// from a list of sources, as a class path does, reading only class headers
// (classfile.ReadClassInfo). DefaultJavaHome and JavaHomeOf find the JDK to
// read. The modules image itself is read by package classfile/jimage; the
// class files by package classfile.
package classpath
