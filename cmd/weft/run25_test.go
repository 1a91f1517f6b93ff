package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestRunJDK25Image: weft run of JDK 25's java (which has no jmods/) links
// the woven runtime image once, from jmods rebuilt from JDK 25's image,
// and runs the program from it, not with --patch-module; the image has
// every default class data sharing archive JDK 25 has (its compact object
// headers' too) and maps the default one: the woven java.base classes come
// from it. JDK 25's javac runs from the image too, and its class file
// runs.
func TestRunJDK25Image(t *testing.T) {
	j25 := jvmtest.JDK25(t)
	adv := countAdvice(t)
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	env := []string{newCache(t)}
	cache := strings.TrimPrefix(env[0], "WEFT_CACHE=")
	log := filepath.Join(t.TempDir(), "load")
	stdout, stderr, code := weft(t, env, "run", "-a", countWeft, "--advice-cp", adv, "--modules", "java.base", "-v", "--",
		filepath.Join(j25, "bin", "java"), "-Xshare:on", "-Xlog:class+load:file="+log, "-cp", app, "Hello")
	if code != 0 || stdout != "hello\n" || !strings.Contains(stderr, " hits at ") ||
		!strings.Contains(stderr, "weft: linked "+filepath.Join(cache, "jdk-")) ||
		!strings.Contains(stderr, "/image/bin/java ") || strings.Contains(stderr, "--patch-module") {
		t.Fatalf("weft run of JDK 25's java: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"java.lang.Object", "java.lang.Thread", "weft.rt.BIB"} {
		if !strings.Contains(string(b), "] "+c+" source: shared objects file\n") {
			t.Errorf("JDK 25 image, -Xshare:on: %s not loaded from the image's archive", c)
		}
	}
	stock, _ := filepath.Glob(filepath.Join(j25, "lib", "server", "*.jsa"))
	if len(stock) < 4 {
		t.Errorf("JDK 25 has the archives %v, not the four (coops or not, compact object headers or not)", stock)
	}
	for _, jsa := range stock {
		image, _ := filepath.Glob(filepath.Join(cache, "jdk-*", "image", "lib", "server", filepath.Base(jsa)))
		if len(image) != 1 {
			t.Errorf("the JDK 25 image has no lib/server/%s (%v)", filepath.Base(jsa), image)
		}
	}

	// javac 25 from the same image.
	out := t.TempDir()
	src := writeFile(t, "Hello.java", helloSrc)
	stdout, stderr, code = weft(t, env, "run", "-a", countWeft, "--advice-cp", adv, "--modules", "java.base", "-v", "--",
		filepath.Join(j25, "bin", "javac"), "-d", out, src)
	if code != 0 || strings.Contains(stderr, "weft: linking") || !strings.Contains(stderr, "/image/bin/javac ") ||
		!strings.Contains(stderr, " hits at ") {
		t.Errorf("weft run of JDK 25's javac: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if o, err := exec.Command(filepath.Join(j25, "bin", "java"), "-cp", out, "Hello").Output(); err != nil || string(o) != "hello\n" {
		t.Errorf("Hello compiled by the JDK 25 image's javac: %q %v", o, err)
	}
}

// TestRunIsolatedLoaderJDK25 is TestRunIsolatedLoader's bridged case on
// JDK 25: a class of a java.*-only loader and its lambda's hidden class
// bridged, every execution counted, under -Xverify:all.
func TestRunIsolatedLoaderJDK25(t *testing.T) {
	j25 := jvmtest.JDK25(t)
	adv := countAdvice(t)
	main := jvmtest.Compile(t, map[string]string{"IsoMain.java": isoMainSrc})
	plugin := jvmtest.Compile(t, map[string]string{"Child.java": isoChildSrc})
	aspect := writeFile(t, "a.weft", "aspect Lambda {\n    before(): execution(* Child.probeSq(..)) || execution(int *.applyAsInt(int)) {\n"+
		"        weft.tools.count.Counter.hit(joinPointId);\n    }\n}\n")
	stdout, stderr, code := weft(t, []string{newCache(t)}, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches", "--",
		filepath.Join(j25, "bin", "java"), "-Xverify:all", "-cp", main, "IsoMain", plugin)
	if code != 0 || stdout != "child 285\n" || !strings.Contains(stderr, "count: 20 hits at 2 join points\n") || !strings.Contains(stderr, ", 2 bridged (") {
		t.Errorf("JDK 25: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}
