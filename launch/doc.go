// Package launch is the library under weft's commands that run programs
// woven (run, serve, profile, leak, recrash) and under the end-to-end
// tests: the JDK woven for a program's aspects (WeaveJDK) and linked into
// a runtime image (LinkImage), kept in the cache once per key with the
// entries a command uses held until it ends (Cache, Cache.WovenJDK), and
// what the weavings report on the way (declare warnings and errors, the
// advice that advised a join point).
//
// The commands are flag definitions over it; the order of the stages is
// docs/design.md's "How weft run runs a program".
package launch
