package classfile

import "archive/zip"

// FormsClass is formsClass, for the external tests (javap_test.go).
var FormsClass = formsClass

// The tests read classes with package classpath's locator, which this
// package's internal tests cannot import (classpath imports classfile):
// sources_test.go, an external test file of the same test binary,
// installs it here before any test runs.
var (
	// OpenTestJDK opens the modules image of the JDK at home; with
	// modules given, only those are visible (classpath.OpenJDK).
	OpenTestJDK func(home string, modules ...string) (TestJDK, error)
	// OpenTestDir returns the class files under dir, laid out by
	// package (classpath.NewDirSource).
	OpenTestDir func(dir string) TestSource
	// NewTestHierarchy returns a Hierarchy over sources, in lookup order
	// (classpath.NewHierarchy).
	NewTestHierarchy func(sources ...TestSource) Hierarchy
	// ReadTestZipEntry reads one entry of the jar named jar
	// (classpath.ReadZipEntry).
	ReadTestZipEntry func(jar string, f *zip.File) ([]byte, error)
)

// TestSource is a set of class files the tests read (a classpath.Source).
type TestSource interface {
	// Class returns the bytes of the named class, or an error wrapping
	// ErrClassNotFound.
	Class(name string) ([]byte, error)
	// Walk calls fn for every class file in a fixed order, stopping at
	// the first error fn returns.
	Walk(fn func(TestEntry) error) error
	String() string
	Close() error
}

// TestJDK is (part of) a JDK's modules image.
type TestJDK interface {
	TestSource
	// Modules returns the visible modules, sorted.
	Modules() []string
}

// TestEntry is one class file of a TestSource.
type TestEntry struct {
	Module string // the module of a class in the JDK's image, "" elsewhere
	Path   string // e.g. "java/lang/String.class"
	Read   func() ([]byte, error)
}
