package javacmd

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// showSrc prints what the JVM made of its command line.
const showSrc = `public class Show {
    public static void main(String[] a) {
        System.out.println("cp=" + System.getProperty("java.class.path"));
        System.out.println("k=" + System.getProperty("k"));
        System.out.println("module=" + Show.class.getModule().getName());
        for (String s : a) System.out.println("arg=" + s);
    }
}
`

// lineCase is a command line, what Parse must make of it, and (unless
// noOracle) what the real launcher makes of it: run in a directory where
// a/ and lib/ hold the class Show, app.jar runs it with a Class-Path of
// lib/x.jar lib/y.jar, mods/ holds module m with m/p.Show, and the
// argfiles given are written.
type lineCase struct {
	name     string
	launcher string
	args     []string
	env      string            // $CLASSPATH
	files    map[string]string // argfiles
	mode     Mode
	target   string
	cp       []string
	program  []string
	jvm      []string // JVMOptions
	modPath  []string
	k        string // the JVM's property k
	noOracle bool
	anyOrder bool // cp's order is the directory's (a wildcard)
}

var lineCases = []lineCase{
	{name: "-cp", args: []string{"-cp", "a:lib", "Show", "x", "y"}, mode: MainClass, target: "Show",
		cp: []string{"a", "lib"}, program: []string{"x", "y"}, jvm: []string{"-cp", "a:lib"}},
	{name: "-classpath", args: []string{"-classpath", "a", "Show"}, mode: MainClass, target: "Show", cp: []string{"a"},
		jvm: []string{"-classpath", "a"}},
	{name: "--class-path", args: []string{"--class-path", "a", "Show"}, mode: MainClass, target: "Show", cp: []string{"a"},
		jvm: []string{"--class-path", "a"}},
	{name: "--class-path=", args: []string{"--class-path=lib:a", "Show", "z"}, mode: MainClass, target: "Show",
		cp: []string{"lib", "a"}, program: []string{"z"}, jvm: []string{"--class-path=lib:a"}},
	{name: "$CLASSPATH", args: []string{"Show"}, env: "a:lib", mode: MainClass, target: "Show", cp: []string{"a", "lib"}},
	{name: "-cp over $CLASSPATH", args: []string{"-cp", "a", "Show"}, env: "lib:nowhere", mode: MainClass, target: "Show",
		cp: []string{"a"}, jvm: []string{"-cp", "a"}},
	{name: "the last -cp", args: []string{"-cp", "nowhere", "-cp", "a", "Show"}, mode: MainClass, target: "Show",
		cp: []string{"a"}, jvm: []string{"-cp", "nowhere", "-cp", "a"}},
	{name: "options after the main class are the program's", args: []string{"-Dk=v", "-Xmx64m", "-cp", "a", "Show", "-cp", "x", "-XX:+UseParallelGC"},
		mode: MainClass, target: "Show", cp: []string{"a"}, program: []string{"-cp", "x", "-XX:+UseParallelGC"},
		jvm: []string{"-Dk=v", "-Xmx64m", "-cp", "a"}, k: "v"},
	{name: "-jar with Class-Path", args: []string{"-jar", "app.jar", "p", "q"}, mode: Jar, target: "app.jar",
		cp: []string{"app.jar", "lib/x.jar", "lib/y.jar"}, program: []string{"p", "q"}},
	{name: "-jar ignores -cp", args: []string{"-cp", "nowhere", "-jar", "app.jar"}, mode: Jar, target: "app.jar",
		cp: []string{"app.jar", "lib/x.jar", "lib/y.jar"}, jvm: []string{"-cp", "nowhere"}},
	{name: "-p -m", args: []string{"-p", "mods", "-m", "m/p.Show", "a1"}, mode: Module, target: "m/p.Show",
		modPath: []string{"mods"}, program: []string{"a1"}, jvm: []string{"-p", "mods"}},
	{name: "--module-path --module", args: []string{"--module-path", "mods", "--module", "m/p.Show"}, mode: Module,
		target: "m/p.Show", modPath: []string{"mods"}, jvm: []string{"--module-path", "mods"}},
	{name: "--module-path= --module=", args: []string{"--module-path=mods", "--module=m/p.Show", "-p", "x"}, mode: Module,
		target: "m/p.Show", modPath: []string{"mods"}, program: []string{"-p", "x"}, jvm: []string{"--module-path=mods"}},
	{name: "--add-exports and --add-opens", args: []string{"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
		"--add-opens=java.base/java.lang=ALL-UNNAMED", "-cp", "a", "Show"}, mode: MainClass, target: "Show", cp: []string{"a"},
		jvm: []string{"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED", "-cp", "a"}},
	{name: "--add-modules, -ea", args: []string{"--add-modules", "java.sql", "-ea", "-cp", "a", "Show", "x"}, mode: MainClass,
		target: "Show", cp: []string{"a"}, program: []string{"x"}, jvm: []string{"--add-modules", "java.sql", "-ea", "-cp", "a"}},
	{name: "wildcard", args: []string{"-cp", "lib/*", "Show"}, mode: MainClass, target: "Show",
		cp: []string{"lib/x.jar", "lib/y.jar"}, jvm: []string{"-cp", "lib/*"}, anyOrder: true},
	{name: "source file", args: []string{"-cp", "a", "Show.java", "s"}, mode: SourceFile, target: "Show.java",
		cp: []string{"a"}, program: []string{"s"}, jvm: []string{"-cp", "a"}},
	{name: "argfile", args: []string{"@opts"}, files: map[string]string{"opts": "-cp a\nShow x"}, mode: MainClass,
		target: "Show", cp: []string{"a"}, program: []string{"x"}, jvm: []string{"-cp", "a"}},
	{name: "argfile with quotes and comments", args: []string{"@opts", "Show", "y"},
		files: map[string]string{"opts": "# the class path\n-cp \"a\"  # here\n-Dk=\"with space\"\n"},
		mode:  MainClass, target: "Show", cp: []string{"a"}, program: []string{"y"}, jvm: []string{"-cp", "a", "-Dk=with space"}, k: "with space"},
	{name: "argfile continued line", args: []string{"@opts", "Show"}, files: map[string]string{"opts": "-cp \"a:\\\n    lib\"\n"},
		mode: MainClass, target: "Show", cp: []string{"a", "lib"}, jvm: []string{"-cp", "a:lib"}},
	{name: "argfiles do not nest", args: []string{"@opts"}, files: map[string]string{"opts": "-cp a Show @more", "more": "-cp lib"},
		mode: MainClass, target: "Show", cp: []string{"a"}, program: []string{"@more"}, jvm: []string{"-cp", "a"}},
	{name: "two argfiles", args: []string{"@one", "@two", "z"}, files: map[string]string{"one": "-Dk=1", "two": "-cp a Show"},
		mode: MainClass, target: "Show", cp: []string{"a"}, program: []string{"z"}, jvm: []string{"-Dk=1", "-cp", "a"}, k: "1"},
	{name: "no argfile after the main class", args: []string{"-cp", "a", "Show", "@opts"}, files: map[string]string{"opts": "x"},
		mode: MainClass, target: "Show", cp: []string{"a"}, program: []string{"@opts"}, jvm: []string{"-cp", "a"}},
	{name: "argfile with -jar", args: []string{"@opts"}, files: map[string]string{"opts": "-Dk=j -jar app.jar 1 2"}, mode: Jar,
		target: "app.jar", cp: []string{"app.jar", "lib/x.jar", "lib/y.jar"}, program: []string{"1", "2"}, jvm: []string{"-Dk=j"}, k: "j"},
	{name: "--disable-@files", args: []string{"--disable-@files", "-cp", "a", "Show", "@opts"}, mode: MainClass, target: "Show",
		cp: []string{"a"}, program: []string{"@opts"}, jvm: []string{"--disable-@files", "-cp", "a"}, noOracle: true}, // JDK 17's launcher refuses it
	{name: "-m with $CLASSPATH", args: []string{"-p", "mods", "-m", "m/p.Show"}, env: "a", mode: Module, target: "m/p.Show",
		cp: []string{"a"}, modPath: []string{"mods"}, jvm: []string{"-p", "mods"}},
	{name: "-version", args: []string{"-version"}, mode: NoProgram, cp: []string{"."}, jvm: []string{"-version"}},
	{name: "javac -J", launcher: "javac", args: []string{"-J-Xmx64m", "-d", "out", "-cp", "lib", "Show.java"}, mode: NoProgram,
		jvm: []string{"-Xmx64m"}, noOracle: true},
	{name: "jshell -J", launcher: "/usr/lib/jvm/x/bin/jshell", args: []string{"-J-Dk=v", "--class-path", "a"}, mode: NoProgram,
		jvm: []string{"-Dk=v"}, noOracle: true},
}

