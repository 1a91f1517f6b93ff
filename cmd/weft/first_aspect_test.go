package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// firstAspectFile matches a file of docs/first-aspect.md: "Save as
// `PATH`:", then its fenced block.
var firstAspectFile = regexp.MustCompile("Save as `([^`]+)`:\n\n```[a-z]*\n((?s).*?)```\n")

// TestFirstAspect follows the tutorial (docs/first-aspect.md) as a reader
// would: its files as the page gives them, its commands, and what the
// page shows them printing (line numbers of the JDK's own sources aside,
// which differ between builds): the aspect checks, a misspelled advice
// method is named with its place and a hint, weaving the program alone
// counts its own HashMaps, and weft run counts the JDK's too.
func TestFirstAspect(t *testing.T) {
	page, err := os.ReadFile("../../docs/first-aspect.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := firstAspectFile.FindAllSubmatch(page, -1)
	if len(files) != 3 {
		t.Fatalf("docs/first-aspect.md: %d files (Save as `PATH`: and a block), want Words.java, tut/Sites.java and maps.weft", len(files))
	}
	for _, f := range files {
		p := filepath.Join(dir, string(f[1]))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f[2], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{newCache(t)}
	in := func(args ...string) []string { // weft's arguments, with paths in dir
		for i, a := range args {
			if strings.HasSuffix(a, ".weft") || a == "adv" || a == "app" || a == "woven" || a == "weft-rt.jar" {
				args[i] = filepath.Join(dir, a)
			}
		}
		return args
	}
	if _, stderr, code := weft(t, env, in("runtime", "-o", "weft-rt.jar")...); code != 0 {
		t.Fatalf("weft runtime: %s", stderr)
	}
	javac := func(args ...string) {
		c := exec.Command(jvmtest.Javac(t), jvmtest.ToolArgs(args...)...)
		c.Dir = dir
		if b, err := c.CombinedOutput(); err != nil {
			t.Fatalf("javac %v: %v\n%s", args, err, b)
		}
	}
	javac("-d", "app", "Words.java")
	javac("-cp", "weft-rt.jar", "-d", "adv", "tut/Sites.java")

	stdout, stderr, code := weft(t, env, in("check", "maps.weft", "--advice-cp", "adv")...)
	if code != 0 || !strings.Contains(stdout+stderr, "calls tut.Sites.made(Lweft/rt/JoinPointStaticPart;)V  with (thisJoinPointStaticPart)") {
		t.Errorf("weft check: exit %d\n%s%s", code, stdout, stderr)
	}
	maps, _ := os.ReadFile(filepath.Join(dir, "maps.weft"))
	os.WriteFile(filepath.Join(dir, "typo.weft"), []byte(strings.ReplaceAll(string(maps), "Sites.made", "Sites.mad")), 0o644)
	_, stderr, code = weft(t, env, in("check", "typo.weft", "--advice-cp", "adv")...)
	if code == 0 || !strings.Contains(stderr, "typo.weft:4:9: advice at line 3: no advice method fits") ||
		!strings.Contains(stderr, "hint: no method named mad in tut.Sites") {
		t.Errorf("weft check typo.weft: exit %d\n%s", code, stderr)
	}

	words := []string{"Words", "To be, or not to be:", "that is the question."}
	const counted = "{be=2, is=1, not=1, or=1, question=1, that=1, the=1, to=2}\n10 words\n"
	if _, stderr, code := weft(t, env, in("weave", "-a", "maps.weft", "--advice-cp", "adv", "-o", "woven", "app")...); code != 0 {
		t.Fatalf("weft weave: %s", stderr)
	}
	stdout, stderr = jvmtest.Run(t, append([]string{"-cp", filepath.Join(dir, "woven") + ":" + filepath.Join(dir, "adv")}, words...)...)
	if stdout != counted || !strings.HasSuffix(stderr, "2 HashMaps made at 1 places; the busiest:\n     2  Words (Words.java:12)\n") {
		t.Errorf("the woven program on the stock JDK: stdout %q, stderr:\n%s", stdout, stderr)
	}

	stdout, stderr, code = weft(t, env, append(in("run", "-a", "maps.weft", "--advice-cp", "adv", "--", "java", "-cp", "app"), words...)...)
	jdk := regexp.MustCompile(`(?m)^ +\d+  java\.util\.\w+ \(\w+\.java:\d+\)$`)
	if code != 0 || stdout != counted || !strings.Contains(stderr, "     2  Words (Words.java:12)\n") || jdk.FindString(stderr) == "" {
		t.Errorf("weft run: exit %d, stdout %q, want the program's HashMaps and the JDK's:\n%s", code, stdout, stderr)
	}
}
