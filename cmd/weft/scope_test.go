package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver/scope"
)

// TestWeaveScope weaves guava with the counting aspect in the scope
// com/google/common/collect/** given three ways — flags, a scope file, an
// aop.xml — each making the same jar, in which only classes of that
// package changed (and got sisters), every other entry the input's byte
// for byte; a pattern matching nothing is warned of.
func TestWeaveScope(t *testing.T) {
	const guava = "/usr/share/java/guava.jar"
	if _, err := os.Stat(guava); err != nil {
		t.Fatalf("%v: install Debian's libguava-java (bash .ci/run does)", err)
	}
	adv := countAdvice(t)
	scopeFile := writeFile(t, "scope.txt", "# guava's collections only\ncom/google/common/collect/**\n!com/google/common/collect/nothing/**\n")
	aopXML := writeFile(t, "aop.xml", `<aspectj><weaver><include within="com.google.common.collect..*"/>`+
		`<exclude within="com.google.common.collect.nothing..*"/></weaver></aspectj>`)
	var jars []map[string][]byte
	for _, scopeArgs := range [][]string{
		{"--include", "com/google/common/collect/**", "--exclude", "com/google/common/collect/nothing/**"},
		{"--scope", scopeFile},
		{"--scope", aopXML},
	} {
		out := filepath.Join(t.TempDir(), "guava.jar")
		_, stderr, err := weftInProcess(append([]string{"weave", "-a", countWeft, "--advice-cp", adv, "-o", out}, append(scopeArgs, guava)...)...)
		if err != nil {
			t.Fatalf("weft weave %v: %v\n%s", scopeArgs, err, stderr)
		}
		if !strings.Contains(stderr, "classes left as they are: ") || !strings.Contains(stderr, "outside the includes") ||
			!strings.Contains(stderr, ": exclude com/google/common/collect/nothing/**") || !strings.Contains(stderr, " matched no class") {
			t.Errorf("%v: stderr:\n%s", scopeArgs, stderr)
		}
		jars = append(jars, jvmtest.JarEntries(t, out))
	}
	in := jvmtest.JarEntries(t, guava)
	changed := 0
	for name, b := range jars[0] {
		orig, ok := in[name]
		inScope := strings.HasPrefix(name, "com/google/common/collect/")
		switch {
		case ok && bytes.Equal(orig, b):
		case inScope && (ok || strings.HasSuffix(name, "$weft$jp.class")):
			changed++
		default:
			t.Errorf("%s: changed or added outside the scope", name)
		}
	}
	if changed < 200 {
		t.Errorf("%d entries changed in the scope", changed)
	}
	for i, j := range jars[1:] {
		if len(j) != len(jars[0]) {
			t.Errorf("way %d: %d entries, the flags' %d", i+2, len(j), len(jars[0]))
		}
		for name, b := range jars[0] {
			if !bytes.Equal(j[name], b) {
				t.Errorf("way %d: %s differs from the flags' weave", i+2, name)
				break
			}
		}
	}
}

