// Package launch is a program's weaving from options to exit: the library
// under weft's commands (run, serve, profile, leak, recrash, weave, jdk)
// and the end-to-end tests. A command fills one Options and makes one
// call: Run weaves the JDK and the class path (cached once per key),
// serves load-time weaving and runs the program; Serve serves load-time
// weaving to JVMs started by others; Weave weaves jars and class
// directories; BuildJDK weaves the JDK into patches or a runtime image. A
// tool (profile, leak, recrash) is a Tool in the options: its advice and
// the JVM options and environment it runs with.
//
// Below those calls are their stages, exported for the tests that need
// one alone: the JDK opened once (JDK), woven (WeaveJDK) and linked
// (LinkImage), the cache entries a command uses (Cache), the command line
// (commandLine), load time (startLoadTime), and what the weavings report
// on the way (declare warnings and errors, the advice that advised a join
// point). The order of the stages is docs/design.md's "How weft run runs
// a program".
package launch
