package launch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/internal/proc"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// The application's class data sharing (CDS) archive: weft run on a
// runtime image maps, from the second run of a program on, a static
// archive of the classes the program loaded on its first (the image's
// classes, the advice jar's and the woven class path's jars), in place
// of the image's default archive. A JDK tool (javac...) is a program too:
// its module's classes are the image's.
//
// JDK 17 cannot make a dynamic archive (-XX:ArchiveClassesAtExit) on the
// image: its options append the advice jar to the boot class path, and
// dynamic archiving is disabled over a base archive dumped with one. So
// the first run lists the classes it loads (-XX:DumpLoadedClassList) and
// the second dumps them (-Xshare:dump, unadvised) before it starts: a
// program run once never pays for a dump. Only classes read from the
// image and from jars go in: a directory on the class path ends the
// archived part (CDS takes none), classes of other loaders and the
// classes the load-time hook changes are not archived, nor lambda proxies
// (their definition would bypass the hook) nor the regenerated method
// handle holders (they would replace the woven ones).

// An AppArchive is the CDS archive of one program (its class path) on one
// runtime image with one set of JVM options that matter, in the cache.
type AppArchive struct {
	key       string // its cache entry's
	meta      cache.Meta
	dir       string   // its cache entry, once acquired
	java      string   // the image's java
	classPath string   // the archived prefix of the woven class path
	options   []string // the command's JVM options the archive depends on
	stamp     string   // the image's and the jars' sizes and times: a change makes the archive stale
	list      string   // the class list written by this run, if it writes one
}

// Its files in dir.
const (
	CDSClassList = "classlist" // the classes the first run loaded
	CDSArchive   = "app.jsa"   // the archive
	cdsFailed    = "failed"    // the dump failed: no archive for this key
	cdsStamp     = "stamp"     // AppArchive.stamp of the files above
)

