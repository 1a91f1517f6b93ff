package aopxml

import (
	"reflect"
	"strings"
	"testing"
)

// TestParse reads AspectJ's aop.xml as its agent does, each element with
// its line, and refuses what is not an aop.xml with the file and line.
func TestParse(t *testing.T) {
	c, err := Parse("app.jar!/META-INF/aop.xml", []byte(`<?xml version="1.0"?>
<!DOCTYPE aspectj PUBLIC "-//AspectJ//DTD//EN" "http://www.eclipse.org/aspectj/dtd/aspectj.dtd">
<aspectj>
  <aspects>
    <aspect name="com.acme.Trace"/>
    <aspect name="com.acme.Time"/>
    <include within="com.acme..*"/>
    <exclude within="com.acme.Off"/>
    <concrete-aspect name="com.acme.Mine" extends="com.acme.Abstract" precedence="com.acme.Mine, *">
      <pointcut name="scope" expression="within(com.acme.app..*)"/>
    </concrete-aspect>
  </aspects>
  <weaver options="-verbose -showWeaveInfo">
    <include within="com.acme.app..*"/>
    <exclude within="com.acme.app.Gen*"/>
    <dump within="com.acme.app.*"/>
  </weaver>
</aspectj>`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{File: "app.jar!/META-INF/aop.xml", Aspects: []Item{{"com.acme.Trace", 5}, {"com.acme.Time", 6}},
		AspectInclude: []Item{{"com.acme..*", 7}}, AspectExclude: []Item{{"com.acme.Off", 8}},
		Concrete: []*ConcreteAspect{{Name: "com.acme.Mine", Extends: "com.acme.Abstract", Precedence: "com.acme.Mine, *",
			Pointcuts: []Pointcut{{"scope", "within(com.acme.app..*)", 10}}, Line: 9}},
		Include: []Item{{"com.acme.app..*", 14}}, Exclude: []Item{{"com.acme.app.Gen*", 15}}, Options: []string{"-verbose", "-showWeaveInfo"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if w := c.Where(c.Include[0]); w != "app.jar!/META-INF/aop.xml:14" {
		t.Errorf("Where: %s", w)
	}
	for _, e := range []struct{ doc, want string }{
		{`<aspectj><aspects><aspect/></aspects></aspectj>`, "f:1: <aspect> without a name"},
		{"<aspectj>\n\n<weaver><include/></weaver></aspectj>", "f:3: <include> without a within pattern"},
		{"<aspectj>\n<aspects>\n</aspectj>", "f: XML syntax error on line 3"},
		{"<aspectj><aspects><concrete-aspect name=\"a.B\"/></aspects></aspectj>", "f:1: <concrete-aspect> needs a name and the aspect it extends"},
		{"<aspectj><aspects><concrete-aspect name=\"a.B\" extends=\"a.A\">\n<pointcut name=\"p\"/></concrete-aspect></aspects></aspectj>", "f:2: <pointcut> needs a name and an expression"},
		{`<beans/>`, "f:1: <beans>: an aop.xml holds one <aspectj> element"},
		{``, "f: no <aspectj> element"},
	} {
		if _, err := Parse("f", []byte(e.doc)); err == nil || !strings.HasPrefix(err.Error(), e.want) {
			t.Errorf("%q: got %v, want %q...", e.doc, err, e.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`<aspectj><aspects><aspect name="a.B"/></aspects><weaver options="-x"><include within="a..*"/></weaver></aspectj>`))
	f.Add([]byte(`<!DOCTYPE aspectj><aspectj/>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("f", b)
		if err == nil && c == nil {
			t.Fatal("no error and no result")
		}
	})
}
