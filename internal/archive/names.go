package archive

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// versionsDir holds a multi-release jar's versioned classes:
// META-INF/versions/<N>/<class path>.
const versionsDir = "META-INF/versions/"

// classPath returns the class name an entry's path stands for: the path
// without ".class", and without the versions prefix of a multi-release
// jar (both a/B.class and META-INF/versions/11/a/B.class stand for a/B).
func classPath(name string) string {
	name = strings.TrimSuffix(name, ".class")
	if rest, ok := strings.CutPrefix(name, versionsDir); ok {
		if v, p, ok := strings.Cut(rest, "/"); ok && v != "" && strings.Trim(v, "0123456789") == "" {
			return p
		}
	}
	return name
}

// definedClasses maps the class name each class entry's path stands for
// to the first such entry.
func definedClasses(in *Input) map[string]string {
	m := make(map[string]string, len(in.Entries))
	for _, e := range in.Entries {
		if e.IsClass() {
			if c := classPath(e.Name); m[c] == "" {
				m[c] = e.Name
			}
		}
	}
	return m
}

// misplacedWarning says which classes of the input at path were copied
// unchanged for being stored under paths that are not their names (Jython
// keeps its compiled modules at Lib/pkg/__init__$py.class, shading tools
// and resource-held classes do likewise): a class loader finds a class by
// its name's path, so none would find a class added beside them, and the
// woven class would fail at its first join point. A program that defines
// such a class from the entry's bytes defines it unwoven; load-time
// weaving weaves it then, in its real loader.
func misplacedWarning(path string, kind Kind, misplaced []string) string {
	const shown = 3
	examples := strings.Join(misplaced[:min(len(misplaced), shown)], ", ")
	if len(misplaced) > shown {
		examples += fmt.Sprintf(" and %d more", len(misplaced)-shown)
	}
	hint := ""
	if kind == Dir {
		hint = "; if the directory is inside a class path entry, weave the entry's root instead"
	}
	return fmt.Sprintf("%s: %d classes stored under paths other than their names copied unchanged (%s): no class loader "+
		"would find the classes weaving adds beside them%s", path, len(misplaced), examples, hint)
}

// extraPath places the extra class extra next to the class named class
// stored at name: in the same versions directory of a multi-release jar,
// under the same prefix if the class is stored under one, in the same
// directory if its path does not match its name at all (a single class
// file, written under the name its caller chose).
func extraPath(name, class, extra string) string {
	prefix := strings.TrimSuffix(name, class+".class")
	if class == "" || prefix == name { // stored under an unexpected name
		prefix = path.Dir(name) + "/"
		if !strings.Contains(name, "/") {
			prefix = ""
		}
		extra = path.Base(extra)
	}
	return prefix + extra + ".class"
}

// signatureFile reports whether a jar entry is a signature file
// (META-INF/*.SF, or a signature block: .RSA, .DSA, .EC).
func signatureFile(name string) bool {
	dir, file := path.Split(strings.ToUpper(name))
	if dir != "META-INF/" {
		return false
	}
	ext := path.Ext(file)
	return ext == ".SF" || ext == ".RSA" || ext == ".DSA" || ext == ".EC"
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
