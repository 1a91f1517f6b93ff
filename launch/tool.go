package launch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver"
)

// ToolAdvice is a tool's aspect and the Java advice it calls, built from
// embedded sources (examples/profile, leak, recrash).
type ToolAdvice struct {
	Name    string
	Aspect  []byte
	Sources map[string][]byte
	// Build compiles the advice with the JDK at javaHome, caching in
	// cacheDir.
	Build func(javaHome, cacheDir string) (map[string][]byte, error)
	// WeaveOwn, if set, is a package of the advice (an internal name
	// prefix) woven with the tool's aspect, its join point ids from
	// OwnIDBase: weft never weaves its own namespace but there, as the
	// profiler's calibration class, woven so that the profiler can time
	// its whole cost per execution on it.
	WeaveOwn  string
	OwnIDBase int32
}

// install builds the tool's advice with the JDK j and writes it and the
// aspect into the cache's shared directory, both named by their content
// and weft's (the advice may be woven), and returns their paths.
func (t *ToolAdvice) install(j *JDK, weft []byte) (aspect, adv string, err error) {
	classes, err := t.Build(j.Home, runtimeDir())
	if err != nil {
		return "", "", fmt.Errorf("building the %s advice: %v", t.Name, err)
	}
	key := rtjava.SourcesHash(t.Sources, t.Aspect, weft)
	aspect = filepath.Join(runtimeDir(), t.Name+"-"+key+".weft")
	adv = filepath.Join(runtimeDir(), t.Name+"-"+key+"-advice")
	if !exists(aspect) {
		if err := os.WriteFile(aspect, t.Aspect, 0o644); err != nil {
			return "", "", err
		}
	}
	if exists(adv) {
		return aspect, adv, nil
	}
	tmp := adv + ".tmp" + strconv.Itoa(os.Getpid())
	defer os.RemoveAll(tmp)
	if err := archive.WriteClasses(tmp, archive.Dir, classes); err != nil {
		return "", "", err
	}
	if t.WeaveOwn != "" {
		return aspect, adv, t.weaveOwn(j, aspect, tmp, adv)
	}
	if err := os.Rename(tmp, adv); err != nil && !exists(adv) { // another weft may have made it first
		return "", "", err
	}
	return aspect, adv, nil
}

// weaveOwn weaves the advice directory in, WeaveOwn's classes with the
// tool's aspect, into out.
func (t *ToolAdvice) weaveOwn(j *JDK, aspect, in, out string) error {
	advice, srcs, err := j.Sources(in)
	if err != nil {
		return err
	}
	defer closeSources(advice)
	h := weaver.HierarchyOf(srcs...)
	prog, err := LoadAspects(io.Discard, []string{aspect}, pointcut.Options{AdviceCP: in, Hierarchy: h, JavaHome: j.Home})
	if err != nil {
		return err
	}
	w := weaver.New(prog, prog.Advice(), weaver.Options{Hierarchy: h, IDBase: t.OwnIDBase, WeaveOwn: t.WeaveOwn})
	tmp := out + ".woven" + strconv.Itoa(os.Getpid())
	if _, err := w.WeavePath(in, tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.RemoveAll(tmp)
		if !exists(out) { // another weft made it first
			return err
		}
	}
	return nil
}
