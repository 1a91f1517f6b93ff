package launch

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/aopxml"
	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// AspectJ's aspects under weft run: a program whose class path holds
// aop.xml files, or whose command line starts AspectJ's load-time weaving
// agent (-javaagent:aspectjweaver.jar), runs the @AspectJ aspects they
// list, woven by weft, the JDK included; the agent itself does not run.
// Each aspect is translated (pointcut.TranslateAtAspect) into a .weft
// aspect and a dispatcher class; the dispatchers, weft.at (the adapters of
// org.aspectj.lang's interfaces) and aspectjrt go on the boot class path,
// the aspects stay in the application's class loader.

// atAspects is what a program's AspectJ configuration adds to its run.
type atAspects struct {
	Files    []string // the translated aspects, .weft files in aop.xml order
	AdviceCP string   // the dispatchers and weft.at, then aspectjrt
	Classes  string   // the directory of the dispatchers and weft.at
}

// isAspectJAgent reports whether a JVM option starts AspectJ's load-time
// weaver: -javaagent: naming aspectjweaver*.jar.
func isAspectJAgent(opt string) bool {
	jar, ok := strings.CutPrefix(opt, "-javaagent:")
	if !ok {
		return false
	}
	jar, _, _ = strings.Cut(jar, "=")
	base := filepath.Base(jar)
	return strings.HasPrefix(base, "aspectjweaver") && strings.HasSuffix(base, ".jar")
}

// takeOverAspectJ reads the AspectJ configuration of the java command line
// (its entries present, of JDK j) and returns the line without AspectJ's
// agent, and what the aspects add; nil when the command has neither
// aop.xml nor the agent.
func takeOverAspectJ(w io.Writer, j *JDK, line *javacmd.Line, present []string) (*javacmd.Line, *atAspects, error) {
	agent := ""
	for _, o := range line.JVMOptions() {
		if isAspectJAgent(o) {
			agent = strings.TrimPrefix(o, "-javaagent:")
			agent, _, _ = strings.Cut(agent, "=")
		}
	}
	configs, err := readAopXMLs(present)
	if err != nil {
		return nil, nil, err
	}
	if agent == "" && len(configs) == 0 {
		return line, nil, nil
	}
	if agent != "" {
		line = line.Without(isAspectJAgent)
		fmt.Fprintf(w, "weft: AspectJ's agent (%s) does not run: weft weaves the aspects of aop.xml in its place\n", agent)
	}
	if len(configs) == 0 {
		fmt.Fprintln(w, "weft: warning: no META-INF/aop.xml on the class path: no AspectJ aspect runs")
		return line, nil, nil
	}
	at, err := buildAtAspects(w, j, configs, present, agent, onClassPath)
	if err != nil {
		return nil, nil, err
	}
	return line, at, nil
}

