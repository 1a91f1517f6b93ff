package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/launch"
)

// TestFlagsAreEachCommands executes commands one after another in one
// process, on one command tree: the flags given to weft run reach none of
// the tools that share their names (they shared runFlags, which the last
// command registered and runTool overwrote), and a second tree, as each
// execution of weft builds, starts from the defaults. No JVM runs: the
// commands stop at the java command given without --.
func TestFlagsAreEachCommands(t *testing.T) {
	root := newRootCmd(&goProfiles{})
	execute := func(args ...string) error {
		t.Helper()
		root.SetArgs(args)
		return root.Execute()
	}
	runArgs := []string{"-a", "x.weft", "--advice-cp", "adv", "--java-home", "/nowhere", "--modules", "java.base", "-v",
		"--patches", "--app-cds=false", "--load-time=false", "--cache-max", "1G", "--weave-info", "info.txt"}
	err := execute(append(append([]string{"run"}, runArgs...), "java", "-version")...)
	want := "run: put -- before the java command: weft run --advice-cp adv --app-cds=false -a x.weft --cache-max 1G " +
		"--java-home /nowhere --load-time=false --modules java.base --patches -v --weave-info info.txt -- java -version"
	if err == nil || err.Error() != want {
		t.Fatalf("run: error %v, want %s", err, want)
	}
	for _, name := range []string{"profile", "leak", "recrash"} {
		err := execute(name, "java", "-version")
		want := name + ": put -- before the java command: weft " + name + " -- java -version"
		if err == nil || err.Error() != want {
			t.Errorf("%s after run: error %v, want %s", name, err, want)
		}
		cmd, _, _ := root.Find([]string{name})
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.String() != f.DefValue {
				t.Errorf("%s --%s after run: %s, want its default %s", name, f.Name, f.Value, f.DefValue)
			}
		})
	}
	// recrash's modules are its own, not profile's nor run's.
	if cmd, _, _ := root.Find([]string{"recrash"}); cmd.Flags().Lookup("modules").Value.String() != "java.base" {
		t.Errorf("recrash --modules: %s, want java.base", cmd.Flags().Lookup("modules").Value)
	}

	// Each execution of weft has a tree of its own: a second run starts
	// from the defaults (on one tree, -a would add to the first's).
	_, _, err = weftInProcess(append([]string{"run"}, runArgs...)...)
	if err == nil {
		t.Fatal("run without --: no error")
	}
	_, _, err = weftInProcess("run", "-a", "y.weft", "java")
	if want := "run: put -- before the java command: weft run -a y.weft -- java"; err == nil || err.Error() != want {
		t.Errorf("a second run: error %v, want %s", err, want)
	}
}

// TestFlagsOfOneName: a flag spelled alike in two commands has one type
// there, and the old spellings that meant something else fail with an
// error that names the new one.
func TestFlagsOfOneName(t *testing.T) {
	types := map[string]string{}
	where := map[string]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if typ, ok := types[f.Name]; ok && typ != f.Value.Type() {
				t.Errorf("--%s is a %s in %s, a %s in %s", f.Name, f.Value.Type(), c.CommandPath(), typ, where[f.Name])
			}
			types[f.Name], where[f.Name] = f.Value.Type(), c.CommandPath()
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&goProfiles{}))

	for _, c := range []struct{ args []string }{
		{[]string{"profile", "--folded", "--", "java"}},
		{[]string{"profile", "--speedscope", "--", "java"}},
		{[]string{"recrash", "--frames", "3", "--", "java"}},
	} {
		_, _, err := weftInProcess(c.args...)
		now := map[string]string{"--folded": "--write-folded", "--speedscope": "--write-speedscope", "--frames": "--max-frames"}
		if want := c.args[0] + ": " + c.args[1] + " is now " + now[c.args[1]]; err == nil || err.Error() != want {
			t.Errorf("weft %s: error %v, want %s", strings.Join(c.args, " "), err, want)
		}
	}
	// weft weave's --weave-info was a bool: an input after it is not
	// taken for the file to write the lines to (over the input).
	for _, args := range [][]string{
		{"weave", "-a", "x.weft", "-o", "out.jar", "--weave-info", "app.jar"},
		{"weave", "-a", "x.weft", "-o", "out.jar", "--weave-info", t.TempDir(), "app.jar"},
		{"weave", "-a", "x.weft", "-o", "out.jar", "app.jar", "--weave-info"},
	} {
		_, _, err := weftInProcess(args...)
		if err == nil || !strings.HasPrefix(err.Error(), launch.WeaveInfoTakesFile) {
			t.Errorf("weft %s: error %v, want %s", strings.Join(args, " "), err, launch.WeaveInfoTakesFile)
		}
	}
}
