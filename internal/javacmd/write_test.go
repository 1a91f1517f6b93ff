package javacmd

import (
	"reflect"
	"strings"
	"testing"
)

func TestWithClassPath(t *testing.T) {
	woven := func(e string) string {
		if strings.HasPrefix(e, "app") {
			return "/cache/" + e
		}
		return e
	}
	env := func(string) string { return "app.jar:other" }
	for _, tc := range []struct {
		args []string
		env  Env
		want []string
	}{
		{[]string{"-cp", "app.jar:lib.jar", "Main", "-cp", "app.jar"}, nil, []string{"-cp", "/cache/app.jar:lib.jar", "Main", "-cp", "app.jar"}},
		{[]string{"-cp", "x", "--class-path=app:b", "Main"}, nil, []string{"-cp", "x", "--class-path=/cache/app:b", "Main"}},
		{[]string{"-cp", "lib.jar", "Main"}, nil, []string{"-cp", "lib.jar", "Main"}}, // unchanged: as given
		{[]string{"-Dk=v", "Main", "x"}, env, []string{"-Dk=v", "-cp", "/cache/app.jar:other", "Main", "x"}},
		{[]string{"-ea", "-jar", "app.jar", "x"}, nil, []string{"-ea", "-jar", "/cache/app.jar", "x"}},
	} {
		l, err := ParseJava("java", tc.args, tc.env)
		if err != nil {
			t.Fatal(err)
		}
		n := l.WithClassPath(woven)
		if got := n.Args(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: WithClassPath: %q, want %q", tc.args, got, tc.want)
		}
		if got := l.Args(); strings.Join(got, " ") == strings.Join(n.Args(), " ") && !reflect.DeepEqual(tc.args, tc.want) {
			t.Errorf("%q: WithClassPath changed the Line it was called on", tc.args)
		}
	}
}

func TestWithClassPathAppended(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-cp", "app.jar", "Main"}, []string{"-cp", "app.jar:agent.jar", "Main"}},
		{[]string{"--class-path=a:b", "Main"}, []string{"--class-path=a:b:agent.jar", "Main"}},
		{[]string{"Main"}, []string{"-cp", ".:agent.jar", "Main"}}, // the default made explicit
		{[]string{"-jar", "app.jar"}, []string{"-jar", "app.jar"}}, // the manifest's
	} {
		l, err := ParseJava("java", tc.args, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := l.WithClassPathAppended("agent.jar")
		if got := n.Args(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: WithClassPathAppended: %q, want %q", tc.args, got, tc.want)
		}
		if !reflect.DeepEqual(l.Args(), tc.args) {
			t.Errorf("%q: WithClassPathAppended changed the Line it was called on: %q", tc.args, l.Args())
		}
	}
}

func TestWithJVMOptions(t *testing.T) {
	l, _ := ParseJava("java", []string{"-Xmx1g", "Main", "a"}, nil)
	if got, want := l.WithJVMOptions("-Dweft=1", "-ea").Args(), []string{"-Dweft=1", "-ea", "-Xmx1g", "Main", "a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("java: %q, want %q", got, want)
	}
	if got := l.Args(); !reflect.DeepEqual(got, []string{"-Xmx1g", "Main", "a"}) {
		t.Errorf("the original changed: %q", got)
	}
	tl := ParseTool("javac", []string{"-J-Xmx1g", "-d", "out", "A.java"})
	if got, want := tl.WithJVMOptions("-Dweft=1").Args(), []string{"-J-Dweft=1", "-J-Xmx1g", "-d", "out", "A.java"}; !reflect.DeepEqual(got, want) {
		t.Errorf("javac: %q, want %q", got, want)
	}
	if got, want := tl.WithJVMOptions("-Dweft=1").JVMOptions(), []string{"-Dweft=1", "-Xmx1g"}; !reflect.DeepEqual(got, want) {
		t.Errorf("javac JVM options: %q, want %q", got, want)
	}
}

// TestWithJVMOptionsAfter: the options go after the command's own JVM
// options (so they win), before the main class, -J options for a tool.
func TestWithJVMOptionsAfter(t *testing.T) {
	l, _ := ParseJava("java", []string{"-Xmx1g", "Main", "a"}, nil)
	if got, want := l.WithJVMOptionsAfter("-Xmx2g").Args(), []string{"-Xmx1g", "-Xmx2g", "Main", "a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("java: %q, want %q", got, want)
	}
	if got := l.Args(); !reflect.DeepEqual(got, []string{"-Xmx1g", "Main", "a"}) {
		t.Errorf("the original changed: %q", got)
	}
	tl := ParseTool("javac", []string{"-J-Xmx1g", "-d", "out", "A.java"})
	if got, want := tl.WithJVMOptionsAfter("-Xmx2g").JVMOptions(), []string{"-Xmx1g", "-Xmx2g"}; !reflect.DeepEqual(got, want) {
		t.Errorf("javac JVM options: %q, want %q", got, want)
	}
}