// newAppArchive returns the application archive of the java command line
// on the image (entries its class path woven ahead, woven their copies),
// or nil if the command takes no archive: options of its own about CDS,
// the boot class path or modules, or agents.
func newAppArchive(imageDir string, line *javacmd.Line, entries []string, woven map[string]string) *AppArchive {
	opts, main, ok := cdsOptions(line)
	if !ok {
		return nil
	}
	var jars []string
	for _, e := range entries {
		w, ok := woven[e]
		if st, err := os.Stat(w); !ok || err != nil || !st.Mode().IsRegular() || !strings.HasSuffix(w, ".jar") {
			break // CDS takes no directory; the run's class path must start with the dump's
		}
		jars = append(jars, w)
	}
	a := &AppArchive{java: filepath.Join(imageDir, "bin", "java"), classPath: strings.Join(jars, string(filepath.ListSeparator)),
		options: opts}
	a.key = cache.Key(imageDir, a.classPath, main, strings.Join(opts, "\x00"))
	a.meta = cache.Meta{JavaHome: imageDir, ClassPath: jars, Program: strings.TrimSpace(strings.Join(opts, " ") + " " + main)}
	var stamp strings.Builder
	for _, f := range append([]string{filepath.Join(imageDir, "lib", "modules"), filepath.Join(imageDir, "lib", "server", "classes.jsa"),
		filepath.Join(imageDir, "lib", "weft", "advice.jar")}, jars...) {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(&stamp, "%s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		}
	}
	a.stamp = stamp.String()
	return a
}

// cdsOptions returns the JVM options of a java command line that the
// archive depends on (-X and -XX options but logging: heap size and
// compressed pointers, the collector...) and the program, whose classes the
// archive holds (its main class, -jar and the jar, or the JDK tool); false
// if the command sets CDS, the boot class path, modules or agents of its
// own, or runs no program of a class path or tool.
func cdsOptions(line *javacmd.Line) (opts []string, main string, ok bool) {
	switch {
	case line.Tool && filepath.Base(line.Launcher) != "jshell":
		// A JDK tool (javac, jar...): its launcher runs its module's main
		// class, of the image. Not jshell, whose snippets' JVM takes the
		// same options.
		main = "tool " + filepath.Base(line.Launcher)
	case line.Tool:
		return nil, "", false
	case line.Mode == javacmd.MainClass:
		main = line.Target
	case line.Mode == javacmd.Jar:
		main = "-jar " + line.Target
	default:
		return nil, "", false // java -version, a module, a source file
	}
	if len(line.ModulePath) > 0 {
		return nil, "", false
	}
	for _, a := range line.JVMOptions() {
		switch {
		case strings.HasPrefix(a, "--upgrade-module-path") || strings.HasPrefix(a, "--patch-module") ||
			strings.HasPrefix(a, "--limit-modules") || strings.HasPrefix(a, "-Xbootclasspath") ||
			strings.HasPrefix(a, "-Xshare") || strings.HasPrefix(a, "-javaagent") || strings.HasPrefix(a, "-agent") ||
			strings.HasPrefix(a, "-XX:Flags=") || strings.HasPrefix(a, "-XX:VMOptionsFile="):
			return nil, "", false
		case strings.HasPrefix(a, "-XX:") && (strings.Contains(a, "Shared") || strings.Contains(a, "ArchiveClasses") ||
			strings.Contains(a, "DumpLoadedClassList")):
			return nil, "", false
		case strings.HasPrefix(a, "-Xlog"):
		case strings.HasPrefix(a, "-X"):
			opts = append(opts, a)
		}
	}
	return opts, main, true
}

// RunOptions returns the JVM options of this run: the archive if there is
// one (made now if the first run listed its classes), else the option
// listing the classes this run loads. Any failure means no option: the run
// goes on without. The archive's cache entry is in use until u is
// released.
func (a *AppArchive) RunOptions(u *Cache, say func(string, ...any)) []string {
	var opts []string
	if _, err := u.Acquire("cds", a.key, a.meta, func(dir string, _, _ bool) error {
		a.dir = dir
		opts = a.lockedOptions(say)
		return nil
	}); err != nil {
		say("%v", err)
		return nil
	}
	return opts
}

// lockedOptions is RunOptions under the entry's lock.
func (a *AppArchive) lockedOptions(say func(string, ...any)) []string {
	if b, err := os.ReadFile(filepath.Join(a.dir, cdsStamp)); err != nil || string(b) != a.stamp {
		// New, or stale: the image or a jar changed since.
		os.RemoveAll(a.dir)
		if os.MkdirAll(a.dir, 0o755) != nil || os.WriteFile(filepath.Join(a.dir, cdsStamp), []byte(a.stamp), 0o644) != nil {
			return nil
		}
	}
	jsa := filepath.Join(a.dir, CDSArchive)
	switch {
	case exists(filepath.Join(a.dir, cdsFailed)):
		return nil
	case exists(jsa):
		return []string{"-XX:SharedArchiveFile=" + jsa}
	case exists(filepath.Join(a.dir, CDSClassList)):
		say("making the application's class data sharing archive %s (once)", jsa)
		if err := a.dump(); err != nil {
			say("%v", err)
			os.WriteFile(filepath.Join(a.dir, cdsFailed), []byte(err.Error()+"\n"), 0o644)
			return nil
		}
		return []string{"-XX:SharedArchiveFile=" + jsa}
	}
	a.list = filepath.Join(a.dir, fmt.Sprintf("%s.%d", CDSClassList, os.Getpid()))
	return []string{"-XX:DumpLoadedClassList=" + a.list}
}

// Finish keeps the class list this run wrote if it ended well.
func (a *AppArchive) Finish(code int) {
	if a.list == "" {
		return
	}
	if code == 0 {
		os.Rename(a.list, filepath.Join(a.dir, CDSClassList))
	}
	os.Remove(a.list)
}

// dump makes the archive from the class list: the classes of the image,
// the advice jar and the archived class path, named plainly in the list.
// It runs with the woven JDK unadvised, in the archive's directory: no
// advice runs and no file of the user's is touched.
func (a *AppArchive) dump() error {
	b, err := os.ReadFile(filepath.Join(a.dir, CDSClassList))
	if err != nil {
		return err
	}
	var list bytes.Buffer
	for _, l := range strings.Split(string(b), "\n") {
		// "#" comments, "@lambda-proxy" and "@lambda-form-invoker" lines,
		// and classes of other loaders ("Name id: N super: M source: S").
		if l != "" && !strings.ContainsAny(l, "#@ ") {
			list.WriteString(l + "\n")
		}
	}
	listFile := filepath.Join(a.dir, CDSClassList+".archived")
	if err := os.WriteFile(listFile, list.Bytes(), 0o644); err != nil {
		return err
	}
	tmp := filepath.Join(a.dir, fmt.Sprintf("%s.%d", CDSArchive, os.Getpid()))
	args := append(append([]string{"-D" + rtnames.UnadvisedProperty + "=true"}, a.options...),
		"-Xshare:dump", "-XX:SharedClassListFile="+listFile, "-XX:SharedArchiveFile="+tmp)
	if a.classPath != "" {
		args = append(args, "-cp", a.classPath)
	}
	c := exec.Command(a.java, args...)
	c.Dir = a.dir
	if out, err := proc.CombinedOutput(c); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s %s: %v\n%s", a.java, strings.Join(args, " "), err, out)
	}
	return os.Rename(tmp, filepath.Join(a.dir, CDSArchive))
}
