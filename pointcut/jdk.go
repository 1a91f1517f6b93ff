package pointcut

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classfile/jimage"
)

// jdkHierarchy is a classfile.Hierarchy over a JDK's modules image. Resolve
// uses it to check advice parameter types that are JDK classes (a formal
// java.util.HashMap passed for a java.util.Map parameter).
type jdkHierarchy struct {
	img     *jimage.Image
	modules []string
	mu      sync.Mutex
	cache   map[string]*classfile.ClassInfo
}

// openJDKHierarchy opens the modules image of the JDK at javaHome.
func openJDKHierarchy(javaHome string) (*jdkHierarchy, error) {
	img, err := jimage.Open(filepath.Join(javaHome, "lib", "modules"))
	if err != nil {
		return nil, err
	}
	mods := img.Modules()
	// java.base first: most lookups end there.
	for i, m := range mods {
		if m == "java.base" {
			mods[0], mods[i] = mods[i], mods[0]
		}
	}
	return &jdkHierarchy{img: img, modules: mods, cache: map[string]*classfile.ClassInfo{}}, nil
}

// defaultJavaHome finds the JDK of the java on PATH, or $JAVA_HOME.
func defaultJavaHome() (string, error) {
	if h := os.Getenv("JAVA_HOME"); h != "" {
		return h, nil
	}
	j, err := exec.LookPath("java")
	if err != nil {
		return "", errors.New("no java on PATH and JAVA_HOME unset")
	}
	r, err := filepath.EvalSymlinks(j)
	if err != nil {
		return "", err
	}
	return filepath.Dir(filepath.Dir(r)), nil
}

func (j *jdkHierarchy) Close() error { return j.img.Close() }

// Lookup implements classfile.Hierarchy.
func (j *jdkHierarchy) Lookup(name string) (*classfile.ClassInfo, error) {
	j.mu.Lock()
	ci, ok := j.cache[name]
	j.mu.Unlock()
	if ok {
		if ci == nil {
			return nil, fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
		}
		return ci, nil
	}
	for _, m := range j.modules {
		b, err := j.img.Read(m, name+".class")
		if err != nil {
			continue
		}
		c, err := classfile.Parse(name, b)
		if err != nil {
			return nil, err
		}
		ci = &classfile.ClassInfo{Name: c.Name(), Super: c.SuperName(), Interfaces: c.InterfaceNames(), Access: c.Access}
		break
	}
	j.mu.Lock()
	j.cache[name] = ci
	j.mu.Unlock()
	if ci == nil {
		return nil, fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
	}
	return ci, nil
}
