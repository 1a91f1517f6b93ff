package jdk

import "github.com/weft-aop/weft/classpath"

// This file patches java.base itself: Thread, System, the class-definition
// hook and the JDK-mode runtime.

// patchBase applies the Thread, System and class-definition patches (to the woven class if
// the weaver changed it, else to the image's) and adds the runtime, in the
// java.base outputs base.
func patchBase(img *classpath.ImageSource, base map[string][]byte, rt map[string][]byte) error {
	patches := []struct {
		name  string
		patch func([]byte) ([]byte, error)
	}{{"java/lang/Thread", PatchThread}, {"java/lang/System", PatchSystem}}
	// The load-time weaving hook: wrappers around the natives that define
	// classes, called from every caller of theirs (definers.go).
	callers, err := DefinerCallers(img)
	if err != nil {
		return err
	}
	for _, name := range callers {
		name := name
		patches = append(patches, struct {
			name  string
			patch func([]byte) ([]byte, error)
		}{name, func(b []byte) ([]byte, error) { return PatchDefiners(name, b) }})
	}
	var baseImg *classpath.ImageSource // java.base, opened once if img lacks it
	defer func() {
		if baseImg != nil {
			baseImg.Close()
		}
	}()
	for _, p := range patches {
		data, ok := base[p.name]
		if !ok {
			var err error
			if data, err = img.Class(p.name); err != nil {
				if baseImg == nil {
					if baseImg, err = img.Only("java.base"); err != nil {
						return err
					}
				}
				data, err = baseImg.Class(p.name)
			}
			if err != nil {
				return err
			}
		}
		out, err := p.patch(data)
		if err != nil {
			return err
		}
		base[p.name] = out
	}
	for name, b := range rt {
		base[name] = b
	}
	return nil
}

// BaseClass reads one class (internal name) of java.base from the JDK's
// modules file (lib/modules).
func BaseClass(javaHome, name string) ([]byte, error) {
	img, err := classpath.OpenJDK(javaHome, "java.base")
	if err != nil {
		return nil, err
	}
	defer img.Close()
	return img.Class(name)
}
