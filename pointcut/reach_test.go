package pointcut

import (
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// reachNames is a corpus of internal names with the shapes within's
// nesting and the implicit java.lang import turn on: nested, anonymous,
// lambda proxies, the default package, a '$' in a package.
var reachNames = []string{
	"Foo", "Foo$Bar", "FooService", "$Odd", "String", "StringX",
	"com/acme/Foo", "com/acme/Foo$Bar", "com/acme/Foo$Bar$1", "com/acme/Foo$$Lambda",
	"com/acme/Foo$$Lambda/0x0000000800c01000", "com/acme/FooX", "com/acme/sub/Baz",
	"com/acme/sub/deep/Qux$Inner", "com/acmeX/Foo", "com/acme$x/Y", "org/acme/Foo",
	"a/$b", "a/b$", "com/acme/OrderService", "com/acme/web/UserService$1",
	"java/lang/String", "java/lang/String$CaseInsensitiveComparator", "java/util/Map$Entry",
}

// TestReachAgreesWithin checks the class reach of within(T) against
// within's own matching, over the JDK's class names and reachNames: every
// class within(T) matches is in reach (the pre-filter never drops a class
// advice applies to), and, for names and ||, every class in reach is
// matched, but for names with a '$' that starts a simple name (within
// does not cut there) and the JVM's names of hidden classes (Foo$$Lambda/0x..:
// in reach, as the JVM may give them; the weaver sees Foo$$Lambda).
func TestReachAgreesWithin(t *testing.T) {
	names := append([]string(nil), reachNames...)
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	if err := img.Walk(func(e classpath.ClassEntry) error {
		names = append(names, strings.TrimSuffix(e.Path, ".class"))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	patterns := []string{
		"com.acme..*", "com.acme.*", "com.acme.Foo", "com.acme.Foo.*", "com.acme.Foo$Bar",
		"com..*Service", "*Service", "Foo", "String", "java.util.*", "java.util.Map.*",
		"java.util.concurrent..*", "java..*Map*", "java.lang.*", "com.acme.Foo || java.util.List",
		"com.acme.* && !com.acme.Foo", "@Deprecated java.util.*", "a.*", "com.acme$x.Y",
	}
	for _, pat := range patterns {
		p := mustResolve(t, "aspect A { before(): within("+pat+") && execution(* *(..)) { a.B.c(); } }")
		r := p.ClassReach()
		if r == nil {
			t.Errorf("within(%s): every class in reach, want a narrower reach", pat)
			continue
		}
		// A conjunction or an annotation is bounded by one side: a superset.
		exact := !strings.ContainsAny(pat, "&@")
		matched := 0
		for _, name := range names {
			m := advice.Member{Owner: name, Name: "m", Desc: "()V", Access: pub, AccessKnown: true}
			s := &advice.Shadow{Kind: advice.MethodExecution, Within: name, Code: m, Member: m}
			in, has := len(p.Match(s, nil)) > 0, r.Has(name)
			switch {
			case in && !has:
				t.Errorf("within(%s) matches %s, which its reach %q leaves out", pat, name, r.Patterns)
			case has && !in && exact && !strings.Contains(name, "/$") && !strings.HasPrefix(name, "$") &&
				!strings.Contains(name, "/0x"):
				t.Errorf("within(%s): %s in reach %q, not matched", pat, name, r.Patterns)
			case in:
				matched++
			}
		}
		t.Logf("within(%s): %d of %d classes; reach %q", pat, matched, len(names), r.Patterns)
	}
}

// TestReachCombinators checks which pointcuts narrow the reach: within and
// staticinitialization of names, through && and ||; not `!`, `+`, or a
// designator that can match anywhere.
func TestReachCombinators(t *testing.T) {
	for _, c := range []struct {
		pc   string
		all  bool
		in   []string
		out  []string
		none bool
	}{
		{pc: "call(* *(..)) && within(com.acme..*)", in: []string{"com/acme/x/Y"}, out: []string{"org/Y"}},
		{pc: "within(a.*) || within(b.*)", in: []string{"a/X", "b/Y$1"}, out: []string{"c/Z"}},
		{pc: "within(a.*) || call(* *(..))", all: true},
		{pc: "!within(a.*)", all: true},
		{pc: "within(java.util.List+)", all: true},
		{pc: "execution(* com.acme.Foo.*(..))", all: true}, // an override in any class
		{pc: "staticinitialization(com.acme.Foo)", in: []string{"com/acme/Foo"}, out: []string{"com/acme/Bar"}},
		{pc: "within(*)", all: true},
	} {
		p := mustResolve(t, "aspect A { before(): "+c.pc+" { a.B.c(); } }")
		r := p.ClassReach()
		if (r == nil) != c.all {
			t.Errorf("%s: reach %v, want every class %v", c.pc, r, c.all)
			continue
		}
		for _, n := range c.in {
			if !r.Has(n) {
				t.Errorf("%s: %s not in reach %q", c.pc, n, r.Patterns)
			}
		}
		for _, n := range c.out {
			if r.Has(n) {
				t.Errorf("%s: %s in reach %q", c.pc, n, r.Patterns)
			}
		}
	}
	// Every advice, cflow and declaration counts.
	p := mustResolve(t, `aspect A {
		before(): within(a.*) && cflow(execution(* *(..)) && within(b.*)) { a.B.c(); }
		declare warning: call(* *.x()) && within(c.*) : "no x";
	}`)
	for _, n := range []string{"a/X", "b/X", "c/X"} {
		if !p.ClassReach().Has(n) {
			t.Errorf("%s not in reach %q", n, p.ClassReach().Patterns)
		}
	}
	if p.ClassReach().Has("d/X") {
		t.Errorf("d/X in reach %q", p.ClassReach().Patterns)
	}
}
