package javacmd

import (
	"path/filepath"
	"slices"
	"strings"
)

// Args writes l back out: the arguments after the command, the argfiles
// expanded.
func (l *Line) Args() []string {
	out := slices.Clone(l.Options)
	switch l.Mode {
	case Jar:
		out = append(out, "-jar", l.Target)
	case Module:
		out = append(out, "-m", l.Target)
	case MainClass, SourceFile:
		out = append(out, l.Target)
	}
	return append(out, l.Program...)
}

// JVMOptions returns the options the JVM and the launcher see, not the
// program's: java's options before the program, a tool's -J options
// without their -J.
func (l *Line) JVMOptions() []string {
	if !l.Tool {
		return slices.Clone(l.Options)
	}
	var out []string
	for _, a := range l.Options {
		if strings.HasPrefix(a, "-J") {
			out = append(out, a[2:])
		}
	}
	return out
}

// WithJVMOptions returns l with the JVM options opts before its own (so
// that the command's own, read later, win where an option may be given
// twice): as -J options for a tool.
func (l *Line) WithJVMOptions(opts ...string) *Line {
	n := *l
	pre := slices.Clone(opts)
	if l.Tool {
		for i, o := range pre {
			pre[i] = "-J" + o
		}
	}
	n.Options = append(pre, l.Options...)
	return &n
}

// WithJVMOptionsAfter returns l with the JVM options opts after its own,
// so that they win where an option may be given twice (as -J options for
// a tool, which reads them anywhere among its arguments).
func (l *Line) WithJVMOptionsAfter(opts ...string) *Line {
	n := *l
	n.Options = slices.Clone(l.Options)
	for _, o := range opts {
		if l.Tool {
			o = "-J" + o
		}
		n.Options = append(n.Options, o)
	}
	return &n
}

// WithClassPath returns l with each class path entry e replaced by
// woven(e) (the -jar file too). The class path option keeps its spelling
// where nothing changes; a class path from $CLASSPATH that changes is
// given as -cp.
func (l *Line) WithClassPath(woven func(entry string) string) *Line {
	n := *l
	if l.Tool {
		return &n
	}
	changed := false
	n.ClassPath = make([]string, len(l.ClassPath))
	for i, e := range l.ClassPath {
		n.ClassPath[i] = woven(e)
		changed = changed || n.ClassPath[i] != e
	}
	if !changed {
		return &n
	}
	if l.Mode == Jar {
		n.Target = n.ClassPath[0]
		return &n
	}
	n.setClassPathOption()
	return &n
}

// WithClassPathAppended returns l with entries after its class path (the
// default "." made explicit). A -jar's class path is its manifest's: l is
// returned as it is.
func (l *Line) WithClassPathAppended(entries ...string) *Line {
	n := *l
	if l.Tool || l.Mode == Jar || len(entries) == 0 {
		return &n
	}
	n.ClassPath = append(slices.Clone(l.ClassPath), entries...)
	n.setClassPathOption()
	return &n
}

// setClassPathOption writes l.ClassPath into l's class path option, the
// last one given, or a -cp added.
func (l *Line) setClassPathOption() {
	n := l
	cp := strings.Join(n.ClassPath, string(filepath.ListSeparator))
	n.Options = slices.Clone(l.Options)
	last := -1 // the class path option that counts: the last
	for i := 0; i < len(n.Options); i++ {
		name, _, joined := splitLong(n.Options[i])
		if !joined {
			name = n.Options[i]
		}
		switch {
		case isClassPathOption(name):
			last = i
			if !joined {
				i++
			}
		case valueOptions[name] && !joined:
			i++
		}
	}
	switch {
	case last < 0:
		n.Options = append(n.Options, "-cp", cp)
	case strings.Contains(n.Options[last], "="):
		n.Options[last] = "--class-path=" + cp
	default:
		n.Options[last+1] = cp
	}
	n.cp, n.cpSet, n.ClassPathFrom = cp, true, FromOption
}

// Without returns l without the launcher options drop says true of (for a
// tool, its -J options, given without their -J).
func (l *Line) Without(drop func(option string) bool) *Line {
	n := *l
	n.Options = nil
	for _, o := range l.Options {
		jvm := o
		if l.Tool {
			if !strings.HasPrefix(o, "-J") {
				n.Options = append(n.Options, o)
				continue
			}
			jvm = o[2:]
		}
		if !drop(jvm) {
			n.Options = append(n.Options, o)
		}
	}
	return &n
}
