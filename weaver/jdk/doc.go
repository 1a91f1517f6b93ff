// Package jdk weaves the JDK's own modules: it drives a class weaver over
// the modules image on all cores, patches java.lang.Thread (the DIB field)
// and java.lang.System (the end of bootstrap, BIB), adds the JDK-mode
// runtime to java.base, and writes the `java @argfile` that runs the woven
// JDK with --patch-module. docs/jdk.md explains the scheme and the
// exclusion list.
package jdk
