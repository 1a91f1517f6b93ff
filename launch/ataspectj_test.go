package launch

import (
	"archive/zip"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/weft-aop/weft/internal/javacmd"
)

// TestAopXMLNames: AspectJ's configuration property replaces the aop.xml
// resources its agent reads, with resource names and file: URLs.
func TestAopXMLNames(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		names, files []string
	}{
		{[]string{"-cp", "a", "Main"}, []string{"META-INF/aop.xml", "META-INF/aop-ajc.xml", "org/aspectj/aop.xml"}, nil},
		{[]string{"-Dorg.aspectj.weaver.loadtime.configuration=META-INF/kieker.aop.xml;file:/etc/aop.xml; ;file:///x/aop.xml", "-cp", "a", "Main"},
			[]string{"META-INF/kieker.aop.xml"}, []string{"/etc/aop.xml", "/x/aop.xml"}},
	} {
		l, err := javacmd.ParseJava("java", tc.args, nil)
		if err != nil {
			t.Fatal(err)
		}
		names, files := aopXMLNames(l)
		if !reflect.DeepEqual(names, tc.names) || !reflect.DeepEqual(files, tc.files) {
			t.Errorf("%q: names %q, files %q; want %q, %q", tc.args, names, files, tc.names, tc.files)
		}
	}
}

// TestIsAspectJAgent: AspectJ's weaver jar by its name, or any agent jar
// holding AspectJ's agent class.
func TestIsAspectJAgent(t *testing.T) {
	dir := t.TempDir()
	jar := func(name string, entries ...string) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		z := zip.NewWriter(f)
		for _, e := range entries {
			z.Create(e)
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	bundled := jar("monitoring-agent.jar", "org/aspectj/weaver/loadtime/Agent.class", "com/acme/Probe.class")
	other := jar("other-agent.jar", "com/acme/Agent.class")
	for opt, want := range map[string]bool{
		"-javaagent:/usr/share/java/aspectjweaver.jar":    true,
		"-javaagent:lib/aspectjweaver-1.9.22.jar=options": true,
		"-javaagent:" + bundled:                           true,
		"-javaagent:" + bundled + "=x":                    true,
		"-javaagent:" + other:                             false,
		"-javaagent:/no/such.jar":                         false,
		"-Xmx1g":                                          false,
	} {
		if got := isAspectJAgent(opt); got != want {
			t.Errorf("isAspectJAgent(%q) = %v, want %v", opt, got, want)
		}
	}
}
