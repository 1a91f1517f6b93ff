package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	recrash "github.com/weft-aop/weft/examples/recrash"
	"github.com/weft-aop/weft/launch"
)

// reproduces is the outcome of a test that threw the crash's exception
// from the same method.
const reproduces = "reproduces"

// A verifier writes a test per saved frame, compiles and runs them with
// the JDK at home on the program's class path, and keeps those that
// reproduce their crash.
type verifier struct {
	home  string
	dir   string // the recorder's output directory
	appCP string // the program's class path, unwoven
	junit string // JUnit 4's class path; "" for plain programs
}

func (v verifier) run(crashes []*crash) error {
	tests, classes := filepath.Join(v.dir, "tests"), filepath.Join(v.dir, "classes")
	for p, b := range recrash.TestSources() {
		if err := writeFileAll(filepath.Join(tests, filepath.FromSlash(p)), b); err != nil {
			return err
		}
	}
	byName := map[string]*frame{}
	for n, c := range crashes {
		for k, f := range c.Frames {
			if why := untestable(f); why != "" {
				f.Outcome = why
				continue
			}
			f.Test = testName(n+1, k, f)
			src := testSource(c, k, f, f.Test, v.dir, v.junit != "")
			if err := writeFileAll(filepath.Join(tests, f.Test+".java"), []byte(src)); err != nil {
				return err
			}
			byName[f.Test] = f
		}
	}
	if len(byName) == 0 {
		return nil
	}
	if err := v.compile(tests, classes, byName); err != nil {
		return err
	}
	v.execute(classes, byName)
	for name, f := range byName {
		if f.Outcome != reproduces {
			os.Remove(filepath.Join(tests, name+".java"))
			f.Test = ""
		}
	}
	return nil
}

// untestable says why a frame gets no test ("" if it gets one).
func untestable(f *frame) string {
	switch {
	case f.State == "":
		return "its receiver and arguments could not be saved"
	case strings.Contains(f.Class, "/") || strings.Contains(f.Class, "$$Lambda"):
		return "a lambda's class, which no test can name"
	}
	return ""
}

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// testName is the class name of crash n's frame k's test:
// Crash1_0_Deep_checkTest.
func testName(n, k int, f *frame) string {
	simple := f.Class[strings.LastIndexAny(f.Class, ".")+1:]
	method := f.Name
	if method == "<init>" {
		method = "new"
	}
	return fmt.Sprintf("Crash%d_%d_%s_%sTest", n, k, nonIdent.ReplaceAllString(simple, "_"), nonIdent.ReplaceAllString(method, "_"))
}

// javaString is s as a Java string literal.
func javaString(s string) string {
	return strconv.QuoteToASCII(s)
}

// replay is the class the generated tests call (load, expect, invoke) and
// their runner, in weft's namespace: no package of the program can clash
// with it.
const replay = recrash.SupportPackage + ".Replay"

// testSource writes the test of crash c's frame k: a JUnit 4 test (if
// junit) and a program, both calling reproduce().
func testSource(c *crash, k int, f *frame, name, dir string, junit bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Written by weft recrash. %s: %s: %s, thrown in %s.\n", c.Dir, c.Why, c.Exception, c.ThrownAt)
	fmt.Fprintf(&b, "// Frame %d: %s (%s), called again with the receiver and arguments saved on entry.\n", k, f.signature(), f.Location)
	for _, n := range f.Notes {
		fmt.Fprintf(&b, "// State: %s\n", n)
	}
	if junit {
		b.WriteString("import org.junit.Test;\n\n")
	}
	fmt.Fprintf(&b, "public class %s {\n", name)
	fmt.Fprintf(&b, "    static final String STATE = System.getProperty(\"recrash.dir\", %s) + %s;\n\n",
		javaString(dir), javaString("/"+c.Dir+"/"+f.State))
	if junit {
		b.WriteString("    @Test\n    public void test() throws Throwable {\n        reproduce();\n    }\n\n")
	}
	b.WriteString("    public static void main(String[] args) throws Throwable {\n        reproduce();\n")
	b.WriteString("        System.out.println(\"reproduced\");\n    }\n\n")
	b.WriteString("    public static void reproduce() throws Throwable {\n")
	fmt.Fprintf(&b, "        Object[] v = %s.load(%s.class, STATE);\n", replay, name)
	fmt.Fprintf(&b, "        %s.expect(%s, %s,\n                () -> %s);\n    }\n}\n",
		replay, javaString(c.Exception), javaString(c.ThrownAt), callSource(f, name))
	return b.String()
}

