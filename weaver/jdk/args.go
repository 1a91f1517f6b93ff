package jdk

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// This file writes DIR/weft.args, the options that run the woven JDK.

// WriteArgs writes DIR/weft.args: the JVM options that run the woven JDK.
// Every module with a patch directory gets --patch-module and reads the
// unnamed module (where the advice lives, on -Xbootclasspath/a); the
// runtime package is exported to the unnamed module and to each of them.
// Modules outside the default boot layer (incubator modules, the
// serviceability agent...) would make the JVM warn "Unknown module": their
// lines are written as comments to uncomment along with --add-modules.
//
// It also writes DIR/weft.jargs, the same options for the JDK's other
// launchers (javac, jar, jshell...), which take JVM options only as -J
// arguments and expand no @argfile: one -J option a line, unquoted.
func WriteArgs(dir, javaHome string, bootAppend []string) error {
	patchDir := filepath.Join(dir, "patch")
	ents, err := os.ReadDir(patchDir)
	if err != nil {
		return err
	}
	boot, err := BootLayer(javaHome)
	if err != nil {
		return err
	}
	var mods, others []string
	where := map[string]string{} // module → its patch directory or jar
	for _, e := range ents {
		m := e.Name()
		if !e.IsDir() {
			var ok bool
			if m, ok = strings.CutSuffix(m, ".jar"); !ok {
				continue
			}
		}
		where[m] = filepath.Join(patchDir, e.Name())
		if boot[m] {
			mods = append(mods, m)
		} else {
			others = append(others, m)
		}
	}
	sort.Strings(mods)
	pkg := strings.ReplaceAll(rtnames.Package, "/", ".")
	var opts []jvmOption
	for _, m := range mods {
		opts = append(opts, jvmOption{"--patch-module", m + "=" + where[m]})
	}
	for _, m := range mods {
		opts = append(opts, jvmOption{"--add-reads", m + "=ALL-UNNAMED"})
	}
	// A `java -m M` run resolves only M and what it needs; naming every
	// patched module keeps the options above meaningful (no "Unknown
	// module" warnings) without changing a class path run's boot layer.
	opts = append(opts, jvmOption{"--add-modules", strings.Join(mods, ",")})
	targets := append([]string{"ALL-UNNAMED"}, without(mods, "java.base")...)
	opts = append(opts, jvmOption{"--add-exports", "java.base/" + pkg + "=" + strings.Join(targets, ",")})
	if len(bootAppend) > 0 {
		opts = append(opts, jvmOption{"-Xbootclasspath/a:", strings.Join(bootAppend, string(os.PathListSeparator))})
	}
	ids := filepath.Join(dir, IDsFile)
	if _, err := os.Stat(ids); err == nil {
		opts = append(opts, jvmOption{"-Dweft.ids=", ids}) // ids.go
	}

	var args, jargs strings.Builder
	args.WriteString("# weft: run the woven JDK with: java @" + filepath.Join(dir, "weft.args") + " ...\n")
	for _, o := range opts {
		args.WriteString(o.arg() + "\n")
		jargs.WriteString(o.jarg() + "\n")
	}
	if len(others) > 0 {
		args.WriteString("# Woven modules outside the default boot layer. To use one, add\n" +
			"# --add-modules M and uncomment its lines:\n")
		for _, m := range others {
			fmt.Fprintf(&args, "# %s\n# %s\n# %s\n", jvmOption{"--patch-module", m + "=" + where[m]}.arg(),
				jvmOption{"--add-reads", m + "=ALL-UNNAMED"}.arg(), jvmOption{"--add-exports", "java.base/" + pkg + "=" + m}.arg())
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "weft.args"), []byte(args.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "weft.jargs"), []byte(jargs.String()), 0o644)
}

// jvmOption is one JVM option of weft.args: a name ending in ':' or '='
// takes its value in the same argument, any other the next one.
type jvmOption struct{ name, value string }

// arg is the option as a line of a java @argfile.
func (o jvmOption) arg() string {
	if o.joined() {
		return o.name + argQuote(o.value)
	}
	return o.name + " " + argQuote(o.value)
}

// jarg is the option as one -J argument of a JDK launcher.
func (o jvmOption) jarg() string {
	if o.joined() {
		return "-J" + o.name + o.value
	}
	return "-J" + o.name + "=" + o.value
}

// joined reports whether the option's value is in the same argument.
func (o jvmOption) joined() bool {
	return strings.HasSuffix(o.name, ":") || strings.HasSuffix(o.name, "=")
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// argQuote quotes a value for a java @argfile when it needs it.
func argQuote(s string) string {
	if !strings.ContainsAny(s, " \t\"'#\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
