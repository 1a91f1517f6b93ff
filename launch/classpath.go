package launch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/scope"
)

// ClassPathJob is a program's class path, woven ahead of time for its
// aspects on the JDK woven for them.
type ClassPathJob struct {
	JDK     *JDK
	Woven   *WovenJDK // the JDK woven for the same aspects (its key, its next id)
	Meta    cache.Meta
	Matcher advice.Matcher
	Advice  []*advice.Advice
	// AdviceCP is where the advice classes are (for the weaver's
	// hierarchy), Line the command line whose class path is woven.
	AdviceCP string
	Line     *javacmd.Line
	// Entries are the class path's entries, Present those that exist
	// (appEntries).
	Entries, Present []string
	Scope            *scope.Scope
	Applied          Applied // gets the advice that advised a join point
}

// A WovenClassPath is a class path woven ahead of time, in the cache.
type WovenClassPath struct {
	// Key is the load-time answers' key: the woven JDK's and the entries'.
	Key string
	// Dir is the cache entry, "" for an empty class path.
	Dir string
	// Outs maps each present entry to its woven copy.
	Outs map[string]string
	// NextID is the first join point id after the JDK's and the class
	// path's: load-time weaving numbers from there.
	NextID int32
	Wove   bool // woven by this call
	// Info is the file of the --weave-info lines of the class path's
	// advised shadows, "" if it has none.
	Info string
}

// WovenClassPath returns the job's class path woven, weaving it the first
// time (the woven copy of a -jar's manifest pointing at the woven copies
// of its Class-Path), in use until c is released.
func (c *Cache) WovenClassPath(job ClassPathJob) (*WovenClassPath, error) {
	wc := &WovenClassPath{Key: job.Woven.Key, Outs: map[string]string{}, NextID: job.Woven.Summary.NextID}
	if len(job.Entries) == 0 {
		return wc, nil
	}
	k := cache.NewHasher().String(job.Woven.Key)
	for _, e := range job.Entries {
		k.String(e).Path(e)
	}
	meta := job.Meta
	wc.Key, meta.ClassPath = k.Key(), absPaths(job.Entries)
	dir := c.EntryDir("app", wc.Key)
	for i, e := range job.Entries {
		if st, err := os.Stat(e); err == nil && slices.Contains(job.Present, e) {
			name := fmt.Sprintf("%d-%s", i, filepath.Base(e))
			if !st.IsDir() && !strings.HasSuffix(name, ".jar") {
				name += ".jar"
			}
			wc.Outs[e] = filepath.Join(dir, name)
		}
	}
	e, err := c.Acquire("app", wc.Key, meta, func(dir string, fresh, _ bool) error {
		if !fresh {
			return nil
		}
		fmt.Fprintf(c.log, "weft: weaving the class path into %s (once)\n", dir)
		wc.Wove = true
		next, err := weaveClassPath(c.log, job, wc.Outs, dir)
		if err != nil {
			return err
		}
		if err := jarClassPath(job.Line, wc.Outs); err != nil {
			return err
		}
		return writeNextID(dir, next)
	})
	if err != nil {
		return nil, err
	}
	wc.Dir = e.Dir
	if _, err := os.Stat(filepath.Join(e.Dir, infoFile)); err == nil {
		wc.Info = filepath.Join(e.Dir, infoFile)
	}
	if next, err := readNextID(e.Dir); err == nil && next > wc.NextID {
		wc.NextID = next
	}
	return wc, nil
}

// appEntries returns the entries of a java command's class path that weft
// weaves ahead of time, and of those the directories and jars, once each:
// the class path given (-cp, -jar with its manifest's Class-Path, or
// $CLASSPATH), not the current directory the launcher takes when none is
// (which may be anything: its classes are woven at load time).
func appEntries(line *javacmd.Line) (entries, present []string) {
	if line.Tool || line.ClassPathFrom == javacmd.FromDefault {
		return nil, nil
	}
	entries = line.ClassPath
	for _, e := range entries {
		if _, err := os.Stat(e); err == nil && e != "" && !slices.Contains(present, e) {
			present = append(present, e)
		}
	}
	return entries, present
}

// jarClassPath points the woven copy of a -jar file's manifest Class-Path
// at the woven copies of its entries (the others where they are): its
// relative entries would name nothing next to the copy.
func jarClassPath(line *javacmd.Line, outs map[string]string) error {
	woven, ok := outs[line.Target]
	if line.Mode != javacmd.Jar || !ok || len(line.ClassPath) < 2 {
		return nil
	}
	var cp []string
	for _, e := range line.ClassPath[1:] {
		if w, ok := outs[e]; ok {
			e = w
		}
		cp = append(cp, e)
	}
	return archive.SetManifestClassPath(woven, cp)
}

// weaveClassPath weaves the class path entries into outs (entry →
// output), with join point ids after the JDK's, adds the advice that
// advised a join point to job.Applied, writes the --weave-info lines of
// the shadows advised into dir's infoFile (none if none are), and returns
// the first join point id after them.
func weaveClassPath(log io.Writer, job ClassPathJob, outs map[string]string, dir string) (int32, error) {
	own, srcs, err := job.JDK.Sources(strings.Join(append(sortedKeys(outs), job.AdviceCP), string(filepath.ListSeparator)))
	if err != nil {
		return 0, err
	}
	defer closeSources(own)
	h := weaver.HierarchyOf(srcs...)
	w := weaver.New(job.Matcher, job.Advice, weaver.Options{Hierarchy: h, IDBase: job.Woven.Summary.NextID, Scope: job.Scope})
	var woven []string
	for _, e := range job.Entries {
		if _, ok := outs[e]; ok {
			woven = append(woven, e)
		}
	}
	checked, err := precheckPaths(log, job.Matcher, w, woven)
	if err != nil {
		return 0, err
	}
	var info strings.Builder
	for _, e := range woven {
		st, err := w.WeavePath(e, outs[e])
		if err != nil {
			return 0, fmt.Errorf("%s: %v", e, err)
		}
		for i := range st.Shadows {
			info.WriteString(st.Shadows[i].String() + "\n")
		}
		for _, warn := range st.Warnings {
			fmt.Fprintln(log, "weft: warning:", warn)
		}
		if !checked {
			reportDeclared(log, st.Declared)
		}
		job.Applied.AddAdvice(st.Applied)
	}
	if info.Len() > 0 {
		if err := os.WriteFile(filepath.Join(dir, infoFile), []byte(info.String()), 0o644); err != nil {
			return 0, err
		}
	}
	return w.NextID(), nil
}

// infoFile holds, in a woven class path's cache directory, the
// --weave-info lines of its advised shadows: weft run lists them before
// those of the classes woven at load time.
const infoFile = "weave-info"

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nextIDFile holds, in a woven class path's cache directory, the first
// join point id after it: load-time weaving numbers from there.
const nextIDFile = "next-id"

func writeNextID(dir string, id int32) error {
	return os.WriteFile(filepath.Join(dir, nextIDFile), []byte(strconv.Itoa(int(id))+"\n"), 0o644)
}

func readNextID(dir string) (int32, error) {
	b, err := os.ReadFile(filepath.Join(dir, nextIDFile))
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 32)
	return int32(n), err
}