// TestParse checks each command line's model against the table and, unless
// the case says otherwise, against the real java launcher: the class
// path the JVM reports (java.class.path), the program's arguments, the
// property k and the main class's module.
func TestParse(t *testing.T) {
	if len(lineCases) < 25 {
		t.Fatalf("%d command lines, want at least 25", len(lineCases))
	}
	root := fixture(t)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, tc := range lineCases {
		dir := filepath.Join(t.TempDir())
		copyDir(t, root, dir)
		for name, text := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		launcher := tc.launcher
		if launcher == "" {
			launcher = "java"
		}
		var l *Line
		var err error
		inDir(t, dir, func() {
			l, err = Parse(launcher, tc.args, func(string) string { return tc.env })
		})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		check := func(what string, got, want any) {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s = %q, want %q", tc.name, what, got, want)
			}
		}
		check("mode", l.Mode, tc.mode)
		check("target", l.Target, tc.target)
		if cp := slices.Clone(l.ClassPath); !l.Tool {
			if tc.anyOrder {
				slices.Sort(cp)
			}
			check("class path", cp, tc.cp)
		}
		check("program", nilIfEmpty(l.Program), tc.program)
		check("JVM options", nilIfEmpty(l.JVMOptions()), tc.jvm)
		check("module path", l.ModulePath, tc.modPath)
		if strings.Join(l.Args(), "\x00") != strings.Join(expandedArgs(tc), "\x00") {
			t.Errorf("%s: Args() = %q", tc.name, l.Args())
		}
		if tc.noOracle {
			continue
		}
		wg.Add(1)
		go func(tc lineCase, l *Line, dir string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			oracle(t, tc, l, dir)
		}(tc, l, dir)
	}
	wg.Wait()
}

