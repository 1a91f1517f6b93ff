package launch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/weft-aop/weft/internal/javacmd"
)

// TestCDSOptions checks which java commands get the application's class
// data sharing archive, and the options and program it is keyed by.
func TestCDSOptions(t *testing.T) {
	argfile := writeFile(t, "args", "-Xmx1g\n-cp a.jar\n")
	tests := []struct {
		args       []string
		opts       []string
		main       string
		archivable bool
	}{
		{[]string{"-cp", "a.jar", "Main", "-Xshare:off"}, nil, "Main", true}, // the program's arguments are its own
		{[]string{"-Xmx64g", "-Xlog:class+load", "-XX:+UseSerialGC", "-Dx=1", "-ea", "-cp", "a.jar:b", "Main"},
			[]string{"-Xmx64g", "-XX:+UseSerialGC"}, "Main", true},
		{[]string{"-Xss1m", "-jar", "app.jar", "x"}, []string{"-Xss1m"}, "-jar app.jar", true},
		{[]string{"--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", "a.jar", "Main"}, nil, "Main", true},
		{[]string{"-version"}, nil, "", false},
		{[]string{"-Xshare:off", "-cp", "a.jar", "Main"}, nil, "", false},
		{[]string{"-XX:SharedArchiveFile=my.jsa", "Main"}, nil, "", false},
		{[]string{"-XX:ArchiveClassesAtExit=my.jsa", "Main"}, nil, "", false},
		{[]string{"-Xbootclasspath/a:x.jar", "Main"}, nil, "", false},
		{[]string{"-javaagent:agent.jar", "Main"}, nil, "", false},
		{[]string{"-p", "mods", "-m", "m/p.Main"}, nil, "", false},
		{[]string{"--module-path=mods", "Main"}, nil, "", false},
		{[]string{"@" + argfile, "Main"}, []string{"-Xmx1g"}, "Main", true}, // an argfile is read as java reads it
		{[]string{"Hello.java"}, nil, "", false},
	}
	for _, tt := range tests {
		line, err := javacmd.ParseJava("java", tt.args, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts, main, ok := cdsOptions(line)
		if ok != tt.archivable || main != tt.main || !slices.Equal(opts, tt.opts) {
			t.Errorf("cdsOptions(%q) = %q, %q, %v; want %q, %q, %v", tt.args, opts, main, ok, tt.opts, tt.main, tt.archivable)
		}
	}
	// The JDK's tools: their -J options count, jshell (whose snippets' JVM
	// takes the same options) gets none.
	tools := []struct {
		launcher   string
		args       []string
		opts       []string
		main       string
		archivable bool
	}{
		{"javac", []string{"-J-Xmx1g", "-J-Xlog:cds", "-d", "out", "-Xlint", "A.java"}, []string{"-Xmx1g"}, "tool javac", true},
		{"/jdk/bin/jar", []string{"--version"}, nil, "tool jar", true},
		{"javac", []string{"-J-Xshare:off", "-version"}, nil, "", false},
		{"jshell", nil, nil, "", false},
	}
	for _, tt := range tools {
		opts, main, ok := cdsOptions(javacmd.ParseTool(tt.launcher, tt.args))
		if ok != tt.archivable || main != tt.main || !slices.Equal(opts, tt.opts) {
			t.Errorf("cdsOptions(%s %q) = %q, %q, %v; want %q, %q, %v", tt.launcher, tt.args, opts, main, ok, tt.opts, tt.main, tt.archivable)
		}
	}
}

// writeFile writes text to name in a new directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
