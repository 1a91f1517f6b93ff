package launch

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/aopxml"
	"github.com/weft-aop/weft/pointcut"
)

// What a program's aop.xml files say together: the aspects that run, those
// they define (<concrete-aspect>), and the types woven.

// readAopXMLs reads the resources names (aopxml.Resources, unless
// AspectJ's configuration property says otherwise) of the class path
// entries, in class path order and, within an entry, in the names' order.
func readAopXMLs(entries, names []string) ([]*aopxml.Config, error) {
	var out []*aopxml.Config
	for _, e := range entries {
		found, err := classpath.ReadResources(e, names...)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			b, ok := found[name]
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

// readAopXMLFile reads an aop.xml file named by a file: URL of AspectJ's
// configuration property.
func readAopXMLFile(path string) (*aopxml.Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-D%s: %v", configurationProperty, err)
	}
	return aopxml.Parse(path, b)
}

// atConfig is the configurations' union: the aspects that run (names,
// and the concrete aspects the files define, by name), the types woven
// and whether an option asks for AspectJ's weave-info messages
// (-showWeaveInfo).
func atConfig(w io.Writer, configs []*aopxml.Config) ([]string, map[string]definedAspect, pointcut.AtOptions, bool, error) {
	var names []string
	showWeaveInfo := false
	defined := map[string]definedAspect{}
	type pattern struct{ where, within string }
	var include, exclude []pattern
	var weaving pointcut.AtOptions
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
			if o == "-showWeaveInfo" {
				showWeaveInfo = true
				continue
			}
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
				return nil, nil, weaving, false, err
			}
			ok = ok || m
		}
		for _, it := range exclude {
			m, err := match(it, n)
			if err != nil {
				return nil, nil, weaving, false, err
			}
			ok = ok && !m
		}
		if ok {
			kept = append(kept, n)
		}
	}
	return kept, defined, weaving, showWeaveInfo, nil
}

// definedAspect is a <concrete-aspect> and the file defining it.
type definedAspect struct {
	x  *aopxml.Config
	ca *aopxml.ConcreteAspect
}
