package ltw

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	"github.com/weft-aop/weft/runtime-java/rtnames"
	"github.com/weft-aop/weft/weaver"
)

// TestSameAsAheadOfTime: a class woven at load time is byte for byte the
// class weaving ahead of time makes with the same aspects (and the same
// first join point id), and so is its sister class: with before advice,
// and with around advice (the sister is then the closure, the body moves
// to a join point method).
func TestSameAsAheadOfTime(t *testing.T) {
	dir := jvmtest.Compile(t, map[string]string{"p/Plugin.java": pluginSrc}, "-g")
	class, err := os.ReadFile(filepath.Join(dir, "p", "Plugin.class"))
	if err != nil {
		t.Fatal(err)
	}
	before := &advice.Advice{Kind: advice.Before, Aspect: "T", File: "t.weft", Line: 1,
		Method: advice.Method{Owner: "adv/Log", Name: "hit", Desc: "(I)V"},
		Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
	around := &advice.Advice{Kind: advice.Around, AroundType: "Ljava/lang/Object;", Aspect: "T", File: "t.weft", Line: 2,
		Method: advice.Method{Owner: "adv/Twice", Name: "run", Desc: "(Lweft/rt/Proceed;I)Ljava/lang/Object;"},
		Args:   []advice.Value{{Kind: advice.Proceed, Desc: "Lweft/rt/Proceed;"}, {Kind: advice.JoinPointID, Desc: "I"}}}
	for _, adv := range []*advice.Advice{before, around} {
		t.Run(adv.Kind.String(), func(t *testing.T) { sameAsAheadOfTime(t, dir, class, adv) })
	}
}

// sameAsAheadOfTime weaves p.Plugin (compiled in dir) with adv at every
// execution at load time and ahead of time, and compares the classes.
func sameAsAheadOfTime(t *testing.T, dir string, class []byte, adv *advice.Advice) {
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	lh := NewHierarchy(img)
	srv := NewServer(weaver.New(everyExecution{adv}, []*advice.Advice{adv}, weaver.Options{Hierarchy: lh, IDBase: 1000}), lh)
	resp := srv.Weave(&Request{Kind: Normal, Name: "p.Plugin", Class: class})
	if resp.Status != StatusWoven || len(resp.Extra) != 1 {
		t.Fatalf("load time: status %v, %d extra classes: %s", resp.Status, len(resp.Extra), resp.Message)
	}

	// Ahead of time: the same advice and first id, over the same JDK.
	src := classpath.NewDirSource(dir)
	h := weaver.HierarchyOf(src, img)
	w := weaver.New(everyExecution{adv}, []*advice.Advice{adv}, weaver.Options{Hierarchy: h, IDBase: 1000})
	out := t.TempDir()
	if _, err := w.WeavePath(dir, out); err != nil {
		t.Fatal(err)
	}
	ahead, err := os.ReadFile(filepath.Join(out, "p", "Plugin.class"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resp.Class, ahead) {
		t.Errorf("p/Plugin woven at load time (%d bytes) differs from ahead of time (%d bytes)", len(resp.Class), len(ahead))
	}
	sister, err := os.ReadFile(filepath.Join(out, "p", "Plugin"+weaver.SisterSuffix+".class"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Extra[0].Name != "p.Plugin"+weaver.SisterSuffix || !bytes.Equal(resp.Extra[0].Class, sister) {
		t.Errorf("sister %s woven at load time differs from ahead of time", resp.Extra[0].Name)
	}
	if adv.Kind == advice.Around && (!bytes.Contains(resp.Class, []byte("weft$around$0")) || !bytes.Contains(sister, []byte(rtnames.Proceed))) {
		t.Errorf("around advice not woven: no join point method in p/Plugin or no %s in its sister", rtnames.Proceed)
	}
}

// annotatedSrc: p.Base carries a runtime annotation with a value; p.Caller
// calls it. The JVM defines Caller first, so Base's annotations are looked
// up (for Caller's call) before Base is defined.
var annotatedSrc = map[string]string{
	"p/Tag.java": "package p; @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME) " +
		"public @interface Tag { int level() default 1; }",
	"p/Base.java":   "package p; @Tag(level = 2) public class Base { public int f() { return 1; } }",
	"p/Caller.java": "package p; public class Caller { public int g(Base b) { return b.f(); } }",
}

// annotatedWeft selects by a type annotation pattern with a value, and by
// @this and @target (run-time tests).
const annotatedWeft = `aspect T {
    before(): execution(* (@p.Tag(level=2) *).*(..)) { adv.Log.hit(); }
    before(): call(* (@p.Tag(level=2) *).*(..)) && @target(p.Tag) { adv.Log.hit(); }
    before(): execution(* p.*.*(..)) && @this(p.Tag) { adv.Log.hit(); }
}
`

// TestAnnotationsAtLoadTime: classes defined at run time are matched by
// annotation patterns (a value pattern on the declaring type, @this and
// @target) as ahead of time, byte for byte, though the JVM defines the
// annotated class after a class whose weaving looked up its annotations
// (they were remembered as absent). Caller, woven before Base was defined,
// misses the call advice (Base's annotations were unknown then); defined
// again (another loader), it has it.
func TestAnnotationsAtLoadTime(t *testing.T) {
	dir := jvmtest.Compile(t, annotatedSrc)
	img, weave := aspectWeaver(t, annotatedWeft)
	out, st := weaveAhead(t, weave, img, dir)
	if len(st.Shadows) != 4 { // Base.f's execution twice, Caller.g's execution, the call of f
		t.Errorf("ahead of time: %d advised join points, want 4:\n%v", len(st.Shadows), st.Shadows)
	}

	// At load time, in the JVM's order: Caller, then Base, then Caller
	// again.
	h := NewHierarchy(img)
	srv := NewServer(weave(h), h)
	for i, name := range []string{"Caller", "Base", "Caller"} {
		class, err := os.ReadFile(filepath.Join(dir, "p", name+".class"))
		if err != nil {
			t.Fatal(err)
		}
		resp := srv.Weave(&Request{Kind: Normal, Name: "p." + name, Class: class})
		if resp.Status != StatusWoven {
			t.Fatalf("p.%s: status %v: %s", name, resp.Status, resp.Message)
		}
		ahead, err := os.ReadFile(filepath.Join(out, "p", name+".class"))
		if err != nil {
			t.Fatal(err)
		}
		if same := bytes.Equal(resp.Class, ahead); same == (i == 0) {
			t.Errorf("p/%s (definition %d) woven at load time is the same as ahead of time: %v (%d and %d bytes)", name, i, same, len(resp.Class), len(ahead))
		}
	}
}

// kindsSrc has a join point of each kind the language knows: static and
// instance fields read and written, a catch block, a static initializer,
// constructors, calls and executions in and out of a control flow.
var kindsSrc = map[string]string{
	"p/K.java": `package p;
public class K {
    static int total = 1;
    int n;
    public K(int n) { super(); this.n = n; }
    public int run(String s) {
        try { n += Integer.parseInt(s); } catch (NumberFormatException e) { n = -1; }
        return leaf() + total;
    }
    int leaf() { return n; }
}`,
}

// kindsWeft selects every kind, cflow and thisJoinPoint included.
const kindsWeft = `aspect K {
    before(): get(* p.K.*) { adv.Log.hit(); }
    before(): set(* p.K.*) { adv.Log.hit(); }
    before(): handler(NumberFormatException) && within(p..*) { adv.Log.hit(); }
    before(): staticinitialization(p.K) { adv.Log.hit(); }
    before(): initialization(p.K.new(..)) { adv.Log.hit(); }
    before(): preinitialization(p.K.new(..)) { adv.Log.hit(); }
    before(): execution(* p.K.leaf()) && cflow(execution(* p.K.run(..))) { adv.Log.hit(); }
    before(): call(* java.lang.Integer.parseInt(..)) && within(p..*) { adv.Log.tjp(thisJoinPoint); }
    int around(): execution(* p.K.leaf()) { adv.Log.around(proceed); }
}
`

// TestEveryKindAtLoadTime: a class woven at load time with advice at every
// kind of join point (fields, handler, static initialization,
// (pre)initialization, cflow, thisJoinPoint, around) is byte for byte the
// class weaving ahead of time makes, and so is its sister.
func TestEveryKindAtLoadTime(t *testing.T) {
	dir := jvmtest.Compile(t, kindsSrc, "-g")
	img, weave := aspectWeaver(t, kindsWeft)
	out, st := weaveAhead(t, weave, img, dir)
	kinds := map[advice.ShadowKind]bool{}
	for _, s := range st.Shadows {
		kinds[s.Kind] = true
	}
	for _, k := range []advice.ShadowKind{advice.FieldGet, advice.FieldSet, advice.ExceptionHandler, advice.StaticInitialization,
		advice.Initialization, advice.PreInitialization, advice.MethodExecution, advice.MethodCall} {
		if !kinds[k] {
			t.Errorf("ahead of time: no %s join point advised", k)
		}
	}
	if t.Failed() {
		t.Fatalf("ahead of time: %d kinds of join points advised, want every kind:\n%v", len(kinds), st.Shadows)
	}

	h := NewHierarchy(img)
	class, err := os.ReadFile(filepath.Join(dir, "p", "K.class"))
	if err != nil {
		t.Fatal(err)
	}
	resp := NewServer(weave(h), h).Weave(&Request{Kind: Normal, Name: "p.K", Class: class})
	if resp.Status != StatusWoven || len(resp.Extra) != 1 {
		t.Fatalf("load time: status %v, %d extra classes: %s", resp.Status, len(resp.Extra), resp.Message)
	}
	ahead, err := os.ReadFile(filepath.Join(out, "p", "K.class"))
	if err != nil {
		t.Fatal(err)
	}
	sister, err := os.ReadFile(filepath.Join(out, "p", "K"+weaver.SisterSuffix+".class"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resp.Class, ahead) || !bytes.Equal(resp.Extra[0].Class, sister) {
		t.Errorf("p/K or its sister woven at load time differs from ahead of time (%d/%d and %d/%d bytes)",
			len(resp.Class), len(ahead), len(resp.Extra[0].Class), len(sister))
	}
}

// aspectWeaver parses an aspect and returns java.base's image (closed
// with the test) and what makes a weaver of the aspect over a hierarchy,
// its first join point id 1000.
func aspectWeaver(t *testing.T, aspect string) (*classpath.ImageSource, func(classfile.Hierarchy) *weaver.Weaver) {
	t.Helper()
	f, err := pointcut.ParseFile("t.weft", []byte(aspect))
	if err != nil {
		t.Fatal(err)
	}
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	return img, func(h classfile.Hierarchy) *weaver.Weaver {
		prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{Hierarchy: h})
		if err != nil {
			t.Fatal(err)
		}
		return weaver.New(prog, prog.Advice(), weaver.Options{Hierarchy: h, IDBase: 1000})
	}
}

// weaveAhead weaves the classes of dir ahead of time into a new directory
// and returns it and what was woven.
func weaveAhead(t *testing.T, weave func(classfile.Hierarchy) *weaver.Weaver, img *classpath.ImageSource, dir string) (string, *weaver.Stats) {
	t.Helper()
	src := classpath.NewDirSource(dir)
	out := t.TempDir()
	st, err := weave(weaver.HierarchyOf(src, img)).WeavePath(dir, out)
	if err != nil {
		t.Fatal(err)
	}
	return out, st
}
