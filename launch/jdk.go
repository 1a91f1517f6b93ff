package launch

import (
	"sync"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/weaver/jdk"
)

// A JDK is the JDK a command weaves and runs, opened once: its home, its
// release, and its modules image, which every stage that reads the JDK's
// classes shares (weaving the JDK, weaving the class path, serving load
// time) instead of each opening its own.
type JDK struct {
	Home    string
	Release string // the runtime version its release file names

	once sync.Once
	img  *classpath.ImageSource
	err  error
}

// OpenJDK returns the JDK at home; its image is opened at first use.
func OpenJDK(home string) *JDK { return &JDK{Home: home, Release: jdk.Release(home)} }

// Image returns the JDK's modules image, every module visible. The JDK
// owns it: callers do not close it.
func (j *JDK) Image() (*classpath.ImageSource, error) {
	j.once.Do(func() { j.img, j.err = classpath.OpenJDK(j.Home) })
	return j.img, j.err
}

// Sources returns the sources of class path cp (the advice's, the
// program's) followed by the JDK's image: the class path's are the
// caller's to close (closeSources), the image is the JDK's.
func (j *JDK) Sources(cp string) (classPath []classpath.Source, all []classpath.Source, err error) {
	img, err := j.Image()
	if err != nil {
		return nil, nil, err
	}
	classPath, err = classpath.OpenClassPath(cp, j.Home)
	if err != nil {
		return nil, nil, err
	}
	return classPath, append(append([]classpath.Source(nil), classPath...), img), nil
}

// Close closes the image, if it was opened.
func (j *JDK) Close() error {
	if j.img != nil {
		return j.img.Close()
	}
	return nil
}

// closeSources closes each of srcs.
func closeSources(srcs []classpath.Source) {
	for _, s := range srcs {
		s.Close()
	}
}

// Source returns the JDK's classes as a classpath.Source that opens the
// image at its first question (binding advice seldom asks about a JDK
// type, and a run whose weavings are cached need not open it) and whose
// Close leaves the image to the JDK.
func (j *JDK) Source() classpath.Source { return jdkSource{j} }

type jdkSource struct{ j *JDK }

func (s jdkSource) Class(name string) ([]byte, error) {
	img, err := s.j.Image()
	if err != nil {
		return nil, err
	}
	return img.Class(name)
}

func (s jdkSource) Walk(fn func(classpath.ClassEntry) error) error {
	img, err := s.j.Image()
	if err != nil {
		return err
	}
	return img.Walk(fn)
}

func (s jdkSource) String() string { return "jdk:" }
func (s jdkSource) Close() error   { return nil }
