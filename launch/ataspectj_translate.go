package launch

import (
	"fmt"
	"io"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/aopxml"
	"github.com/weft-aop/weft/pointcut"
)

// Reading the @AspectJ aspects a configuration lists, and the aspects they
// extend, from a class path, and translating each (pointcut.TranslateAtAspect).

// buildAtAspects reads and translates the aspects the configurations list
// from the class path entries, and installs the result in weft's cache.
func buildAtAspects(w io.Writer, j *JDK, configs []*aopxml.Config, entries []string, agent string, rtAt rtPlaces) (*atAspects, error) {
	names, defined, weaving, showWeaveInfo, err := atConfig(w, configs)
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
	at, err := installAtAspects(j, ts, rt)
	if at != nil {
		at.ShowWeaveInfo = showWeaveInfo
	}
	return at, err
}

// translateAtAspect reads the aspect named name (binary) and the aspects
// it extends from the first source holding each, and translates it.
func translateAtAspect(srcs []classpath.Source, name string, weaving pointcut.AtOptions) (*pointcut.AtTranslation, error) {
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
func translateDefined(srcs []classpath.Source, d definedAspect, weaving pointcut.AtOptions) (*pointcut.AtTranslation, error) {
	ca := d.ca
	where := fmt.Sprintf("%s:%d: <concrete-aspect name=%q>", d.x.File, ca.Line, ca.Name)
	if ca.Other != "" {
		return nil, fmt.Errorf("%s: its %s is not supported yet; hint: write the advice in an @Aspect class", where, ca.Other)
	}
	per, err := pointcut.ParsePerClause(strings.ReplaceAll(ca.Name, ".", "/"), ca.PerClause)
	if err != nil {
		return nil, fmt.Errorf("%s: perclause=%q: %v", where, ca.PerClause, err)
	}
	sup, _, err := readAtAspect(srcs, strings.ReplaceAll(ca.Extends, ".", "/"))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: extends %s: %v", where, ca.Extends, err)
	case sup == nil || !sup.Abstract:
		return nil, fmt.Errorf("%s: extends %s, which is not an abstract @Aspect class", where, ca.Extends)
	}
	a := &pointcut.AtAspect{Class: strings.ReplaceAll(ca.Name, ".", "/"), Super: sup.Class, Generated: true, Precedence: ca.Precedence, Per: per}
	for _, p := range ca.Pointcuts {
		a.Pointcuts = append(a.Pointcuts, &pointcut.AtPointcut{Name: p.Name, Desc: "()V", Expr: p.Expression, Params: []pointcut.AtParam{}})
	}
	return translateWithSupers(srcs, a, weaving)
}

// translateWithSupers reads the aspects a extends and translates a.
func translateWithSupers(srcs []classpath.Source, a *pointcut.AtAspect, weaving pointcut.AtOptions) (*pointcut.AtTranslation, error) {
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
