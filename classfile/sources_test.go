package classfile_test

import (
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// init installs package classpath's locator for the internal tests (see
// export_test.go).
func init() {
	classfile.OpenTestJDK = func(home string, modules ...string) (classfile.TestJDK, error) {
		s, err := classpath.OpenJDK(home, modules...)
		if err != nil {
			return nil, err
		}
		return testSource{s}, nil
	}
	classfile.OpenTestDir = func(dir string) classfile.TestSource { return testSource{classpath.NewDirSource(dir)} }
	classfile.NewTestHierarchy = func(sources ...classfile.TestSource) classfile.Hierarchy {
		srcs := make([]classpath.Source, len(sources))
		for i, s := range sources {
			srcs[i] = s.(testSource).Source
		}
		return classpath.NewHierarchy(srcs...)
	}
	classfile.ReadTestZipEntry = classpath.ReadZipEntry
}

// testSource is a classpath.Source as a classfile.TestSource.
type testSource struct{ classpath.Source }

func (s testSource) Walk(fn func(classfile.TestEntry) error) error {
	return s.Source.Walk(func(e classpath.ClassEntry) error {
		return fn(classfile.TestEntry{Module: e.Module, Path: e.Path, Read: e.Read})
	})
}

// Modules returns an image's visible modules.
func (s testSource) Modules() []string { return s.Source.(*classpath.ImageSource).Modules() }
