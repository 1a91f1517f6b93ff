package scope

import (
	"reflect"
	"strings"
	"testing"
)

func TestClassPatterns(t *testing.T) {
	for _, tc := range []struct {
		patterns []Pattern
		name     string
		in       bool
	}{
		{nil, "any/Thing", true},
		{[]Pattern{{Glob: "com/acme/**"}}, "com/acme/Foo", true},
		{[]Pattern{{Glob: "com/acme/**"}}, "com/acme/deep/er/Foo$1", true},
		{[]Pattern{{Glob: "com/acme/**"}}, "com/acmex/Foo", false},
		{[]Pattern{{Glob: "com/acme/**"}}, "Foo", false},
		{[]Pattern{{Glob: "java/util/*"}}, "java/util/HashMap", true},
		{[]Pattern{{Glob: "java/util/*"}}, "java/util/HashMap$Node", true}, // nested: $ is a name character
		{[]Pattern{{Glob: "java/util/*"}}, "java/util/concurrent/Future", false},
		{[]Pattern{{Glob: "*"}}, "Main", true}, // the default package
		{[]Pattern{{Glob: "*"}}, "p/Main", false},
		{[]Pattern{{Glob: "p/Ma?n"}}, "p/Main", true},
		{[]Pattern{{Glob: "p/Ma?n"}}, "p/Maiin", false},
		{[]Pattern{{Glob: "p/Foo$*"}}, "p/Foo$Bar", true},
		{[]Pattern{{Glob: "p/Foo$*"}}, "p/Foo", false},
		{[]Pattern{{Glob: "**/generated/**", Exclude: true}}, "com/acme/generated/Stub", false},
		{[]Pattern{{Glob: "**/generated/**", Exclude: true}}, "generated/Stub", false},
		{[]Pattern{{Glob: "**/generated/**", Exclude: true}}, "com/acme/Main", true},
		{[]Pattern{{Glob: "com/**"}, {Glob: "com/gen/**", Exclude: true}}, "com/gen/X", false},
		{[]Pattern{{Glob: "com/**"}, {Glob: "com/gen/**", Exclude: true}}, "com/x/X", true},
		{[]Pattern{{Glob: "com/**"}, {Glob: "org/**"}}, "org/a/B", true},
		{[]Pattern{{Glob: "java.*", Module: true}}, "any/Class", true}, // module patterns leave classes alone
	} {
		s, err := New(tc.patterns...)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Class(tc.name); got != tc.in {
			t.Errorf("%v: Class(%q) = %v, want %v", tc.patterns, tc.name, got, tc.in)
		}
	}
}