// readAopXMLs reads every aop.xml of the class path entries, in class path
// order and, within an entry, in AspectJ's order of names.
func readAopXMLs(entries []string) ([]*aopxml.Config, error) {
	var out []*aopxml.Config
	for _, e := range entries {
		for _, name := range aopxml.Resources {
			b, ok, err := classpath.ReadResource(e, name)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			x, err := aopxml.Parse(e+"!/"+name, b)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// atConfig is the configurations' union: the aspects that run (names,
// and the concrete aspects the files define, by name) and the types woven.
func atConfig(w io.Writer, configs []*aopxml.Config) ([]string, map[string]definedAspect, pointcut.AtWeaving, error) {
	var names []string
	defined := map[string]definedAspect{}
	type pattern struct{ where, within string }
	var include, exclude []pattern
	var weaving pointcut.AtWeaving
	ignored := map[string]bool{}
	for _, x := range configs {
		for _, a := range x.Aspects {
			if !slices.Contains(names, a.Value) {
				names = append(names, a.Value)
			}
		}
		for _, c := range x.Concrete {
			if !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
				defined[c.Name] = definedAspect{x, c}
			}
		}
		for _, it := range x.AspectInclude {
			include = append(include, pattern{x.Where(it), it.Value})
		}
		for _, it := range x.AspectExclude {
			exclude = append(exclude, pattern{x.Where(it), it.Value})
		}
		for _, it := range x.Include {
			weaving.Include = append(weaving.Include, it.Value)
		}
		for _, it := range x.Exclude {
			weaving.Exclude = append(weaving.Exclude, it.Value)
		}
		for _, o := range x.Options {
			if !ignored[o] {
				ignored[o] = true
				fmt.Fprintf(w, "weft: warning: %s: weaver option %s is AspectJ's; weft ignores it\n", x.File, o)
			}
		}
	}
	match := func(p pattern, name string) (bool, error) {
		m, err := pointcut.MatchAspectName(p.within, name)
		if err != nil {
			return false, fmt.Errorf("%s: within=%q: %v", p.where, p.within, err)
		}
		return m, nil
	}
	var kept []string
	for _, n := range names {
		ok := len(include) == 0
		for _, it := range include {
			m, err := match(it, n)
			if err != nil {
				return nil, nil, weaving, err
			}
			ok = ok || m
		}
		for _, it := range exclude {
			m, err := match(it, n)
			if err != nil {
				return nil, nil, weaving, err
			}
			ok = ok && !m
		}
		if ok {
			kept = append(kept, n)
		}
	}
	return kept, defined, weaving, nil
}

// definedAspect is a <concrete-aspect> and the file defining it.
type definedAspect struct {
	x  *aopxml.Config
	ca *aopxml.ConcreteAspect
}

// buildAtAspects reads and translates the aspects the configurations list
// from the class path entries, and installs the result in weft's cache.
func buildAtAspects(w io.Writer, j *JDK, configs []*aopxml.Config, entries []string, agent string, rtAt rtPlaces) (*atAspects, error) {
	names, defined, weaving, err := atConfig(w, configs)
	if err != nil {
		return nil, err
	}
	srcs := make([]classpath.Source, 0, len(entries))
	defer func() { closeSources(srcs) }()
	for _, e := range entries {
		s, err := classpath.OpenSource(e, j.Home)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, s)
	}
	var ts []*pointcut.AtTranslation
	var errs []string
	for _, n := range names {
		var t *pointcut.AtTranslation
		var err error
		if d, ok := defined[n]; ok {
			t, err = translateDefined(srcs, d, weaving)
		} else {
			t, err = translateAtAspect(srcs, n, weaving)
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		ts = append(ts, t)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("the aspects of aop.xml:\n%s", strings.Join(errs, "\n"))
	}
	rt, err := rtAt.find(srcs, agent)
	if err != nil {
		return nil, err
	}
	return installAtAspects(j, ts, rt)
}

// translateAtAspect reads the aspect named name (binary) and the aspects
// it extends from the first source holding each, and translates it.
func translateAtAspect(srcs []classpath.Source, name string, weaving pointcut.AtWeaving) (*pointcut.AtTranslation, error) {
	a, where, err := readAtAspect(srcs, strings.ReplaceAll(name, ".", "/"))
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, fmt.Errorf("aspect %s (in %s): not annotated @org.aspectj.lang.annotation.Aspect", name, where)
	}
	return translateWithSupers(srcs, a, weaving)
}

// translateDefined translates an aop.xml's <concrete-aspect>: an aspect
// extending an abstract @AspectJ aspect, whose abstract pointcuts the
// element's <pointcut>s define.
func translateDefined(srcs []classpath.Source, d definedAspect, weaving pointcut.AtWeaving) (*pointcut.AtTranslation, error) {
	ca := d.ca
	where := fmt.Sprintf("%s:%d: <concrete-aspect name=%q>", d.x.File, ca.Line, ca.Name)
	switch {
	case ca.Other != "":
		return nil, fmt.Errorf("%s: its %s is not supported yet; hint: write the advice in an @Aspect class", where, ca.Other)
	case ca.PerClause != "":
		return nil, fmt.Errorf("%s: perclause is not supported yet; hint: give the abstract aspect the per-clause", where)
	}
	sup, _, err := readAtAspect(srcs, strings.ReplaceAll(ca.Extends, ".", "/"))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: extends %s: %v", where, ca.Extends, err)
	case sup == nil || !sup.Abstract:
		return nil, fmt.Errorf("%s: extends %s, which is not an abstract @Aspect class", where, ca.Extends)
	}
	a := &pointcut.AtAspect{Class: strings.ReplaceAll(ca.Name, ".", "/"), Super: sup.Class, Generated: true, Precedence: ca.Precedence}
	for _, p := range ca.Pointcuts {
		a.Pointcuts = append(a.Pointcuts, &pointcut.AtPointcut{Name: p.Name, Desc: "()V", Expr: p.Expression, Params: []pointcut.AtParam{}})
	}
	return translateWithSupers(srcs, a, weaving)
}

