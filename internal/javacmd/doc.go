// Package javacmd is the model of a JDK launcher's command line: the
// arguments of `java` (and of `javac`, `jar`, `jshell` and the JDK's other
// tools) read once, the way the launcher reads them, into one Line that
// every stage of weft reads.
//
// Parse expands @argfiles with the launcher's quoting rules, finds the
// class path (-cp, -classpath, --class-path, $CLASSPATH, or the -jar file
// and its manifest's Class-Path), the module path, the main class, jar,
// module or source file, and where the program's own arguments begin; a
// tool's JVM options are its -J options. A stage that changes the command
// makes a new Line (WithClassPath, WithJVMOptions); Args writes a Line back
// out as arguments, its argfiles expanded.
package javacmd
