package weaver

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// rule is one line of the tests' tiny matcher: advice adv applies at
// shadows of kind whose member owner, name and within type match the
// regular expressions ("" matches anything).
type rule struct {
	kind                advice.ShadowKind
	owner, name, within string
	code                string // withincode: the enclosing method's name
	notWithin, notCode  string
	adv                 *advice.Advice
	residue             *advice.Residue
}

type testMatcher []rule

func (tm testMatcher) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	var out []advice.Applied
	for _, r := range tm {
		if r.kind != s.Kind || !re(r.owner, s.Member.Owner) || !re(r.name, s.Member.Name) || !re(r.within, s.Within) ||
			!re(r.code, s.Code.Name) || (r.notWithin != "" && re(r.notWithin, s.Within)) || (r.notCode != "" && re(r.notCode, s.Code.Name)) {
			continue
		}
		a := advice.Applied{Advice: r.adv, Verdict: advice.Always}
		if r.residue != nil {
			a.Verdict, a.Residue = advice.Maybe, r.residue
		}
		out = append(out, a)
	}
	// AspectJ precedence within one aspect: when either is after advice the
	// later declaration wins, otherwise the earlier one.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Advice, out[j].Advice
		if a.Kind != advice.Before || b.Kind != advice.Before {
			return a.Order > b.Order
		}
		return a.Order < b.Order
	})
	return out
}

// AllLeaf makes testMatcher an advice.LeafLimiter: its advice is all leaf
// when every rule's is, with no around, cflow or if() (as
// pointcut.Program.AllLeaf says for a program).
func (tm testMatcher) AllLeaf() bool {
	var userCode func(r *advice.Residue) bool
	userCode = func(r *advice.Residue) bool {
		if r == nil {
			return false
		}
		if r.Op == advice.If || r.Op == advice.InCflow {
			return true
		}
		for _, c := range r.Children {
			if userCode(c) {
				return true
			}
		}
		return false
	}
	for _, r := range tm {
		if !r.adv.Leaf || r.adv.Kind == advice.Around || r.adv.Cflow != nil || userCode(r.residue) {
			return false
		}
	}
	return true
}

func re(pat, s string) bool {
	return pat == "" || regexp.MustCompile("^(?:"+pat+")$").MatchString(s)
}

// adv builds advice calling static method name of class adv/Log.
func adv(k advice.Kind, order int, name, desc string, args ...advice.Value) *advice.Advice {
	return &advice.Advice{Kind: k, Aspect: "T", File: "t.weft", Line: order + 1, Order: order,
		Method: advice.Method{Owner: "adv/Log", Name: name, Desc: desc}, Args: args}
}

func val(k advice.ValueKind, index int, desc string) advice.Value {
	return advice.Value{Kind: k, Index: index, Desc: desc}
}

var jpv = val(advice.JoinPointStaticPart, 0, "Lweft/rt/JoinPointStaticPart;")

// runtimeSources returns the runtime's Java sources, to compile with test programs.
func runtimeSources() map[string]string {
	m := map[string]string{}
	for k, v := range rtjava.Sources() {
		m[k] = string(v)
	}
	return m
}

// weaveClassInPlace weaves the class file rel (slash-separated, under
// dir) with w, writes the woven class over it and its sister classes
// beside it, and returns the weaving's result; it fails the test if the
// class is not woven.
func weaveClassInPlace(t *testing.T, w *Weaver, dir, rel string) *Result {
	t.Helper()
	res := weaveClassFile(t, w, dir, rel)
	if res.Class == nil {
		t.Fatalf("weaving %s: the class is unchanged", rel)
	}
	return res
}