// scopeRun runs weft run in the scope Hello and java/util/** (env's cache,
// java.base): the JDK is woven again for the scope (another key), with only
// java.util's classes of java.base, and the summary says how many classes
// the scope left out.
func scopeRun(t *testing.T, env, aspectArgs []string, adv, _ string) {
	// A lambda: its proxy is a hidden class the JVM defines at run time,
	// out of the scope.
	classes := jvmtest.Compile(t, map[string]string{"Hello.java": `public class Hello {
    public static void main(String[] a) { Runnable r = () -> System.out.println("hello"); r.run(); }
}`})
	args := append(append([]string{"run"}, aspectArgs...), "--advice-cp", adv, "-v", "--include", "Hello", "--include", "java/util/**",
		"--", jvmtest.Java(t), "-cp", classes, "Hello")
	stdout, stderr, code := weft(t, env, args...)
	m := regexp.MustCompile(`weft: woven JDK: (\S+)`).FindStringSubmatch(stderr)
	// The classes the JVM defines at run time out of the scope (its lambda
	// forms, say) are left unwoven by the JVM itself and counted.
	if code != 0 || stdout != "hello\n" || m == nil || !strings.Contains(stderr, "weft: scope: classes left as they are: ") ||
		!regexp.MustCompile(`weft: load-time weaving: .*, [1-9][0-9]* outside the scope`).MatchString(stderr) {
		t.Fatalf("weft run in a scope: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	var sum struct {
		Modules map[string]struct{ Classes, ClassesWoven int }
	}
	b, err := os.ReadFile(filepath.Join(m[1], "summary.json"))
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	base := sum.Modules["java.base"]
	// java.util and its subpackages: 1,282 of java.base's 6,445 classes here.
	if err != nil || base.ClassesWoven < 1000 || base.ClassesWoven > 2000 {
		t.Errorf("java.base woven in the scope java/util/**: %d of %d classes (%v)", base.ClassesWoven, base.Classes, err)
	}
}

// TestScopeGlobsAgree: the JVM's translation of the scope's globs
// (weft.rt.LTWGlob, for LTWScope, which leaves classes out of scope
// unwoven without a round trip) matches what weft's own matcher does, on a table of globs
// and names.
func TestScopeGlobsAgree(t *testing.T) {
	globs := []string{"com/acme/**", "com/acme/**/*", "**/generated/**", "java/util/*", "*", "p/Ma?n", "p/Foo$*",
		"**", "com/{acme,example}/*", "p/[A-C]*", "p/[!A-C]*", "a/**/b/*", "**/Test*"}
	names := []string{"com/acme/Foo", "com/acme/deep/Foo$1", "com/acmex/Foo", "Main", "p/Main", "p/Maiin", "java/util/HashMap",
		"java/util/HashMap$Node", "java/util/concurrent/Future", "com/acme/generated/Stub", "generated/Stub", "p/Foo$Bar",
		"p/Foo", "com/example/X", "p/Alpha", "p/Delta", "a/b/C", "a/x/y/b/C", "a/b", "x/TestFoo", "TestBar"}
	src, err := os.ReadFile("../../runtime-java/jdk/weft/rt/LTWGlob.java")
	if err != nil {
		t.Fatal(err)
	}
	harness := `package weft.rt;
public class Agree {
    public static void main(String[] a) {
        for (int i = 0; i + 1 < a.length; i += 2) {
            System.out.println(java.util.regex.Pattern.matches(LTWGlob.regex(a[i]), a[i + 1]));
        }
    }
}`
	dir := jvmtest.Compile(t, map[string]string{"weft/rt/LTWGlob.java": string(src), "weft/rt/Agree.java": harness})
	agree(t, dir, "weft.rt.Agree", "glob", globs, names, func(g, n string) bool {
		s, err := scope.New(scope.Pattern{Glob: g})
		if err != nil {
			t.Fatal(err)
		}
		return s.Class(n)
	})
}

// agree runs the Java class main in dir, which prints for each pair of its
// arguments (a pattern, a name) whether the pattern matches the name, and
// checks each answer is weft's own (matches) for every pattern and name.
func agree(t *testing.T, dir, main, what string, patterns, names []string, matches func(p, name string) bool) {
	t.Helper()
	var args, want []string
	for _, p := range patterns {
		for _, n := range names {
			args = append(args, p, n)
			want = append(want, strconv.FormatBool(matches(p, n)))
		}
	}
	out, _ := jvmtest.Run(t, append([]string{"-cp", dir, main}, args...)...)
	got := strings.Fields(out)
	if len(got) != len(want) {
		t.Fatalf("%d answers, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s %q, name %q: the JVM says %s, weft %s", what, args[2*i], args[2*i+1], got[i], want[i])
		}
	}
}
