package archive

import (
	"path"
	"sort"
	"strings"
)

// extraPath places the extra class extra next to the class named class
// stored at name: in the same versions directory of a multi-release jar,
// under the same prefix if the class is stored under one, in the same
// directory if its path does not match its name at all.
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