// callSource is the call of the frame's member on v[0] (the receiver)
// with arguments v[1]...: by name if the frame allows it, else by
// reflection.
func callSource(f *frame, test string) string {
	args := make([]string, len(f.Params))
	for i := range f.Params {
		if f.Direct {
			args[i] = fmt.Sprintf("(%s) v[%d]", f.ParamSource[i], i+1)
		} else {
			args[i] = fmt.Sprintf("v[%d]", i+1)
		}
	}
	list := strings.Join(args, ", ")
	switch {
	case f.Direct && f.Name == "<init>":
		return fmt.Sprintf("new %s(%s)", f.ClassSource, list)
	case f.Direct && f.Static:
		return fmt.Sprintf("%s.%s(%s)", f.ClassSource, f.Name, list)
	case f.Direct:
		return fmt.Sprintf("((%s) v[0]).%s(%s)", f.ClassSource, f.Name, list)
	}
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		params[i] = javaString(p)
	}
	return fmt.Sprintf("%s.invoke(%s.class, %s, %s, new String[] {%s}, v[0], new Object[] {%s})",
		replay, test, javaString(f.Class), javaString(f.Name), strings.Join(params, ", "), list)
}

// javacError is a javac error in a test: its file's class and the message.
var javacError = regexp.MustCompile(`(?m)(\w+Test)\.java:\d+: error: (.*)$`)

// compile compiles the tests and the replay support; a test that does not
// compile is dropped, and the rest compiled again.
func (v verifier) compile(tests, classes string, byName map[string]*frame) error {
	for {
		os.RemoveAll(classes)
		args := []string{"-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d", classes, "-cp", launch.JoinClassPath(v.appCP, v.junit)}
		support, _ := filepath.Glob(filepath.Join(tests, filepath.FromSlash(strings.ReplaceAll(recrash.SupportPackage, ".", "/")), "*.java"))
		args = append(args, support...)
		for name, f := range byName {
			if f.Outcome == "" {
				args = append(args, filepath.Join(tests, name+".java"))
			}
		}
		b, err := exec.Command(filepath.Join(v.home, "bin", "javac"), args...).CombinedOutput()
		if err == nil {
			return nil
		}
		dropped := false
		for _, m := range javacError.FindAllStringSubmatch(string(b), -1) {
			if f := byName[m[1]]; f != nil && f.Outcome == "" {
				f.Outcome = "does not compile: " + m[2]
				dropped = true
			}
		}
		if !dropped {
			return fmt.Errorf("compiling the tests in %s: %v\n%s", tests, err, b)
		}
	}
}

// execute runs the compiled tests in one JVM (Replay's runner)
// and records each one's outcome; if the JVM dies in a test, that test is
// dropped and the rest run in a new one.
func (v verifier) execute(classes string, byName map[string]*frame) {
	var todo []string
	opens := map[string]bool{}
	for name, f := range byName {
		if f.Outcome == "" {
			todo = append(todo, name)
			if f.Module != "" {
				opens[f.Module] = true
			}
		}
	}
	sort.Strings(todo)
	var jvm []string
	for _, m := range sortedKeys(opens) {
		jvm = append(jvm, "--add-opens", m+"=ALL-UNNAMED")
	}
	jvm = append(jvm, "-cp", launch.JoinClassPath(classes, v.appCP, v.junit), replay)
	for len(todo) > 0 {
		c := exec.Command(filepath.Join(v.home, "bin", "java"), append(jvm, todo...)...)
		outcomes := map[string]string{}
		running := ""
		if stdout, err := c.Output(); err != nil || len(stdout) > 0 {
			sc := bufio.NewScanner(strings.NewReader(string(stdout)))
			for sc.Scan() {
				word, rest, _ := strings.Cut(sc.Text(), " ")
				name, why, _ := strings.Cut(rest, ": ")
				switch word {
				case "start":
					running = name
				case "pass":
					outcomes[name], running = reproduces, ""
				case "fail":
					outcomes[name], running = "does not reproduce: "+why, ""
				}
			}
		}
		var rest []string
		for _, name := range todo {
			switch o, ok := outcomes[name]; {
			case ok:
				byName[name].Outcome = o
			case name == running || running == "" && len(outcomes) == 0:
				byName[name].Outcome = "the JVM running it died"
			default:
				rest = append(rest, name)
			}
		}
		todo = rest
	}
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// writeFileAll writes b to p, making its directory.
func writeFileAll(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
