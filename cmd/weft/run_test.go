package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/launch"
)

// TestRunLaunchers runs weft run (java.base woven) on java and javac: a
// java command without -- is told to put it; advice classes are looked up
// on the program's class path too, and missing everywhere are an error at
// the advice; advice that advised nothing in the JDK nor the class path is
// warned of as ajc does; javac runs on the woven JDK (it used to be given
// java's @argfile) and its output runs. Both run from the woven runtime
// image, linked once: java and javac of its bin/; it has both class data
// sharing archives of the stock JDK. A program's second run maps the
// application's archive (appCDS). The command line is read as java reads
// it: an @argfile's class path, a -jar's manifest Class-Path (cmdLines).
func TestRunLaunchers(t *testing.T) {
	adv := countAdvice(t)
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	src := writeFile(t, "Hello.java", helloSrc)
	nowhere := writeFile(t, "nowhere.weft", nowhereWeft)
	env := []string{newCache(t)}
	aspects := []string{"run", "-a", countWeft, "-a", nowhere, "--modules", "java.base"}
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return weft(t, env, append(append([]string{}, aspects...), args...)...)
	}

	// No --: said so, with the command line meant.
	_, stderr, code := run("java", "-cp", app, "Hello")
	want := "weft: run: put -- before the java command: weft run -a " + countWeft + " -a " + nowhere +
		" --modules java.base -- java -cp " + app + " Hello\n"
	if code == 0 || stderr != want {
		t.Errorf("without --: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}

	// No advice class anywhere (javac's -cp is not looked at).
	out := t.TempDir()
	_, stderr, code = run("--", jvmtest.Javac(t), "-cp", adv, "-d", out, src)
	if code == 0 || !strings.Contains(stderr, countWeft+":4:9: advice at line 3: weft.tools.count.Counter not found") ||
		!strings.Contains(stderr, "hint: put the compiled advice class on --advice-cp") {
		t.Errorf("javac without --advice-cp: exit %d, stderr:\n%s", code, stderr)
	}

	// The advice class on the program's class path: it goes on the boot
	// class path too. Count advised the JDK and Hello, Nowhere nothing.
	stdout, stderr, code := run("--", jvmtest.Java(t), "-cp", app+string(filepath.ListSeparator)+adv, "Hello")
	lint := "weft: warning: " + nowhere + ":2: advice defined in Nowhere has not been applied [Xlint:adviceDidNotMatch]\n"
	if code != 0 || stdout != "hello\n" || !strings.Contains(stderr, " hits at ") ||
		!strings.Contains(stderr, lint) || strings.Count(stderr, "[Xlint:") != 1 ||
		!strings.Contains(stderr, "weft: linked "+filepath.Join(env[0][len("WEFT_CACHE="):], "jdk-")) {
		t.Errorf("java -cp app:adv: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	// The image has the class data sharing archives the stock JDK has:
	// the default one and the one for heaps over 32 GB (nocoops).
	stock, _ := filepath.Glob(filepath.Join(jvmtest.JavaHome(t), "lib", "server", "*.jsa"))
	if len(stock) < 2 {
		t.Errorf("the stock JDK has the archives %v, not the default and the nocoops one: nothing to compare", stock)
	}
	for _, jsa := range stock {
		image, _ := filepath.Glob(filepath.Join(env[0][len("WEFT_CACHE="):], "jdk-*", "image", "lib", "server", filepath.Base(jsa)))
		if len(image) != 1 {
			t.Errorf("the runtime image has no lib/server/%s (%v)", filepath.Base(jsa), image)
		}
	}

	// javac on the same woven JDK (from the cache: the same advice class
	// path): woven, the advice counts; no second lint.
	stdout, stderr, code = run("--advice-cp", adv, "-v", "--", jvmtest.Javac(t), "-d", out, src)
	if code != 0 || strings.Contains(stderr, "weft: weaving") || !strings.Contains(stderr, " hits at ") ||
		strings.Contains(stderr, "[Xlint:") || strings.Contains(stderr, "weft: linking") ||
		!strings.Contains(stderr, "/image/bin/javac -J-Dweft.ltw=") {
		t.Errorf("javac: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "Hello.class")); err != nil {
		t.Fatal(err)
	}
	if o, _ := jvmtest.Run(t, "-cp", out, "Hello"); o != "hello\n" {
		t.Errorf("Hello compiled on the woven JDK prints %q", o)
	}

	appCDS(t, env, aspects[1:], adv, app)
	cmdLines(t, env, aspects[1:], adv, app)
	scopeRun(t, env, aspects[1:], adv, app)
}

// appCDS checks the application's class data sharing archive (launch/appcds.go)
// on the woven image of env's cache: a program's first run lists its
// classes, the second makes the archive and maps it, its classes (the
// jar's and the advice's) loaded from it; --app-cds=false maps none; an
// archive made stale by a newer woven jar is not used but deleted, and the
// classes listed again for the next run. The output is the same each time.
// The runs take the aspects and modules of the runs before (aspectArgs)
// and the advice class path: the same woven JDK and image, not another.
func appCDS(t *testing.T, env, aspectArgs []string, adv, classes string) {
	jar := filepath.Join(t.TempDir(), "hello.jar")
	jvmtest.Jar(t, classes, jar, "")
	logs := t.TempDir()
	run := func(name string, flags ...string) (stderr, classLoad string) {
		t.Helper()
		log := filepath.Join(logs, name)
		args := append(append(append(append([]string{"run"}, aspectArgs...), "--advice-cp", adv), flags...),
			"--", jvmtest.Java(t), "-Dcount.quiet=1", "-Xlog:class+load:file="+log, "-cp", jar, "Hello")
		stdout, stderr, code := weft(t, env, args...)
		b, err := os.ReadFile(log)
		if code != 0 || stdout != "hello\n" || err != nil {
			t.Fatalf("%s: exit %d, stdout %q, stderr:\n%s(%v)", name, code, stdout, stderr, err)
		}
		return stderr, string(b)
	}
	shared := func(classLoad, class string) bool {
		return strings.Contains(classLoad, " "+class+" source: shared objects file")
	}
	making := "weft: making the application's class data sharing archive "

	if stderr, cl := run("first", "-v"); strings.Contains(stderr, making) || shared(cl, "Hello") {
		t.Errorf("the first run made or mapped an archive: stderr:\n%s", stderr)
	}
	stderr, cl := run("second", "-v")
	if !strings.Contains(stderr, making) || !shared(cl, "Hello") || !shared(cl, "weft.tools.count.Counter") {
		t.Errorf("the second run: Hello and weft.tools.count.Counter not from the application's archive; stderr:\n%s", stderr)
	}
	made, _ := filepath.Glob(filepath.Join(env[0][len("WEFT_CACHE="):], "cds-*", launch.CDSArchive))
	if len(made) != 1 {
		t.Fatalf("application archives after the second run: %v", made)
	}
	if _, cl := run("off", "--app-cds=false"); shared(cl, "Hello") {
		t.Errorf("--app-cds=false: Hello from a shared archive")
	}

	// A newer woven jar: the archive is stale, replaced by a class list.
	woven, _ := filepath.Glob(filepath.Join(env[0][len("WEFT_CACHE="):], "app-*", "*-hello.jar"))
	if len(woven) != 1 {
		t.Fatalf("woven copies of hello.jar: %v", woven)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(woven[0], later, later); err != nil {
		t.Fatal(err)
	}
	if stderr, cl := run("stale", "-v"); strings.Contains(stderr, making) || shared(cl, "Hello") {
		t.Errorf("a stale archive was used: stderr:\n%s", stderr)
	}
	// Replaced: the stale archive is gone and this run's class list kept,
	// from which the next run makes the archive as the second run did.
	dir := filepath.Dir(made[0])
	if !fileExists(filepath.Join(dir, launch.CDSClassList)) || fileExists(made[0]) {
		t.Errorf("after the stale run, %s has no class list or still its archive", dir)
	}
}
