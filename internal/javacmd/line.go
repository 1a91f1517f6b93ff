package javacmd

import (
	"path/filepath"
	"slices"
	"strings"
)

// Mode is what a java command runs.
type Mode int

const (
	NoProgram  Mode = iota // java -version, --list-modules, ...: the launcher's own work
	MainClass              // java [options] CLASS args
	Jar                    // java [options] -jar JAR args
	Module                 // java [options] -m MODULE[/CLASS] args
	SourceFile             // java [options] File.java args
)

func (m Mode) String() string {
	return [...]string{"no program", "main class", "jar", "module", "source file"}[m]
}

// Source is where a class path came from.
type Source int

const (
	FromNowhere Source = iota // a tool's, or -m's without one: none
	FromOption                // -cp, -classpath or --class-path
	FromJar                   // -jar: the jar and its manifest's Class-Path
	FromEnv                   // $CLASSPATH
	FromDefault               // the current directory, as no option says otherwise
)

// Line is a launcher's command line, parsed. Its fields are read-only: a
// stage that changes the command makes a new Line.
type Line struct {
	// Launcher is the command: the path or name given (java, javac, ...).
	Launcher string
	// Tool is set for the JDK's tools (javac, jar, jshell, ...), whose own
	// arguments Options holds unparsed; their JVM options are -J options.
	Tool bool
	// Options are the launcher's options, before the program, with the
	// argfiles expanded (for a tool: all its arguments).
	Options []string
	// Mode, Target and Program say what runs: the main class, jar, module
	// (MODULE or MODULE/CLASS) or source file, and its own arguments.
	Mode    Mode
	Target  string
	Program []string
	// ClassPath is the application class path as the launcher builds it:
	// the last -cp, -classpath or --class-path, else $CLASSPATH, else the
	// current directory; for -jar, the jar and its manifest's Class-Path
	// (resolved against the jar's directory); none for -m without them.
	// Wildcard entries (dir/*) are expanded to the directory's jars.
	// ClassPathFrom says where it came from.
	ClassPath     []string
	ClassPathFrom Source
	// ModulePath is the --module-path (-p) entries, in order.
	ModulePath []string
	// Argfiles lists the argfiles expanded, in order.
	Argfiles []string

	cp    string // the class path option's value as given
	cpSet bool
	err   error
}

// Env is what Parse reads besides the arguments: an environment variable.
// The zero Env reads nothing (os.Getenv is the usual one).
type Env func(name string) string

// Parse reads args, the arguments after the command, as the launcher named
// by launcher (a path or a name: java, javac, ...) reads them: as a tool's
// (ParseTool) if it is named like one of the JDK's tools, else as java's
// (ParseJava).
func Parse(launcher string, args []string, getenv Env) (*Line, error) {
	if tools[strings.TrimSuffix(filepath.Base(launcher), ".exe")] {
		return ParseTool(launcher, args), nil
	}
	return ParseJava(launcher, args, getenv)
}

// ParseJava reads args as the java launcher does. getenv gives $CLASSPATH
// (nil: none). An argfile that cannot be read is an error, as it is to
// the launcher.
func ParseJava(launcher string, args []string, getenv Env) (*Line, error) {
	l := &Line{Launcher: launcher}
	if err := l.parseJava(args); err != nil {
		return nil, err
	}
	l.findClassPath(getenv)
	return l, nil
}

// ParseTool reads args as a JDK tool's (javac, jar, jshell, ...): its
// own arguments, with JVM options as -J options.
func ParseTool(launcher string, args []string) *Line {
	return &Line{Launcher: launcher, Tool: true, Options: slices.Clone(args)}
}

// item is an argument and whether it came from an argfile (whose own @
// arguments are not expanded: argfiles do not nest).
type item struct {
	arg      string
	fromFile bool
}

// parseJava splits java's arguments into options, the program and its
// arguments, expanding argfiles up to the program as the launcher does.
func (l *Line) parseJava(args []string) error {
	queue := make([]item, len(args))
	for i, a := range args {
		queue[i] = item{arg: a}
	}
	expand := true
	next := func() (string, bool) {
		for len(queue) > 0 {
			it := queue[0]
			queue = queue[1:]
			a := it.arg
			if !expand || it.fromFile || !strings.HasPrefix(a, "@") {
				return a, true
			}
			if strings.HasPrefix(a, "@@") {
				return a[1:], true // @@x is the argument @x
			}
			more, err := readArgFile(a[1:])
			if err != nil {
				l.err = err
				return "", false
			}
			l.Argfiles = append(l.Argfiles, a[1:])
			spliced := make([]item, 0, len(more)+len(queue))
			for _, m := range more {
				spliced = append(spliced, item{arg: m, fromFile: true})
			}
			queue = append(spliced, queue...)
		}
		return "", false
	}
	rest := func() []string {
		out := make([]string, len(queue))
		for i, it := range queue {
			out[i] = it.arg
		}
		return out
	}
	for {
		a, ok := next()
		if !ok {
			return l.err
		}
		if a == "--disable-@files" {
			expand = false
		}
		l.Options = append(l.Options, a)
		name, value, joined := splitLong(a)
		if !joined {
			name = a
		}
		switch {
		case name == "-jar" || name == "-m" || name == "--module":
			l.Options = l.Options[:len(l.Options)-1]
			if !joined {
				if value, ok = next(); !ok {
					return l.err // java's own error: no value
				}
			}
			l.Mode, l.Target, l.Program = Module, value, rest()
			if name == "-jar" {
				l.Mode = Jar
			}
			return nil
		case valueOptions[name]:
			if !joined {
				if value, ok = next(); !ok {
					return l.err
				}
				l.Options = append(l.Options, value)
			}
			switch {
			case isClassPathOption(name):
				l.cp, l.cpSet = value, true
			case isModulePathOption(name):
				l.ModulePath = append(l.ModulePath, filepath.SplitList(value)...)
			}
		case !strings.HasPrefix(a, "-"):
			l.Options = l.Options[:len(l.Options)-1]
			l.Mode, l.Target, l.Program = MainClass, a, rest()
			if strings.HasSuffix(a, ".java") {
				l.Mode = SourceFile
			}
			return nil
		}
	}
}
