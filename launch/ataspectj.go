package launch

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/javacmd"
	"github.com/weft-aop/weft/pointcut"
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

// aspectPathAspects reads the @AspectJ aspects that the aop.xml files of
// the aspect path's entries list, else those of every class of the
// entries (ajc's -aspectpath; abstract aspects apply only through
// others), in class path and then name order, and installs them; cp (the
// program's classes) resolves the type names of their pointcuts;
// aspectjrt is looked up on the aspect path, then on cp. nil when the
// aspect path holds no aspect.
func aspectPathAspects(w io.Writer, j *JDK, aspectPath, cp string) (*atAspects, error) {
	at, err := readAspectPath(w, j, aspectPath, cp)
	if err != nil {
		return nil, err
	}
	// The aspects' own classes resolve the types they name (the
	// interfaces of @DeclareParents): the aspect path is advice too.
	at.AdviceCP = JoinClassPath(at.AdviceCP, aspectPath)
	return at, nil
}

// readAspectPath is aspectPathAspects but for the advice class path.
func readAspectPath(w io.Writer, j *JDK, aspectPath, cp string) (*atAspects, error) {
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
		t, err := translateAtAspect(srcs, n, pointcut.AtOptions{})
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