// oracle runs the command line on the real launcher and compares.
func oracle(t *testing.T, tc lineCase, l *Line, dir string) {
	cmd := exec.Command(jvmtest.Java(t), tc.args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if tc.env != "" {
		cmd.Env = append(cmd.Env, "CLASSPATH="+tc.env)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s: java %q: %v\n%s", tc.name, tc.args, err, out)
		return
	}
	if tc.mode == NoProgram {
		return
	}
	want := "cp=" + strings.Join(l.ClassPath, string(filepath.ListSeparator))
	if l.Mode == Jar {
		want = "cp=" + l.Target // the manifest's Class-Path is not in java.class.path
	}
	k := tc.k
	if k == "" {
		k = "null"
	}
	want += "\nk=" + k + "\nmodule="
	if l.Mode == Module {
		want += "m"
	} else {
		want += "null"
	}
	for _, a := range l.Program {
		want += "\narg=" + a
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("%s: the launcher says\n%s\nParse says\n%s", tc.name, got, want)
	}
}

// expandedArgs is tc's arguments with its argfiles expanded the way the
// table says: what Args must write.
func expandedArgs(tc lineCase) []string {
	if tc.launcher != "" {
		return tc.args
	}
	var out []string
	out = append(out, tc.jvm...)
	switch tc.mode {
	case Jar:
		out = append(out, "-jar", tc.target)
	case Module:
		out = append(out, "-m", tc.target)
	case MainClass, SourceFile:
		out = append(out, tc.target)
	}
	return append(out, tc.program...)
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

var (
	fixtureOnce sync.Once
	fixtureDir  string
)

// fixture compiles Show into a/, lib/x.jar (a copy in lib/y.jar),
// app.jar (Main-Class Show, Class-Path lib/x.jar lib/y.jar) and module m
// in mods/, with Show.java beside them.
func fixture(t *testing.T) string {
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "javacmd")
		if err != nil {
			t.Fatal(err)
		}
		classes := jvmtest.Compile(t, map[string]string{"Show.java": showSrc})
		mod := jvmtest.Compile(t, map[string]string{"module-info.java": "module m {}",
			"p/Show.java": "package p;\n" + strings.Replace(showSrc, "public class", "public class", 1)})
		copyDir(t, classes, filepath.Join(dir, "a"))
		copyDir(t, mod, filepath.Join(dir, "mods", "m"))
		show, err := os.ReadFile(filepath.Join(classes, "Show.class"))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
		writeJar(t, filepath.Join(dir, "lib", "x.jar"), "", show)
		writeJar(t, filepath.Join(dir, "lib", "y.jar"), "", show)
		writeJar(t, filepath.Join(dir, "app.jar"), "Manifest-Version: 1.0\r\nMain-Class: Show\r\nClass-Path: lib/x.jar\r\n  lib/y.jar\r\n\r\n", show)
		os.WriteFile(filepath.Join(dir, "Show.java"), []byte(showSrc), 0o644)
		fixtureDir = dir
	})
	if fixtureDir == "" {
		t.Fatal("no fixture")
	}
	return fixtureDir
}

func writeJar(t *testing.T, path, manifest string, show []byte) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	if manifest != "" {
		w, _ := zw.Create("META-INF/MANIFEST.MF")
		w.Write([]byte(manifest))
	}
	w, _ := zw.Create("Show.class")
	w.Write(show)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, from, to string) {
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if fi.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

var cwdMu sync.Mutex

// inDir runs f with dir as the working directory (relative paths in the
// table are relative to it).
func inDir(t *testing.T, dir string, f func()) {
	cwdMu.Lock()
	defer cwdMu.Unlock()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	f()
}