// translateWithSupers reads the aspects a extends and translates a.
func translateWithSupers(srcs []classpath.Source, a *pointcut.AtAspect, weaving pointcut.AtWeaving) (*pointcut.AtTranslation, error) {
	name := strings.ReplaceAll(a.Class, "/", ".")
	var supers []*pointcut.AtAspect
	for s := a.Super; s != "java/lang/Object"; {
		sup, _, err := readAtAspect(srcs, s)
		if err != nil {
			return nil, fmt.Errorf("aspect %s extends %s: %v", name, strings.ReplaceAll(s, "/", "."), err)
		}
		if sup == nil { // a plain class: nothing to inherit but its methods
			break
		}
		supers = append(supers, sup)
		s = sup.Super
	}
	weaving.Exists = func(internal string) bool {
		for _, s := range srcs {
			if _, err := s.Class(internal); err == nil {
				return true
			}
		}
		return false
	}
	return pointcut.TranslateAtAspect(a, supers, weaving)
}

// readAtAspect reads class internal from the first source holding it:
// its aspect, nil if it is no @Aspect, and the source's name.
func readAtAspect(srcs []classpath.Source, internal string) (*pointcut.AtAspect, string, error) {
	for _, s := range srcs {
		b, err := s.Class(internal)
		if err != nil {
			continue
		}
		c, err := classfile.Parse(internal+".class", b)
		if err != nil {
			return nil, s.String(), fmt.Errorf("%s: %v", s, err)
		}
		a, err := pointcut.ReadAtAspect(c)
		return a, s.String(), err
	}
	return nil, "", fmt.Errorf("aspect %s: no class %s.class on the class path", strings.ReplaceAll(internal, "/", "."), internal)
}

// rtPlaces says where a command looks for aspectjrt, for its error.
type rtPlaces struct{ where, hint string }

var (
	onClassPath  = rtPlaces{"the class path nor a -javaagent", "add aspectjrt.jar to the class path"}
	onAspectPath = rtPlaces{"--aspectpath nor -cp", "add aspectjrt.jar to -cp"}
)

// find returns aspectjrt's entry among srcs, else the agent's jar.
func (p rtPlaces) find(srcs []classpath.Source, agent string) (string, error) {
	if rt := aspectjrtOf(srcs, agent); rt != "" {
		return rt, nil
	}
	return "", fmt.Errorf("the @AspectJ aspects need aspectjrt (org.aspectj.lang): it is on neither %s; hint: %s", p.where, p.hint)
}

// aspectjrtOf returns the class path entry holding org.aspectj.lang's
// JoinPoint, else the agent's jar (aspectjweaver holds aspectjrt), else "".
func aspectjrtOf(srcs []classpath.Source, agent string) string {
	for _, s := range srcs {
		if _, err := s.Class("org/aspectj/lang/JoinPoint"); err == nil {
			return s.String()
		}
	}
	return agent
}

