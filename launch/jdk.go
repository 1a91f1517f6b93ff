package launch

import (
	"sync"

	"github.com/weft-aop/weft/classfile"
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
	img  *classfile.ImageSource
	err  error
}

// OpenJDK returns the JDK at home; its image is opened at first use.
func OpenJDK(home string) *JDK { return &JDK{Home: home, Release: jdk.Release(home)} }

// Image returns the JDK's modules image, every module visible. The JDK
// owns it: callers do not close it.
func (j *JDK) Image() (*classfile.ImageSource, error) {
	j.once.Do(func() { j.img, j.err = classfile.OpenJDK(j.Home) })
	return j.img, j.err
}

// Sources returns the sources of class path cp (the advice's, the
// program's) followed by the JDK's image: the class path's are the
// caller's to close (CloseSources), the image is the JDK's.
func (j *JDK) Sources(cp string) (classPath []classfile.Source, all []classfile.Source, err error) {
	img, err := j.Image()
	if err != nil {
		return nil, nil, err
	}
	classPath, err = classfile.OpenClassPath(cp, j.Home)
	if err != nil {
		return nil, nil, err
	}
	return classPath, append(append([]classfile.Source(nil), classPath...), img), nil
}

// Close closes the image, if it was opened.
func (j *JDK) Close() error {
	if j.img != nil {
		return j.img.Close()
	}
	return nil
}

// CloseSources closes each of srcs.
func CloseSources(srcs []classfile.Source) {
	for _, s := range srcs {
		s.Close()
	}
}
