package launch

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/cache"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// Installing translated aspects in weft's cache: their .weft files and
// their dispatchers compiled against weft's runtime and weft.at.

// installAtAspects writes the translations' .weft files and compiles
// their dispatchers against weft's runtime and weft.at, built for
// aspectjrt rt with JDK j, into weft's cache, named by their content.
func installAtAspects(j *JDK, ts []*pointcut.AtTranslation, rt string) (*atAspects, error) {
	rt, err := aspectjrtOnly(rt)
	if err != nil {
		return nil, err
	}
	// The key: the translations, and weft.at's own (its sources, the
	// runtime's, aspectjrt's content). A warm run reads nothing else.
	atKey, err := rtjava.AtHash(rt)
	if err != nil {
		return nil, err
	}
	sources := map[string][]byte{}
	h := sha256.New()
	for _, t := range ts {
		sources[t.Dispatcher+".java"] = t.Java
		fmt.Fprintf(h, "%s\x00%d\x00", t.Aspect, len(t.Weft))
		h.Write(t.Weft)
	}
	key := rtjava.SourcesHash(sources, []byte(atKey), h.Sum(nil))
	dir := filepath.Join(runtimeDir(), "ataspectj-"+key)
	classes := filepath.Join(dir, "classes")
	at := &atAspects{AdviceCP: JoinClassPath(classes, rt), Classes: classes}
	for i, t := range ts {
		at.Files = append(at.Files, filepath.Join(dir, fmt.Sprintf("%02d-%s.weft", i, t.Aspect)))
	}
	if exists(classes) {
		return at, nil
	}

	rtClasses, err := rtjava.Build(j.Home, runtimeDir())
	if err != nil {
		return nil, fmt.Errorf("building weft's runtime: %v", err)
	}
	atClasses, err := rtjava.BuildAt(j.Home, rt, runtimeDir())
	if err != nil {
		return nil, fmt.Errorf("building weft's adapters of aspectjrt (%s): %v", rt, err)
	}
	javac := filepath.Join(j.Home, "bin", "javac")
	dispatchers, err := rtjava.CompileCached(javac, dir+"-build", sources, func(src string) ([]string, error) {
		cp := filepath.Join(filepath.Dir(src), "cp")
		if err := archive.WriteClasses(cp, archive.Dir, rtClasses); err != nil {
			return nil, err
		}
		if err := archive.WriteClasses(cp, archive.Dir, atClasses); err != nil {
			return nil, err
		}
		return append([]string{"--release", "11", "-cp", cp}, rtjava.JavacOptions...), nil
	})
	if err != nil {
		return nil, fmt.Errorf("compiling the @AspectJ dispatchers: %v", err)
	}
	tmp := dir + ".tmp" + strconv.Itoa(os.Getpid())
	defer os.RemoveAll(tmp)
	all := maps.Clone(atClasses)
	maps.Copy(all, dispatchers)
	if err := archive.WriteClasses(filepath.Join(tmp, "classes"), archive.Dir, all); err != nil {
		return nil, err
	}
	for i, t := range ts {
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(at.Files[i])), t.Weft, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(tmp, dir); err != nil && !exists(classes) { // another weft may have made it first
		return nil, err
	}
	return at, nil
}

// aspectjrtPackages are the packages of aspectjrt's jar.
var aspectjrtPackages = []string{"org/aspectj/lang/", "org/aspectj/runtime/", "org/aspectj/internal/lang/"}

// aspectjrtOnly returns rt, the class path entry holding aspectjrt, or
// where it holds more (aspectjweaver's jar, an agent bundling AspectJ's
// weaver), a jar of aspectjrt's classes alone taken from it into weft's
// cache: only those go on the boot class path, where an agent's own
// classes would be defined by the boot loader instead of the
// application's.
func aspectjrtOnly(rt string) (string, error) {
	in, err := archive.Open(rt)
	if err != nil {
		return "", fmt.Errorf("aspectjrt: %v", err)
	}
	defer in.Close()
	isRT := func(name string) bool {
		for _, p := range aspectjrtPackages {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
	more := false
	for _, e := range in.Entries {
		more = more || e.IsClass() && !isRT(filepath.ToSlash(e.Name))
	}
	if !more {
		return rt, nil
	}
	out := filepath.Join(runtimeDir(), "aspectjrt-"+cache.NewHasher().Path(rt).Key()+".jar")
	if exists(out) {
		return out, nil
	}
	classes := map[string][]byte{}
	for _, e := range in.Entries {
		name := filepath.ToSlash(e.Name)
		if !e.IsClass() || !isRT(name) {
			continue
		}
		if classes[strings.TrimSuffix(name, ".class")], err = e.Read(); err != nil {
			return "", fmt.Errorf("aspectjrt in %s: %v", rt, err)
		}
	}
	tmp := out + ".tmp" + strconv.Itoa(os.Getpid())
	defer os.Remove(tmp)
	if err := archive.WriteClasses(tmp, archive.Jar, classes); err != nil {
		return "", err
	}
	return out, os.Rename(tmp, out)
}
