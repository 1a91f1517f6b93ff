package javacmd

import (
	"archive/zip"
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
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
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return nil
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil
		}
		defer r.Close()
		value := manifestAttribute(io.LimitReader(r, 1<<20), "Class-Path")
		var out []string
		for _, u := range strings.Fields(value) {
			if strings.HasPrefix(u, "file:") {
				u = strings.TrimPrefix(u, "file:")
			}
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
	return nil
}

// manifestAttribute returns the value of a main-section attribute of a
// manifest, its continuation lines (starting with one space) joined.
func manifestAttribute(r io.Reader, name string) string {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var value strings.Builder
	in := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case line == "":
			if value.Len() > 0 || in {
				return value.String()
			}
			return "" // the main section ended
		case strings.HasPrefix(line, " "):
			if in {
				value.WriteString(line[1:])
			}
		default:
			in = false
			if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, name) {
				in = true
				value.WriteString(strings.TrimPrefix(v, " "))
			}
		}
	}
	return value.String()
}
