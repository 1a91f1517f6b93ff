package javacmd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/internal/archive"
)

// findClassPath sets ClassPath as the launcher builds it.
func (l *Line) findClassPath(getenv Env) {
	switch {
	case l.Mode == Jar:
		// The launcher ignores -cp and $CLASSPATH with -jar.
		l.ClassPath = append([]string{l.Target}, manifestClassPath(l.Target)...)
		l.ClassPathFrom = FromJar
	case l.cpSet:
		l.ClassPath, l.ClassPathFrom = expandClassPath(l.cp), FromOption
	case getenv != nil && getenv("CLASSPATH") != "":
		l.ClassPath, l.ClassPathFrom = expandClassPath(getenv("CLASSPATH")), FromEnv
	case l.Mode == Module:
		// none: the module path has the program
	default:
		l.ClassPath, l.ClassPathFrom = []string{"."}, FromDefault
	}
}

// expandClassPath splits a class path and expands its wildcard entries
// (a last component of *) to the directory's jars, as the launcher does;
// an empty entry is the current directory.
func expandClassPath(cp string) []string {
	var out []string
	for _, e := range filepath.SplitList(cp) {
		switch {
		case e == "":
			out = append(out, ".")
		case e == "*" || strings.HasSuffix(e, string(filepath.Separator)+"*"):
			out = append(out, jarsIn(strings.TrimSuffix(e, "*"))...)
		default:
			out = append(out, e)
		}
	}
	return out
}

// jarsIn lists the .jar and .JAR files of dir (dir "" is the current
// directory) in the directory's own order, as the launcher does.
func jarsIn(dir string) []string {
	f, err := os.Open(filepath.Join(".", dir))
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n, ".jar") || strings.HasSuffix(n, ".JAR") {
			if st, err := os.Stat(filepath.Join(".", dir, n)); err == nil && !st.IsDir() {
				out = append(out, dir+n)
			}
		}
	}
	return out
}

// manifestClassPath returns the Class-Path of a jar's manifest, each
// relative URL resolved against the jar's directory; nil if there is
// none or the jar cannot be read (the launcher then fails on its own).
func manifestClassPath(jar string) []string {
	var out []string
	for _, u := range strings.Fields(archive.ManifestAttribute(jar, "Class-Path")) {
		u = strings.TrimPrefix(u, "file:")
		if strings.Contains(u, ":") { // another URL scheme: not a file
			continue
		}
		p := filepath.FromSlash(u)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(jar), p)
		}
		out = append(out, p)
	}
	return out
}
