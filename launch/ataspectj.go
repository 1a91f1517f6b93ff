package launch

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/aopxml"
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
	// ShowWeaveInfo: an aop.xml's weaver options ask for AspectJ's
	// weave-info messages (-showWeaveInfo), which weft run writes to
	// standard error unless --weave-info names a file.
	ShowWeaveInfo bool
}

// aspectJAgentClass is AspectJ's load-time weaving agent: an agent jar
// holding it is AspectJ's weaver, or a tool bundling it (Kieker's
// monitoring agent).
const aspectJAgentClass = "org/aspectj/weaver/loadtime/Agent.class"

// agentJar returns the jar a -javaagent: option names, "" for another
// option.
func agentJar(opt string) string {
	jar, ok := strings.CutPrefix(opt, "-javaagent:")
	if !ok {
		return ""
	}
	jar, _, _ = strings.Cut(jar, "=")
	return jar
}

// isAspectJWeaverJar reports whether jar is named as AspectJ's weaver is,
// aspectjweaver*.jar.
func isAspectJWeaverJar(jar string) bool {
	base := filepath.Base(jar)
	return strings.HasPrefix(base, "aspectjweaver") && strings.HasSuffix(base, ".jar")
}

// isAspectJAgent reports whether a JVM option starts AspectJ's load-time
// weaver: -javaagent: naming aspectjweaver*.jar, or a jar bundling its
// agent class.
func isAspectJAgent(opt string) bool {
	jar := agentJar(opt)
	if jar == "" {
		return false
	}
	if isAspectJWeaverJar(jar) {
		return true
	}
	found, err := classpath.ReadResources(jar, aspectJAgentClass)
	return err == nil && found[aspectJAgentClass] != nil
}

// configurationProperty is AspectJ's system property naming the aop.xml
// resources its agent reads: ';'-separated resource names, file: URLs
// for files.
const configurationProperty = "org.aspectj.weaver.loadtime.configuration"

// aopXMLNames returns the aop.xml resources the command line's agent
// reads: its -D of configurationProperty's, else AspectJ's default.
func aopXMLNames(line *javacmd.Line) (names, files []string) {
	value, set := "", false
	for _, o := range line.JVMOptions() {
		if v, ok := strings.CutPrefix(o, "-D"+configurationProperty+"="); ok {
			value, set = v, true
		}
	}
	if !set {
		return aopxml.Resources, nil
	}
	for _, n := range strings.Split(value, ";") {
		switch n = strings.TrimSpace(n); {
		case n == "":
		case strings.HasPrefix(n, "file:"):
			files = append(files, strings.TrimPrefix(strings.TrimPrefix(n, "file:"), "//"))
		default:
			names = append(names, n)
		}
	}
	return names, files
}

// takeOverAspectJ reads the AspectJ configuration of the java command line
// (its entries present, of JDK j) and returns the line without AspectJ's
// agent, and what the aspects add; nil when the command has neither
// aop.xml nor the agent. An agent jar bundling more than AspectJ's weaver
// (Kieker's) joins the class path, as the JVM appends an agent's jar to
// it: its classes are the aspects'.
func takeOverAspectJ(w io.Writer, j *JDK, line *javacmd.Line, present []string) (*javacmd.Line, *atAspects, error) {
	agent := ""
	agents := map[string]bool{} // the options starting one, each jar read once
	for _, o := range line.JVMOptions() {
		if isAspectJAgent(o) {
			agent, agents[o] = agentJar(o), true
		}
	}
	names, files := aopXMLNames(line)
	if agent != "" {
		line = line.Without(func(o string) bool { return agents[o] })
		fmt.Fprintf(w, "weft: AspectJ's agent (%s) does not run: weft weaves the aspects of aop.xml in its place\n", agent)
		if !isAspectJWeaverJar(agent) && !slices.Contains(present, agent) {
			if line.Mode == javacmd.Jar {
				return nil, nil, fmt.Errorf("the agent %s holds the aspects' classes, and a -jar's class path is its manifest's: "+
					"run the main class with -cp %s:… instead of -jar", agent, agent)
			}
			line = line.WithClassPathAppended(agent)
			present = append(slices.Clone(present), agent)
		}
	}
	configs, err := readAopXMLs(present, names)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		x, err := readAopXMLFile(f)
		if err != nil {
			return nil, nil, err
		}
		configs = append(configs, x)
	}
	if agent == "" && len(configs) == 0 {
		return line, nil, nil
	}
	if len(configs) == 0 {
		which := "META-INF/aop.xml on the class path"
		if len(files) > 0 || !slices.Equal(names, aopxml.Resources) {
			which = strings.Join(append(slices.Clone(names), files...), " nor ") + " (-D" + configurationProperty + ")"
		}
		fmt.Fprintf(w, "weft: warning: no %s: no AspectJ aspect runs\n", which)
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
	configs, err := readAopXMLs(entries, aopxml.Resources)
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