func TestModulePatterns(t *testing.T) {
	s, err := New(Pattern{Glob: "java.*", Module: true}, Pattern{Glob: "jdk.compiler", Module: true}, Pattern{Glob: "java.sql", Module: true, Exclude: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"java.base": true, "java.logging": true, "jdk.compiler": true,
		"java.sql": false, "jdk.jfr": false} {
		if got := s.Module(name); got != want {
			t.Errorf("Module(%q) = %v, want %v", name, got, want)
		}
	}
	if !s.Class("any/Class") {
		t.Error("module patterns narrowed the classes")
	}
}

func TestCountsAndUnmatched(t *testing.T) {
	s, _ := New(Pattern{Glob: "app/**", Where: "--include"}, Pattern{Glob: "app/gen/**", Exclude: true, Where: "--exclude"},
		Pattern{Glob: "nothing/**", Where: "scope.txt:4"})
	for _, n := range []string{"app/A", "app/gen/B", "app/gen/C", "lib/D"} {
		s.Class(n)
	}
	if got, want := s.Left(), map[string]int64{"exclude app/gen/**": 2, "outside the includes": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("Left() = %v, want %v", got, want)
	}
	if got := s.Unmatched(); len(got) != 1 || !strings.HasPrefix(got[0], "scope.txt:4: include nothing/** matched no class") {
		t.Errorf("Unmatched() = %q", got)
	}
}

func TestBadPattern(t *testing.T) {
	if _, err := New(Pattern{Glob: "com/[a", Where: "--include"}); err == nil || !strings.HasPrefix(err.Error(), "--include: ") {
		t.Errorf("New of a bad glob: %v", err)
	}
}

func TestKey(t *testing.T) {
	a, _ := New(Pattern{Glob: "a/**"}, Pattern{Glob: "b/**", Exclude: true})
	b, _ := New(Pattern{Glob: "b/**", Exclude: true, Where: "f:1"}, Pattern{Glob: "a/**", Where: "f:2"})
	c, _ := New(Pattern{Glob: "a/**"})
	if a.Key() != b.Key() || a.Key() == c.Key() || (*Scope)(nil).Key() != "" {
		t.Errorf("keys %q %q %q", a.Key(), b.Key(), c.Key())
	}
}

// TestSameScopeThreeWays: flags, a scope file and an aop.xml saying the
// same thing make the same scope.
func TestSameScopeThreeWays(t *testing.T) {
	flags := []Pattern{{Glob: "com/acme/**/*"}, {Glob: "com/acme/gen/*", Exclude: true}}
	file, err := ParseFile("scope.txt", []byte("# the application\ncom/acme/**/*\n\n!com/acme/gen/*\n"))
	if err != nil {
		t.Fatal(err)
	}
	xmlText := `<?xml version="1.0"?>
<aspectj>
  <aspects><aspect name="Count"/></aspects>
  <weaver options="-verbose">
    <include within="com.acme..*"/>
    <exclude within="com.acme.gen.*"/>
  </weaver>
</aspectj>`
	aop, err := ParseAopXML("META-INF/aop.xml", []byte(xmlText))
	if err != nil {
		t.Fatal(err)
	}
	if aop[0].Where != "META-INF/aop.xml:5" || aop[1].Where != "META-INF/aop.xml:6" || file[1].Where != "scope.txt:4" {
		t.Errorf("where: %q %q %q", aop[0].Where, aop[1].Where, file[1].Where)
	}
	keys := map[string]bool{}
	for _, ps := range [][]Pattern{flags, file, aop} {
		s, err := New(ps...)
		if err != nil {
			t.Fatal(err)
		}
		keys[s.Key()] = true
		for name, want := range map[string]bool{"com/acme/Main": true, "com/acme/x/Y$1": true, "com/acme/gen/Stub": false, "org/X": false} {
			if s.Class(name) != want {
				t.Errorf("%v: Class(%q) != %v", ps, name, want)
			}
		}
	}
	if len(keys) != 1 {
		t.Errorf("three ways, %d keys", len(keys))
	}
}

func TestAopXMLRefused(t *testing.T) {
	for _, within := range []string{"com.acme.Base+", "@Gen *", "com..* && !com.gen..*", "(a.*)", ""} {
		text := "<aspectj>\n<weaver>\n<include within=\"" + strings.ReplaceAll(within, "&", "&amp;") + "\"/>\n</weaver>\n</aspectj>"
		if _, err := ParseAopXML("aop.xml", []byte(text)); err == nil || !strings.HasPrefix(err.Error(), "aop.xml:3: ") {
			t.Errorf("within %q: %v, want an error at aop.xml:3", within, err)
		}
	}
}

func TestScopeFileErrors(t *testing.T) {
	for _, text := range []string{"com/acme/** extra\n", "com.acme..*\n", "!\n"} {
		if _, err := ParseFile("s.txt", []byte(text)); err == nil || !strings.HasPrefix(err.Error(), "s.txt:1: ") {
			t.Errorf("%q: %v", text, err)
		}
	}
	ps, err := ParseFile("s.txt", []byte("module java.*\n!module jdk.jfr\n"))
	if err != nil || len(ps) != 2 || !ps[0].Module || !ps[1].Module || !ps[1].Exclude || ps[1].Glob != "jdk.jfr" {
		t.Errorf("module lines: %+v %v", ps, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("com/**\n!x/*\n# c\nmodule java.*\n", `<aspectj><weaver><include within="a..*"/></weaver></aspectj>`)
	f.Fuzz(func(t *testing.T, file, aop string) {
		if ps, err := ParseFile("f", []byte(file)); err == nil {
			New(ps...)
		}
		if ps, err := ParseAopXML("a", []byte(aop)); err == nil {
			New(ps...)
		}
	})
}

func TestKeep(t *testing.T) {
	s, _ := New(Pattern{Glob: "app/**"}, Pattern{Glob: "java/**", Exclude: true})
	s.Keep("java/lang/Thread")
	if !s.Class("java/lang/Thread") || s.Class("java/lang/String") || !s.Class("app/A") {
		t.Error("Keep: java/lang/Thread must be in scope whatever the patterns, the rest as they say")
	}
}
