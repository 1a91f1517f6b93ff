package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classfile/javap"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/launch"
)

// dumpOptions are weft classfile dump's flags.
type dumpOptions struct {
	noPool   bool
	method   string
	javaHome string
}

func newClassfileDumpCmd() *cobra.Command {
	opts := &dumpOptions{}
	cmd := &cobra.Command{
		Use:   "dump CLASS",
		Short: "List a class file like javap -c -v: pool, members, bytecode, attributes",
		Long: `dump prints a readable listing of one class file: the header, the constant
pool, the fields, the methods with their bytecode (branch targets, switch
tables, exception table, line numbers, local variables and stack map frames
shown with bytecode offsets) and every attribute, decoded where the JVM
specification defines it and in hex otherwise.

Instructions are shown in the form the class file holds (iload_1, ldc_w,
goto_w ...); constant-pool operands carry a comment saying what they refer
to. Use it to see what weft will weave, or what it wove.

CLASS is one of:
  path/to/Foo.class             a class file
  app.jar!com/x/Foo.class       an entry of a jar (".class" may be left out;
                                a directory may stand in for the jar)
  jdk:java/lang/String          a class of the JDK's modules image, found in
                                whichever module has its package
  jdk:java.base/module-info     the class of one module of the image

Examples:
  weft classfile dump jdk:java/lang/String
  weft classfile dump --method hashCode jdk:java/lang/String
  weft classfile dump --no-pool build/classes/com/x/Foo.class
  weft classfile dump app.jar!com/x/Foo`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return dumpClass(cmd.OutOrStdout(), args[0], opts.javaHome,
				javap.DumpOptions{NoPool: opts.noPool, Method: opts.method})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.noPool, "no-pool", false, "leave out the constant pool")
	f.StringVarP(&opts.method, "method", "m", "", "list only the methods with this `name` (or name+descriptor, e.g. \"hashCode()I\")")
	javaHomeFlag(cmd, &opts.javaHome, "the `JDK` whose image jdk: names read")
	return cmd
}

// dumpClass loads the class spec names and writes its listing to w.
func dumpClass(w io.Writer, spec, javaHome string, opts javap.DumpOptions) error {
	where, b, err := readClassSpec(spec, javaHome)
	if err != nil {
		return err
	}
	c, err := classfile.Parse(where, b)
	if err != nil {
		return err
	}
	if opts.Method != "" && !hasMethod(c, opts.Method) {
		return fmt.Errorf("%s has no method %q", where, opts.Method)
	}
	return javap.Dump(w, c, opts)
}

func hasMethod(c *classfile.Class, sel string) bool {
	for _, m := range c.Methods {
		if name := c.MemberName(m); sel == name || sel == name+c.MemberDesc(m) {
			return true
		}
	}
	return false
}

// readClassSpec reads the bytes of the class a CLASS argument names, and
// says where they came from (for messages).
func readClassSpec(spec, javaHome string) (where string, b []byte, err error) {
	if name, ok := strings.CutPrefix(spec, "jdk:"); ok {
		return readJDKClass(name, javaHome)
	}
	if container, entry, ok := strings.Cut(spec, "!"); ok {
		name := strings.TrimPrefix(strings.TrimSuffix(entry, ".class"), "/")
		if name == "" {
			return "", nil, fmt.Errorf("%s: no class named after the '!'", spec)
		}
		src, err := classpath.OpenSource(container, "")
		if err != nil {
			return "", nil, fmt.Errorf("opening %s: %w", container, err)
		}
		defer src.Close()
		b, err := src.Class(name)
		if errors.Is(err, classfile.ErrClassNotFound) {
			return "", nil, fmt.Errorf("class %s not found: %s has no entry %s.class", name, container, name)
		}
		return container + "!" + name + ".class", b, err
	}
	b, err = os.ReadFile(spec)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, fmt.Errorf("%s: no such file (CLASS is a class file, JAR!NAME or jdk:NAME)", spec)
	}
	return spec, b, err
}

// readJDKClass reads a class of the JDK's modules image by internal name
// (dots accepted), optionally prefixed by its module: "java.base/module-info".
func readJDKClass(name, javaHome string) (string, []byte, error) {
	javaHome, err := launch.JavaHome(javaHome)
	if err != nil {
		return "", nil, err
	}
	src, err := classpath.OpenJDK(javaHome)
	if err != nil {
		return "", nil, err
	}
	defer src.Close()
	image := filepath.Join(javaHome, "lib", "modules")
	name = strings.TrimSuffix(name, ".class")
	if mod, rest, ok := strings.Cut(name, "/"); ok && slices.Contains(src.Modules(), mod) {
		b, err := src.Image().Read(mod, rest+".class")
		if err != nil {
			return "", nil, fmt.Errorf("class %s not found in module %s of the JDK image %s: %v", rest, mod, image, err)
		}
		return "jdk:" + mod + "/" + rest, b, nil
	}
	if !strings.Contains(name, "/") {
		name = strings.ReplaceAll(name, ".", "/") // java.lang.String
	}
	b, err := src.Class(name)
	if errors.Is(err, classfile.ErrClassNotFound) {
		return "", nil, fmt.Errorf("class %s not found in the JDK image %s: no module has it in package %s (modules: %d; name classes like java/lang/String)",
			name, image, path.Dir(name), len(src.Modules()))
	}
	return "jdk:" + name, b, err
}
