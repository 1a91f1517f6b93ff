package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver/ltw"
)

// TestRunLoadTime runs weft run (java.base woven ahead of time) on a
// program whose classes the JVM defines at run time, under -Xverify:all:
// the plugin's method executions are counted exactly (work once, step five
// times, area and size once), the lambda proxy's and the Proxy class's
// executions reach the advice, around advice at a plugin method changes
// its argument and its result, a plugin class is matched through a
// superclass and an interface weft had not seen (it asks the JVM for them),
// thisJoinPoint reaches the advice from the lambda proxy (a hidden class),
// from the Proxy class of a public interface (in a dynamic module) and
// from the classes of two module layers the program makes (a lambda proxy
// of theirs included) exactly once a call, and no woven class is refused,
// the corrupt class fails as on a stock JVM and weft names it, the
// --weave-info file has the plugin's lines, and the output is the stock
// one. A second run gets every woven class from the cross-run cache and
// counts the same. The rest of the language reaches a plugin class
// (Gauge) at load time, each line of its advice counted exactly: set with
// args and target, get after returning inside a cflow, around at a get
// changing the value read, cflowbelow, a handler binding the exception,
// static initialization, (pre)initialization, if(), @annotation binding, a
// class-retention annotation, @this, @target, @args, within an annotated
// type and a parameter's annotation. weft serve serves two JVMs of it at once. A module-path
// application's executions are counted exactly. With --load-time=false
// nothing of it is advised.
func TestRunLoadTime(t *testing.T) {
	home := jvmtest.JavaHome(t)
	rt, err := rtjava.Build(home, "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, rt); err != nil {
		t.Fatal(err)
	}
	counter, err := os.ReadFile("../../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	adv := jvmtest.Compile(t, map[string]string{"weft/tools/count/Counter.java": string(counter), "ltwtest/Seen.java": ltwSeenSrc,
		"ltwtest/Tenfold.java": ltwTenfoldSrc, "ltwtest/Mark.java": ltwMarkSrc,
		"ltwtest/Quiet.java": ltwQuietSrc}, "-cp", rtJar)
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": ltwMainSrc, "app/Pick.java": ltwPickSrc})
	appJar := filepath.Join(t.TempDir(), "app.jar")
	jvmtest.Jar(t, app, appJar, "")
	jar := filepath.Join(t.TempDir(), "plugin.jar")
	jvmtest.Jar(t, jvmtest.Compile(t, map[string]string{"plugin/Plugin.java": ltwPluginSrc,
		"plugin/Scale.java": ltwScaleSrc, "plugin/Gauge.java": ltwGaugeSrc}, "-cp", adv), jar, "")
	// Square and its supertypes come from a directory, whose classes are
	// not woven ahead: weft asks the JVM for the supertypes.
	pluginJar := jar + string(os.PathListSeparator) + jvmtest.Compile(t, map[string]string{"plugin/Square.java": ltwShapesSrc})
	layer := jvmtest.CompileModules(t, ltwLayerSrcs)
	aspect := writeFile(t, "plugins.weft", ltwWeft)
	report := filepath.Join(t.TempDir(), "ltw.json")
	env := []string{newCache(t)}

	want, _ := jvmtest.Run(t, "-cp", app, "app.Main", pluginJar, layer)
	// Woven, scale(5) is 10 * scale(6), and Gauge.run reads its level
	// (3) doubled.
	woven := strings.Replace(strings.Replace(want, "scale 15\n", "scale 180\n", 1), "gauge 3 6 true 3\n", "gauge 3 6 true 6\n", 1)
	if woven == want || !strings.Contains(woven, "gauge 3 6 true 6\n") {
		t.Fatalf("the stock run printed no %q or %q:\n%s", "scale 15", "gauge 3 6 true 3", want)
	}
	info := filepath.Join(t.TempDir(), "info.txt")
	runLTW := func() (stderr string, sum ltw.Summary, lines []string) {
		t.Helper()
		stdout, stderr, code := weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
			"--Xlint", "ignore", "--ltw-report", report, "--weave-info", info,
			"--", jvmtest.Java(t), "-Xverify:all", "-cp", app, "app.Main", pluginJar, layer)
		if code != 0 || stdout != woven {
			t.Fatalf("exit %d, stdout %q, want %q; stderr:\n%s", code, stdout, woven, stderr)
		}
		if b, err := os.ReadFile(report); err != nil {
			t.Error(err)
		} else if err := json.Unmarshal(b, &sum); err != nil {
			t.Errorf("report %s: %v", b, err)
		}
		b, err := os.ReadFile(info)
		if err != nil {
			t.Fatal(err)
		}
		lines = strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(lines)
		return stderr, sum, lines
	}
	stderr, sum, lines := runLTW()
	advice := adviceLines(stderr)
	for _, w := range []string{
		ltwCount,                  // work, step, area, size, scale and Gauge's run, fill, drain, same
		"seen app.Main$$Lambda$",  // the lambda proxy's get()
		"seen app.$Proxy",         // the Proxy class's go()
		"seen plugin.Square.area", // through a supertype weft asked the JVM for
		"seen plugin.Square.size",
		"seen app.Pz.n", // in Pick.pick, whose frames merge Pz1 and Pz2
		"weft: warning: Bad (normal class) left unwoven: Bad: ",
		"left unwoven: a reflection accessor the JDK generates",
		// thisJoinPoint in a lambda proxy (a hidden class), the Proxy of
		// a public interface (dynamic module jdk.proxyN)
		"tjp app.Main$$Lambda$",
		".get hidden args 0\n",
		"tjp jdk.proxy",
		".run this args 0\n",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	// plugin.Gauge, counted by hand: each line of the advice (Seen.note)
	// as often as it must appear.
	for w, n := range map[string]int{
		"set 0": 1, "set 1": 1, "set 3": 1, // level += i for i < 3: set (args, target)
		"get in fill 0": 2, "get in fill 1": 1, "get in fill 3": 1, // level's gets in fill (cflow)
		"below run fill": 1, "below run drain": 2, "below run same": 1, // cflowbelow(execution(run()))
		`handler For input string: "x"`: 1,
		"kind staticinitialization":     1, "kind preinitialization": 1, "kind initialization": 1,
		"if 3":                  1, // if(big(n)) at fill(3)
		"@annotation fill fill": 1,
		"class-retention drain": 2, // @Quiet drain
		"@this gauge run":       1, "@this gauge fill": 1, "@this gauge drain": 2, "@this gauge same": 1,
		"@target fill": 1, "@target drain": 2, "@target same": 1, // calls on this in run()
		"@args gauge same": 1, // same(this)
		"parameter same":   1, // same(@Mark("p") Object o)
	} {
		if got := strings.Count(stderr, "ltw "+w+"\n"); got != n {
			t.Errorf("stderr has %d times %q, want %d", got, "ltw "+w, n)
		}
	}
	if n := strings.Count(stderr, "ltw "); n != 30 {
		t.Errorf("stderr has %d lines of Gauge's advice, want 30:\n%s", n, stderr)
	}
	// Two layers: each of their classes (a lambda proxy in ma included)
	// woven and reaching the advice once.
	for _, w := range []string{"tjp ma.A.run static args 0\n", "tjp mb.B.twice static args 1\n",
		"tjp ma.A.lambda$run$0 static args 1\n", ".applyAsInt hidden args 1\n"} {
		if n := strings.Count(stderr, w); n != 2 {
			t.Errorf("stderr has %d times %q, want 2:\n%s", n, w, stderr)
		}
	}
	if strings.Contains(stderr, "refused") {
		t.Errorf("the JVM refused a woven class:\n%s", stderr)
	}
	// From the cache already, at most: ma.A and mb.B again in the second
	// layer, if the cache's background writer has stored them by then.
	// Square's four supertypes are asked of the JVM, once each; Plugin's
	// superclass is read from its jar.
	if sum.Woven < 3 || sum.UnwovenCount < 1 || sum.FromCache > 2 || sum.Asked != 4 {
		t.Errorf("first run: %s, %d supertypes asked", sum, sum.Asked)
	}
	workInfo := "Join point 'method-execution(int plugin.Plugin.work(int))' in Type 'plugin.Plugin' (Plugin.java:3) advised by before advice from 'Plugins'"
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, workInfo) }) {
		t.Errorf("--weave-info lacks %q:\n%s", workInfo, strings.Join(lines, "\n"))
	}
	t.Logf("%s", sum)

	// Again: every class comes from the cross-run cache, woven the same.
	stderr, again, againLines := runLTW()
	if !strings.Contains(stderr, ltwCount) || again.Woven != 0 || again.FromCache != sum.Woven+sum.FromCache ||
		!slices.Equal(lines, againLines) {
		t.Errorf("second run: %s (first: %s), weave info the same: %v; stderr:\n%s", again, sum, slices.Equal(lines, againLines), stderr)
	}
	// ... answered in the JVM from the cache's index: no class from the
	// cache came by round trip.
	if again.InJVM == 0 || again.InJVM != again.FromCache+again.Unchanged {
		t.Errorf("second run: %d classes answered in the JVM, want every one from the cache (%d woven, %d unchanged); %d requests",
			again.InJVM, again.FromCache, again.Unchanged, again.Requests)
	}
	t.Logf("%s; %d requests", again, again.Requests)

	// A corrupt cache: every other record of its packs has a byte changed.
	// The JVM reads those records, finds their checksum wrong and asks
	// weft, which weaves them again: the same output, counts and weave info.
	corrupted := corruptPacks(t, env)
	stderr, third, thirdLines := runLTW()
	if !strings.Contains(stderr, ltwCount) || strings.Contains(stderr, "refused") ||
		third.Woven == 0 || third.InJVM == 0 || third.Woven+third.FromCache != sum.Woven+sum.FromCache || !slices.Equal(lines, thirdLines) {
		t.Errorf("corrupt cache (%d records changed): %s, %d in the JVM, weave info the same: %v; stderr:\n%s", corrupted, third,
			third.InJVM, slices.Equal(lines, thirdLines), stderr)
	}
	t.Logf("corrupt cache (%d records changed): %s", corrupted, third)

	serveTwoJVMs(t, env, aspect, adv, appJar, woven, advice, pluginJar, layer)

	// A module-path application (-p/-m): its classes, the lambda proxy in
	// its module included, are woven at load time.
	mods := t.TempDir()
	jvmtest.Jar(t, jvmtest.Compile(t, map[string]string{"module-info.java": "module app.mod {}\n", "appmod/Main.java": ltwModuleSrc}),
		filepath.Join(mods, "app-mod-1.0.jar"), "")
	stdout, stderr, code := weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
		"--Xlint", "ignore", "--", jvmtest.Java(t), "-Xverify:all", "-p", mods, "-m", "app.mod/appmod.Main")
	if code != 0 || stdout != "module 16 app.mod\n" || !strings.Contains(stderr, "count: 6 hits at 4 join points\n") {
		t.Errorf("module-path application: exit %d, stdout %q; stderr:\n%s", code, stdout, stderr)
	}

	// Without load-time weaving: nothing defined at run time is advised.
	stdout, stderr, code = weft(t, env, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--patches",
		"--Xlint", "ignore", "--load-time=false", "--", jvmtest.Java(t), "-cp", app, "app.Main", pluginJar, layer)
	if code != 0 || stdout != want || strings.Contains(stderr, "count: 14 hits") || strings.Contains(stderr, "ltw ") ||
		strings.Contains(stderr, "seen app.Main$$Lambda$") || strings.Contains(stderr, "seen app.$Proxy") || strings.Contains(stderr, "tjp ") {
		t.Errorf("--load-time=false: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// ltwCount is what weft.tools.count.Counter prints of the plugin's executions: work
// once, step five times, area, size and scale once, Gauge's run, fill and
// same once, drain twice.
const ltwCount = "count: 14 hits at 9 join points\n"

// corruptPacks changes a byte in the entry of every other record of the
// load-time cache's packs (weaver/ltw pack.go) in env's cache, and returns
// how many it changed.
func corruptPacks(t *testing.T, env []string) int {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(strings.TrimPrefix(env[0], "WEFT_CACHE="), "ltw-*", "*.pack"))
	const magic, head = len("weft-ltw-pack 1\n"), 4 + 4 + 32
	changed := 0
	for _, p := range packs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, off := 0, magic; off+head <= len(b); i++ {
			n := int(binary.BigEndian.Uint32(b[off:]))
			if i%2 == 0 && off+head+n <= len(b) {
				b[off+head+n/2] ^= 0x5a
				changed++
			}
			off += head + n
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return changed
}

// serveTwoJVMs runs weft serve (on the woven java.base of env's cache) and
// two JVMs of the load-time test program at once with java @DIR/weft.args,
// the application from a jar (appJar): each prints what weft run's JVM
// printed, stdout and the advice's lines (advice, adviceLines of weft
// run's), though nothing of it was woven before it started; on SIGTERM
// weft serve reports the classes of both, some of them answered in the
// JVMs from the answers woven ahead from the jars, and the supertypes of
// the jars' classes read from the jars, not asked of the JVMs.
func serveTwoJVMs(t *testing.T, env []string, aspect, adv, appJar, want string, advice []string, mainArgs ...string) {
	t.Helper()
	start := time.Now()
	report := filepath.Join(t.TempDir(), "serve.json")
	dir, stop := servingWeft(t, env, "-a", aspect, "--advice-cp", adv, "--modules", "java.base", "--Xlint", "ignore",
		"--ltw-report", report)
	args := filepath.Join(dir, "weft.args")
	type out struct{ stdout, stderr string }
	outs := make([]out, 2)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := exec.Command(jvmtest.Java(t), append([]string{"@" + args, "-Xverify:all", "-cp", appJar, "app.Main"}, mainArgs...)...)
			var o, e bytes.Buffer
			c.Stdout, c.Stderr = &o, &e
			c.Run()
			outs[i] = out{o.String(), e.String()}
		}(i)
	}
	wg.Wait()
	for i, o := range outs {
		if got := adviceLines(o.stderr); o.stdout != want || !slices.Equal(got, advice) || strings.Contains(o.stderr, "refused") {
			t.Errorf("JVM %d under weft serve: stdout %q, want %q; advice's lines the same as under weft run: %v; stderr:\n%s",
				i, o.stdout, want, slices.Equal(got, advice), o.stderr)
		}
	}
	serveErr, err := stop()
	if err != nil {
		t.Errorf("weft serve: %v\n%s", err, serveErr)
	}
	var sum ltw.Summary
	if b, err := os.ReadFile(report); err != nil {
		t.Error(err)
	} else if err := json.Unmarshal(b, &sum); err != nil || sum.Woven+sum.FromCache < 10 || sum.UnwovenCount < 2 || sum.Ahead == 0 {
		t.Errorf("weft serve's report %s: %v; want classes answered in the JVMs, woven ahead from the jars", b, err)
	} else if sum.Asked > 8 {
		// Only Square's four, from a directory, once per JVM at most: the
		// supertypes of the jars' classes are read from the jars.
		t.Errorf("weft serve asked the JVMs for %d supertypes, want at most 8", sum.Asked)
	}
	if !strings.Contains(serveErr, "weft: load-time weaving: ") || !strings.Contains(serveErr, " answered in the JVM, woven ahead") {
		t.Errorf("weft serve printed no summary, or one without the classes woven ahead:\n%s", serveErr)
	}
	t.Logf("weft serve, two JVMs: %s; %d supertypes asked (%v)", sum, sum.Asked, time.Since(start).Round(time.Millisecond))
}