// weaveClassFile is weaveClassInPlace for a class weaving may leave
// unchanged (Result.Class nil, nothing written).
func weaveClassFile(t *testing.T, w *Weaver, dir, rel string) *Result {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.WeaveClass(p, data)
	if err != nil {
		t.Fatalf("weaving %s: %v", rel, err)
	}
	if res.Class == nil {
		return res
	}
	if err := os.WriteFile(p, res.Class, 0o644); err != nil {
		t.Fatal(err)
	}
	for n, b := range res.Extra {
		if err := os.WriteFile(filepath.Join(dir, n+".class"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

// aspectWeaver parses the aspect (the text of the .weft file name) and
// returns a weaver of it, its advice classes and the classes to weave in
// dir, over the JDK.
func aspectWeaver(t *testing.T, name, aspect, dir string) *Weaver {
	t.Helper()
	f, err := pointcut.ParseFile(name, []byte(aspect))
	if err != nil {
		t.Fatal(err)
	}
	h := mustJDKHierarchy(t, dir)
	prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: dir, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	return New(prog, prog.Advice(), Options{Hierarchy: h})
}

// compileAndWeave compiles the Java sources with the runtime and weaves
// the classes under sub ("" for all) with the aspect (the text of the
// .weft file name):
// it returns the class directory, the woven one (sub in it) and the
// weave-info lines, sorted. A weaving warning fails the test.
func compileAndWeave(t *testing.T, sources map[string]string, name, aspect, sub string) (dir, out string, infos []string) {
	t.Helper()
	all := runtimeSources()
	for k, v := range sources {
		all[k] = v
	}
	dir = jvmtest.Compile(t, all, "-g")
	out = filepath.Join(t.TempDir(), "woven")
	st, err := aspectWeaver(t, name, aspect, dir).WeavePath(filepath.Join(dir, sub), filepath.Join(out, sub))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range st.Warnings {
		t.Errorf("weft warning: %s", w)
	}
	for i := range st.Shadows {
		infos = append(infos, st.Shadows[i].String())
	}
	sort.Strings(infos)
	return dir, out, infos
}

// compileWeaveRun compiles the Java sources (with the runtime), weaves every
// class under app/ with w's rules, and runs mainClass with -Xverify:all on
// the woven classes. It returns stdout and the weave infos.
func compileWeaveRun(t *testing.T, sources map[string]string, rules testMatcher, mainClass string, jvmArgs ...string) (string, []WeaveInfo, *Result) {
	t.Helper()
	return compileWeaveRunIn(t, App, sources, rules, mainClass, jvmArgs...)
}

// compileWeaveRunIn is compileWeaveRun weaving in mode.
func compileWeaveRunIn(t *testing.T, mode Mode, sources map[string]string, rules testMatcher, mainClass string, jvmArgs ...string) (string, []WeaveInfo, *Result) {
	t.Helper()
	infos, total := compileWeave(t, mode, sources, rules)
	args := append([]string{"-Xverify:all", "-cp", total.Name}, jvmArgs...)
	out, _ := jvmtest.Run(t, append(args, mainClass)...)
	return out, infos, total
}

// compileWeave compiles the Java sources (with the runtime) and weaves every
// class under app/ in mode with rules: it returns the weave infos and the
// totals, whose Name is the class directory.
func compileWeave(t *testing.T, mode Mode, sources map[string]string, rules testMatcher) ([]WeaveInfo, *Result) {
	t.Helper()
	all := runtimeSources()
	for k, v := range sources {
		all[k] = v
	}
	dir := jvmtest.Compile(t, all, "-g")
	var advs []*advice.Advice
	for _, r := range rules {
		advs = append(advs, r.adv)
	}
	h := classpath.NewHierarchy(classpath.NewDirSource(dir), mustJDK(t))
	w := New(rules, advs, Options{Hierarchy: h, IDBase: 1000, Mode: mode})
	var infos []WeaveInfo
	total := Result{Name: dir} // Name: the class directory, for inspection
	err := filepath.Walk(filepath.Join(dir, "app"), func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || !strings.HasSuffix(p, ".class") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		res, err := w.WeaveClass(p, b)
		if err != nil {
			t.Fatalf("weaving %s: %v", p, err)
		}
		for _, warn := range res.Warnings {
			t.Logf("warning: %s", warn)
		}
		total.Warnings = append(total.Warnings, res.Warnings...)
		total.MethodsWoven += res.MethodsWoven
		infos = append(infos, res.Shadows...)
		if res.Class != nil {
			if err := os.WriteFile(p, res.Class, 0o644); err != nil {
				return err
			}
		}
		for name, x := range res.Extra {
			if err := os.WriteFile(filepath.Join(dir, name+".class"), x, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return infos, &total
}

// readClass reads and parses the class file at path.
func readClass(t *testing.T, path string) *classfile.Class {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// jdkOnce is the JDK's classes, opened once for the package's tests.
// The tests that spend seconds in JVMs (ajc, woven programs) run in
// parallel (t.Parallel): this package comes last in go test ./..., alone
// on the machine for its last minute otherwise.
var jdkOnce struct {
	sync.Once
	src classpath.Source
	err error
}

func mustJDK(t *testing.T) classpath.Source {
	t.Helper()
	jdkOnce.Do(func() { jdkOnce.src, jdkOnce.err = classpath.OpenJDK(jvmtest.JavaHome(t)) })
	if jdkOnce.err != nil {
		t.Fatal(jdkOnce.err)
	}
	return jdkOnce.src
}

// mustJDKHierarchy is a MethodHierarchy over a class directory and the JDK.
func mustJDKHierarchy(t *testing.T, dir string) *MethodHierarchy {
	d := classpath.NewDirSource(dir)
	return HierarchyOf(d, mustJDK(t))
}
