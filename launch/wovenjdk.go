package launch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/weaver/jdk"
	"github.com/weft-aop/weft/weaver/scope"
)

// The woven JDK's entry holds its patches (DIR/patch/, weft.args and
// weft.jargs, as weft jdk -o writes them), the summary, the advice
// applied (appliedFile) and, once a run asks for it, the runtime image
// linked from the patches (DIR/image/). The image holds every woven class
// the patches do: once it is linked, the patches are removed (when no
// other process uses the entry, maybe with them), and woven again if a
// run asks for them (--patches, weft serve): the entry never keeps both
// for long.
const (
	patchesDone = "patches.complete" // DIR/patch/ is whole
	imageDone   = ".complete"        // in DIR/image/: the image is whole
)

// WovenJDKJob is the JDK a program runs on, woven for its aspects.
type WovenJDKJob struct {
	JDK     *JDK
	Matcher advice.Matcher
	Advice  []*advice.Advice
	Aspects []string // the aspect files, for the key
	BootCP  string   // the advice classes, on the boot class path
	Modules string   // "all" or M,M...
	Scope   *scope.Scope
	// Holders are the class path entries that hold advice classes, which
	// BootCP includes: said once, when the JDK is woven.
	Holders []string
	// Image asks for the runtime image, linked the first time (none for a
	// JDK it cannot be linked for: then the patches, said so).
	Image bool
	// Progress, if set, is told how many classes are woven of how many.
	Progress func(done, total int)
}

// A WovenJDK is a JDK woven for a program's aspects, in the cache.
type WovenJDK struct {
	Key, Dir string
	Image    string // the runtime image, "" when the run uses the patches
	Summary  *jdk.Summary
	Wove     bool // woven by this call, not found in the cache
}

// WovenJDK returns the JDK woven for the job's aspects, weaving it the
// first time, and with job.Image its runtime image, linked the first
// time. The advice applied is written in the entry (appliedFile) for the
// caller's lint. The entry is in use until c is released.
func (c *Cache) WovenJDK(job WovenJDKJob) (*WovenJDK, error) {
	home, log := job.JDK.Home, c.log
	key, err := c.JDKKey(home, job.Aspects, job.BootCP, job.Modules, job.Scope.Key())
	if err != nil {
		return nil, err
	}
	image := job.Image
	if image && !jdk.CanLinkImage(home) {
		fmt.Fprintf(log, "weft: %s has no jmods/ to link a runtime image from, nor the lists of its modules' files to rebuild them: running it with --patch-module (slower start-up)\n", home)
		image = false
	}
	w := &WovenJDK{Key: key}
	fill := func(dir string, fresh, alone bool) error {
		imageDir := filepath.Join(dir, "image")
		patched := exists(filepath.Join(dir, patchesDone))
		linked := exists(filepath.Join(imageDir, imageDone))
		if !patched && !(image && linked) {
			fmt.Fprintf(log, "weft: weaving the JDK into %s (once)\n", dir)
			if len(job.Holders) > 0 {
				fmt.Fprintf(log, "weft: advice classes found on the class path in %s: on the boot class path too\n",
					strings.Join(job.Holders, ", "))
			}
			s, applied, err := WeaveJDK(JDKJob{Matcher: job.Matcher, Advice: job.Advice, AdviceCP: job.BootCP, JDK: job.JDK,
				Modules: job.Modules, Scope: job.Scope, Out: dir, Progress: job.Progress, Diag: log})
			if err != nil {
				return err
			}
			if len(s.Intrinsics) > 0 {
				fmt.Fprintf(log, "weft: %d advised JDK methods are intrinsic candidates (see %s): counts there can be partial\n",
					len(s.Intrinsics), filepath.Join(dir, "summary.json"))
			}
			w.Wove, patched = true, true
			if err := writeApplied(dir, applied); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, patchesDone), nil, 0o644); err != nil {
				return err
			}
		}
		if image && !linked {
			os.RemoveAll(imageDir) // a link that died half way
			o := jdk.LinkOptions{JavaHome: home, Woven: dir, Out: imageDir, BootAppend: classPathEntries(job.BootCP)}
			if err := LinkImage(log, o); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(imageDir, imageDone), nil, 0o644); err != nil {
				return err
			}
		}
		if image && patched && alone { // nothing kept twice
			if err := os.Remove(filepath.Join(dir, patchesDone)); err != nil {
				return err
			}
			return os.RemoveAll(filepath.Join(dir, "patch"))
		}
		return nil
	}
	e, err := c.Acquire("jdk", key, jDKMeta(home, job.Aspects, job.BootCP, job.Modules), fill)
	if err != nil {
		return nil, err
	}
	w.Dir = e.Dir
	if image {
		w.Image = filepath.Join(e.Dir, "image")
	}
	w.Summary = &jdk.Summary{}
	if b, err := os.ReadFile(filepath.Join(e.Dir, "summary.json")); err == nil {
		if err := json.Unmarshal(b, w.Summary); err != nil {
			return nil, fmt.Errorf("%s: %v", e.Dir, err)
		}
	}
	return w, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