// servingWeft starts weft serve with args and a --dir of its own, and
// returns once it serves (its weft.args written), with the directory;
// stop ends it with SIGTERM and returns its standard error and how it
// ended. It fails the test if serve ends or takes two minutes before it
// serves.
func servingWeft(t *testing.T, env []string, args ...string) (dir string, stop func() (string, error)) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "serve")
	serve := exec.Command(os.Args[0], append(append([]string{"serve"}, args...), "--dir", dir)...)
	serve.Env = append(append(os.Environ(), asWeft+"=1"), env...)
	var stderr bytes.Buffer
	serve.Stderr = &stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill() })
	ended := make(chan error, 1)
	go func() { ended <- serve.Wait() }()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "weft.args")); err == nil {
			break
		}
		select {
		case err := <-ended:
			t.Fatalf("weft serve %s ended (%v) before it served:\n%s", strings.Join(args, " "), err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("weft serve %s wrote no weft.args:\n%s", strings.Join(args, " "), stderr.String())
		}
	}
	return dir, func() (string, error) {
		serve.Process.Signal(syscall.SIGTERM)
		err := <-ended
		return stderr.String(), err
	}
}

// adviceLines are the lines the load-time test's advice prints in stderr,
// sorted, the names of classes the JVM generates without their numbers.
func adviceLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "seen ") || strings.HasPrefix(l, "tjp ") || strings.HasPrefix(l, "ltw ") || strings.HasPrefix(l, "count: ") {
			out = append(out, generatedNumbers.ReplaceAllString(l, "$1"))
		}
	}
	slices.Sort(out)
	return out
}

// generatedNumbers matches the numbers in the names of lambda proxies and
// Proxy classes and their modules.
var generatedNumbers = regexp.MustCompile(`(\$\$Lambda\$|\$Proxy|jdk\.proxy)[0-9]+(/0x[0-9a-f]+)?`)
