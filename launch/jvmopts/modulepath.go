package jvmopts

import (
	"archive/zip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// ModuleAccess returns the java options that let the application's
// named modules (those on java's --module-path) run code woven at load
// time: weft's runtime package exported to each, and each reading the
// unnamed modules, where the advice classes are (the boot class path).
// Nothing when there is no module path.
func ModuleAccess(modulePath []string) []string {
	var mods []string
	for _, e := range modulePath {
		mods = append(mods, modulesIn(e)...)
	}
	if len(mods) == 0 {
		return nil
	}
	sort.Strings(mods)
	mods = slices.Compact(mods)
	pkg := strings.ReplaceAll(rtnames.Package, "/", ".")
	opts := []string{"--add-exports", "java.base/" + pkg + "=" + strings.Join(mods, ",")}
	for _, m := range mods {
		opts = append(opts, "--add-reads", m+"=ALL-UNNAMED")
	}
	return opts
}

// modulesIn returns the names of the modules a module path entry holds: an
// exploded module, a modular or automatic jar, or a directory of those.
func modulesIn(entry string) []string {
	st, err := os.Stat(entry)
	if err != nil {
		return nil
	}
	if !st.IsDir() {
		if n := jarModule(entry); n != "" {
			return []string{n}
		}
		return nil
	}
	if b, err := os.ReadFile(filepath.Join(entry, "module-info.class")); err == nil {
		if n := moduleName(b); n != "" {
			return []string{n}
		}
		return nil
	}
	ents, err := os.ReadDir(entry)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(entry, e.Name())
		if e.IsDir() {
			if b, err := os.ReadFile(filepath.Join(p, "module-info.class")); err == nil {
				if n := moduleName(b); n != "" {
					out = append(out, n)
				}
			}
		} else if strings.HasSuffix(e.Name(), ".jar") {
			if n := jarModule(p); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// jarModule is the module name of a jar on the module path: its
// module-info's, else its manifest's Automatic-Module-Name, else the name
// derived from the file name as java derives an automatic module's.
func jarModule(jar string) string {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return ""
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name == "module-info.class" {
			if b, err := classpath.ReadZipEntry(jar, f); err == nil {
				return moduleName(b)
			}
		}
	}
	if n := strings.TrimSpace(archive.ManifestAttribute(jar, "Automatic-Module-Name")); n != "" {
		return n
	}
	return automaticModuleName(filepath.Base(jar))
}

// moduleName reads the name in a module-info class, "" if it has none.
func moduleName(b []byte) string {
	c, err := classfile.Parse("module-info.class", b)
	if err != nil {
		return ""
	}
	a := c.Attr(c.Attributes, "Module")
	if a == nil {
		return ""
	}
	v, err := classfile.DecodeAttr(c, a)
	if err != nil {
		return ""
	}
	return c.Pool.Utf8(c.Pool.Get(v.(*classfile.Module).Name).A)
}

var (
	jarVersion = regexp.MustCompile(`-(\d+(\.|$)).*$`)
	nonAlnum   = regexp.MustCompile(`[^A-Za-z0-9]+`)
)

// automaticModuleName derives a module name from a jar's file name as
// java.lang.module.ModuleFinder does: no .jar, no version, runs of other
// characters than letters and digits become one dot, no dot at the ends.
func automaticModuleName(file string) string {
	n := strings.TrimSuffix(file, ".jar")
	n = jarVersion.ReplaceAllString(n, "")
	n = nonAlnum.ReplaceAllString(n, ".")
	return strings.Trim(n, ".")
}