// installAtAspects writes the translations' .weft files and compiles
// their dispatchers against weft's runtime and weft.at, built for
// aspectjrt rt with JDK j, into weft's cache, named by their content.
func installAtAspects(j *JDK, ts []*pointcut.AtTranslation, rt string) (*atAspects, error) {
	rtClasses, err := rtjava.Build(j.Home, runtimeDir())
	if err != nil {
		return nil, fmt.Errorf("building weft's runtime: %v", err)
	}
	atClasses, err := rtjava.BuildAt(j.Home, rt, runtimeDir())
	if err != nil {
		return nil, fmt.Errorf("building weft's adapters of aspectjrt (%s): %v", rt, err)
	}
	sources := map[string][]byte{}
	h := sha256.New()
	for _, t := range ts {
		sources[t.Dispatcher+".java"] = t.Java
		fmt.Fprintf(h, "%s\x00%d\x00", t.Aspect, len(t.Weft))
		h.Write(t.Weft)
	}
	key := rtjava.SourcesHash(sources, []byte(rtjava.Hash()), []byte(rt), h.Sum(nil))[:16]
	dir := filepath.Join(runtimeDir(), "ataspectj-"+key)
	javac := filepath.Join(j.Home, "bin", "javac")
	dispatchers, err := rtjava.CompileCached(javac, filepath.Join(dir+"-build"), sources, func(src string) ([]string, error) {
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
	classes := filepath.Join(dir, "classes")
	at := &atAspects{AdviceCP: JoinClassPath(classes, rt), Classes: classes}
	for i, t := range ts {
		at.Files = append(at.Files, filepath.Join(dir, fmt.Sprintf("%02d-%s.weft", i, t.Aspect)))
	}
	if exists(classes) {
		return at, nil
	}
	tmp := dir + ".tmp" + strconv.Itoa(os.Getpid())
	defer os.RemoveAll(tmp)
	all := map[string][]byte{}
	for n, b := range atClasses {
		all[n] = b
	}
	for n, b := range dispatchers {
		all[n] = b
	}
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

// aspectPathAspects reads the @AspectJ aspects that the aop.xml files of
// the aspect path's entries list, else those of every class of the
// entries (ajc's -aspectpath; abstract aspects apply only through
// others), in class path and then name order, and installs them; cp (the
// program's classes) resolves the type names of their pointcuts;
// aspectjrt is looked up on the aspect path, then on cp. nil when the
// aspect path holds no aspect.
func aspectPathAspects(w io.Writer, j *JDK, aspectPath, cp string) (*atAspects, error) {
	entries := filepath.SplitList(aspectPath)
	configs, err := readAopXMLs(entries)
	if err != nil {
		return nil, err
	}
	if len(configs) > 0 { // the aspects the path's aop.xml files list, as AspectJ's agent reads them
		return buildAtAspects(w, j, configs, append(entries, filepath.SplitList(cp)...), "", onAspectPath)
	}
	srcs, err := classpath.OpenClassPath(JoinClassPath(aspectPath, cp), j.Home)
	if err != nil {
		return nil, err
	}
	defer closeSources(srcs)
	var names []string
	for _, s := range srcs[:min(len(entries), len(srcs))] {
		err := s.Walk(func(e classpath.ClassEntry) error {
			b, err := e.Read()
			if err != nil || !bytes.Contains(b, []byte("Lorg/aspectj/lang/annotation/Aspect;")) {
				return err
			}
			c, err := classfile.Parse(e.Path, b)
			if err != nil {
				return nil // not a class weft reads: not an aspect it runs
			}
			a, err := pointcut.ReadAtAspect(c)
			if err == nil && (a == nil || a.Abstract) {
				return nil
			}
			names = append(names, strings.ReplaceAll(c.Name(), "/", "."))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("--aspectpath %s: %v", s, err)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--aspectpath %s: no @AspectJ aspect (a class annotated @org.aspectj.lang.annotation.Aspect)", aspectPath)
	}
	var ts []*pointcut.AtTranslation
	var errs []string
	for _, n := range names {
		t, err := translateAtAspect(srcs, n, pointcut.AtWeaving{})
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		ts = append(ts, t)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("the aspects of --aspectpath:\n%s", strings.Join(errs, "\n"))
	}
	rt, err := onAspectPath.find(srcs, "")
	if err != nil {
		return nil, err
	}
	return installAtAspects(j, ts, rt)
}
