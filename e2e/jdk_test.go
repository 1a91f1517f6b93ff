// Package e2e runs weft end to end against the real JDK: the whole JDK
// woven with the harshest aspect, then real programs on it.
package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/launch"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
)

// countAspect is the harshest aspect: before advice at every method and
// constructor execution, catch block, static initialization (a <clinit>
// added where a class has none) and object (pre)initialization of every
// class, passing the join point id.
const countAspect = `aspect Count {
    before(): (execution(* *(..)) || execution(new(..)) || handler(*) || staticinitialization(*) ||
            preinitialization(new(..)) || initialization(new(..))) && !within(weftcount..*) {
        weftcount.Counter.hit(joinPointId);
    }
}
`

// counterSrc counts hits per join point id and, at exit, writes the
// non-zero counts to the file named by -Dweft.counts. It has no static
// initializer; advice runs with the bypass set, so its own allocations and
// the shutdown hook thread (which inherits the bypass) are not counted.
const counterSrc = `package weftcount;
public final class Counter {
    static long[] hits;
    static java.util.Set<Thread> threads; // with -Dweft.threads=FILE
    static volatile boolean childBypass;
    public static void hit(int id) {
        long[] h = hits;
        if (h == null) h = init();
        if (id < h.length) h[id]++;
        if (threads != null) threads.add(Thread.currentThread());
    }
    static synchronized long[] init() {
        if (hits != null) return hits;
        String tf = System.getProperty("weft.threads");
        if (tf != null) {
            threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
            // A thread started inside advice inherits the bypass flag.
            Thread t = new Thread(() -> childBypass = weft.rt.DIB.get());
            t.start();
            try { t.join(); } catch (InterruptedException e) { throw new Error(e); }
        }
        String ran = System.getenv("WEFT_TEST_ADVICE_RAN"); // e2e: no advice while an image is built
        if (ran != null) {
            try { new java.io.File(ran).createNewFile(); } catch (java.io.IOException e) { throw new Error(e); }
        }
        String f = System.getProperty("weft.counts");
        if (f != null || tf != null) Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                if (f != null) try (java.io.PrintWriter w = new java.io.PrintWriter(f)) {
                    for (int i = 0; i < hits.length; i++) if (hits[i] != 0) w.println(i + " " + hits[i]);
                }
                if (tf != null) try (java.io.PrintWriter w = new java.io.PrintWriter(tf)) {
                    w.println("childBypass=" + childBypass);
                    for (Thread t : threads) w.println(t.getName());
                }
            } catch (Exception e) { e.printStackTrace(); }
        }));
        hits = new long[1 << 21];
        return hits;
    }
}
`

// wovenJDK is the JDK woven once for the tests of this package.
type wovenJDK struct {
	adv    string // the advice classes (and Linker)
	dir    string // weft jdk output: weft.args, summary.json, patch/
	args   string // "@DIR/weft.args"
	image  string // the runtime image linked from it: DIR/image
	sum    *jdk.Summary
	ids    map[string]int32            // "java/util/HashMap.put(...)..." → execution join point id
	kinds  map[int32]advice.ShadowKind // join point id → kind, for handlers and (static) initialization
	weaveS float64
}

var (
	harshOnce sync.Once
	harsh     *wovenJDK
	harshErr  string
)

// harshJDK weaves every module of the JDK with the counting aspect, once.
func harshJDK(t *testing.T) *wovenJDK {
	t.Helper()
	harshOnce.Do(func() { harsh, harshErr = weaveHarsh(t, jvmtest.JavaHome(t)) })
	if harsh == nil {
		t.Fatal(harshErr)
	}
	return harsh
}

// weaveHarsh weaves every module of the JDK at home with the counting
// aspect and links its runtime image, through launch as weft run does.
func weaveHarsh(t *testing.T, home string) (*wovenJDK, string) {
	dir, err := os.MkdirTemp("", "weft-e2e-jdk-")
	if err != nil {
		return nil, err.Error()
	}
	rtCache, err := runtimeCache()
	if err != nil {
		return nil, err.Error()
	}
	// Advice compiles against the application-mode runtime: same API.
	rtSrc := map[string]string{"weftcount/Counter.java": counterSrc, "Linker.java": linkerSrc}
	for k, v := range rtjava.Sources() {
		rtSrc[k] = string(v)
	}
	// Compile's directory goes with the test that first asked: copy.
	adv := filepath.Join(dir, "advice")
	if err := copyDir(adv, jvmtest.Compile(t, rtSrc)); err != nil {
		return nil, err.Error()
	}
	os.RemoveAll(filepath.Join(adv, "weft"))
	img, err := classpath.OpenJDK(home)
	if err != nil {
		return nil, err.Error()
	}
	defer img.Close()
	h := weaver.HierarchyOf(img)
	f, err := pointcut.ParseFile("count.weft", []byte(countAspect))
	if err != nil {
		return nil, err.Error()
	}
	prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: adv, Hierarchy: h})
	if err != nil {
		return nil, err.Error()
	}
	// Woven as weft run weaves it (launch), every class's shadows seen.
	var mu sync.Mutex
	ids := map[string]int32{}
	kinds := map[int32]advice.ShadowKind{}
	onResult := func(res *weaver.Result) {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range res.Shadows {
			if s.Kind >= advice.ExceptionHandler {
				kinds[s.ID] = s.Kind
			}
			if s.Kind == advice.MethodExecution && strings.HasPrefix(s.Member.Owner, "java/util/HashMap") {
				ids[s.Member.Owner+"."+s.Member.Name+s.Member.Desc] = s.ID
			}
		}
	}
	j := launch.OpenJDK(home)
	defer j.Close()
	sum, _, err := launch.WeaveJDK(launch.JDKJob{Matcher: prog, Advice: prog.Advice(), AdviceCP: adv, JDK: j,
		Out: dir, Diag: io.Discard, OnResult: onResult, RuntimeDir: rtCache})
	if err != nil {
		return nil, err.Error()
	}
	// The JVMs that build the image (its CDS dumps) run no advice: the
	// advice marks the file named by WEFT_TEST_ADVICE_RAN when it runs.
	image := filepath.Join(dir, "image")
	ran := filepath.Join(dir, "advice-ran")
	os.Setenv("WEFT_TEST_ADVICE_RAN", ran)
	// The tests check the default archive (-Xshare:on); cmd/weft's
	// TestRunLaunchers checks that an image gets both.
	err = launch.LinkImage(nil, jdk.LinkOptions{JavaHome: home, Woven: dir, Out: image, BootAppend: []string{adv}, DefaultArchiveOnly: true})
	os.Unsetenv("WEFT_TEST_ADVICE_RAN")
	if err != nil {
		return nil, err.Error()
	}
	if _, err := os.Stat(ran); err == nil {
		return nil, "advice ran in a JVM building the runtime image (" + ran + ")"
	}
	return &wovenJDK{adv: adv, dir: dir, args: "@" + filepath.Join(dir, "weft.args"), image: image, sum: sum, ids: ids,
		kinds: kinds, weaveS: sum.Seconds}, ""
}

var (
	rtOnce sync.Once
	rtDir  string
	rtErr  error
)

// runtimeCache is where the package's tests keep the JDK-mode runtime
// (keyed by its sources and the JDK's Thread): compiled once, by the first
// test that needs it (javac, each time the same, took about 3 CPU
// seconds per test).
func runtimeCache() (string, error) {
	rtOnce.Do(func() { rtDir, rtErr = os.MkdirTemp("", "weft-e2e-rt-") })
	return rtDir, rtErr
}

// newCache returns a new WEFT_CACHE directory for a weft command, its
// runtime (rt/) that of runtimeCache.
func newCache(t *testing.T) string {
	t.Helper()
	rt, err := runtimeCache()
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	if err := os.Symlink(rt, filepath.Join(d, "rt")); err != nil {
		t.Fatal(err)
	}
	return d
}

// bin is a launcher of the woven runtime image.
func (j *wovenJDK) bin(name string) string { return filepath.Join(j.image, "bin", name) }

// readCounts reads a weft.counts file: id → hits.
func readCounts(t *testing.T, file string) map[int32]int64 {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[int32]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		a, b, _ := strings.Cut(sc.Text(), " ")
		id, _ := strconv.Atoi(a)
		n, _ := strconv.ParseInt(b, 10, 64)
		m[int32(id)] = n
	}
	return m
}

const helloSrc = `import java.util.*;
public class Hello {
    public static void main(String[] args) throws Exception {
        Map<String, Integer> m = new HashMap<>();
        for (String a : "to be or not to be".split(" ")) m.merge(a, 1, Integer::sum);
        m.put("that", 0);
        System.out.println("hello " + new TreeMap<>(m));
        // ClassLoader.loadClass catches its parent's ClassNotFoundException.
        try { Class.forName("NoSuchClass", false, new java.net.URLClassLoader(new java.net.URL[0])); } catch (ClassNotFoundException e) { System.out.println("no such class"); }
    }
}
`

// stockVersion strips what patching changes in `java -version`: class data
// sharing is off with --patch-module.
func stockVersion(s string) string { return strings.Replace(s, ", sharing)", ")", 1) }

// TestHarshVersionAndHello: java -version and a hello world give the stock
// output on the woven JDK, patched and as a runtime image, under
// -Xverify:all, and the counts include java.util.HashMap.put; the image
// maps its class data sharing archive (-Xshare:on), which holds woven
// classes.
func TestHarshVersionAndHello(t *testing.T) {
	j := harshJDK(t)
	classes, woven, methods := j.sum.Totals()
	t.Logf("woven %d of %d classes, %d methods, in %.1fs; %d unwoven, %d intrinsics advised",
		woven, classes, methods, j.weaveS, len(j.sum.Unwoven), len(j.sum.Intrinsics))
	for _, u := range j.sum.Unwoven {
		t.Errorf("unwoven: %s %s: %s", u.Module, u.Class, u.Reason)
	}
	_, stockErr := jvmtest.Run(t, "-version")
	_, wovenErr := jvmtest.Run(t, "-Xverify:all", j.args, "-version")
	if wovenErr != stockVersion(stockErr) {
		t.Errorf("java -version:\nstock: %s\nwoven: %s", stockErr, wovenErr)
	}
	// The image shares classes as the stock JDK does.
	if _, imageErr := runIn(t, j.bin("java"), "-version"); imageErr != stockErr {
		t.Errorf("java -version:\nstock: %s\nimage: %s", stockErr, imageErr)
	}
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	want, _ := jvmtest.Run(t, "-cp", app, "Hello")
	counts := filepath.Join(t.TempDir(), "counts")
	got, _ := jvmtest.Run(t, "-Xverify:all", j.args, "-Dweft.counts="+counts, "-cp", app, "Hello")
	if got != want {
		t.Errorf("hello on the woven JDK: %q, want %q", got, want)
	}
	put, ok := j.ids["java/util/HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"]
	if !ok {
		t.Fatal("no execution join point for java.util.HashMap.put")
	}
	c := readCounts(t, counts)
	if c[put] < 1 {
		t.Errorf("java.util.HashMap.put (id %d) counted %d times; %d join points counted in all", put, c[put], len(c))
	}
	// Advice ran at each new kind after bootstrap (a catch block in
	// ClassLoader.loadClass, classes and objects the launcher and the
	// program initialize).
	hits := map[advice.ShadowKind]int64{}
	for id, n := range c {
		if k, ok := j.kinds[id]; ok {
			hits[k] += n
		}
	}
	t.Logf("hits at handlers, static initialization, preinitialization, initialization: %v", hits)
	for _, k := range []advice.ShadowKind{advice.ExceptionHandler, advice.StaticInitialization, advice.PreInitialization, advice.Initialization} {
		if hits[k] == 0 {
			t.Errorf("no %s join point counted", k)
		}
	}
	loads := filepath.Join(t.TempDir(), "loads")
	for _, flags := range [][]string{{"-Xverify:all"}, {"-Xshare:on", "-Xlog:class+load:file=" + loads}} {
		got, _ = runIn(t, j.bin("java"), append(append([]string{}, flags...), "-Dweft.counts="+counts, "-cp", app, "Hello")...)
		if got != want {
			t.Errorf("hello on the image %v: %q, want %q", flags, got, want)
		}
		if c := readCounts(t, counts); c[put] < 1 {
			t.Errorf("image %v: java.util.HashMap.put counted %d times", flags, c[put])
		}
	}
	// Woven java.base classes come from the image's archive.
	b, err := os.ReadFile(loads)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"java.lang.Object", "java.util.HashMap", "java.lang.Thread", "weft.rt.BIB"} {
		if !strings.Contains(string(b), "] "+c+" source: shared objects file\n") {
			t.Errorf("image -Xshare:on: %s not loaded from the archive", c)
		}
	}
	// A flight recording runs on the image: JFR copies its instrumentors'
	// methods into java.base classes as it starts (weaver/jdk's exclusion
	// rule 2; without it the JVM does not start).
	jfr := filepath.Join(t.TempDir(), "hello.jfr")
	// (JFR logs its start on stdout first.)
	if got, _ = runIn(t, j.bin("java"), "-XX:StartFlightRecording:filename="+jfr, "-cp", app, "Hello"); !strings.HasSuffix(got, "\n"+want) {
		t.Errorf("hello on the image with a flight recording: %q, want %q", got, want)
	}
	if fi, err := os.Stat(jfr); err != nil || fi.Size() == 0 {
		t.Errorf("no flight recording written: %v", err)
	}
}

// runIn runs a launcher of a JDK with args and returns its stdout and
// stderr; it fails the test if the launcher fails.
func runIn(t *testing.T, launcher string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(launcher, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", launcher, strings.Join(args, " "), err, o.String(), e.String())
	}
	return o.String(), e.String()
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, j := range []*wovenJDK{harsh, harsh25} {
		if j != nil {
			os.RemoveAll(j.dir)
		}
	}
	if weftBin != "" {
		os.RemoveAll(filepath.Dir(weftBin))
	}
	if rtDir != "" {
		os.RemoveAll(rtDir)
	}
	os.Exit(code)
}

// linkerSrc links every class of every module of the boot layer:
// Class.forName(Module, String) loads without initializing and
// getDeclaredMethods() links, so -Xverify:all verifies each class.
const linkerSrc = `import java.net.URI;
import java.nio.file.*;
import java.util.*;
public class Linker {
    public static void main(String[] args) throws Exception {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        int linked = 0, other = 0;
        List<String> bad = new ArrayList<>();
        for (Module m : ModuleLayer.boot().modules()) {
            Path root = jrt.getPath("/modules", m.getName());
            List<Path> files = new ArrayList<>();
            try (var s = Files.walk(root)) { s.filter(p -> p.toString().endsWith(".class")).forEach(files::add); }
            for (Path p : files) {
                String rel = root.relativize(p).toString();
                if (rel.equals("module-info.class")) continue;
                String name = rel.substring(0, rel.length() - 6).replace('/', '.');
                try {
                    Class<?> c = Class.forName(m, name);
                    if (c == null) { other++; continue; }
                    c.getDeclaredMethods();
                    linked++;
                } catch (VerifyError | ClassFormatError e) {
                    bad.add(name + ": " + e);
                } catch (Throwable e) {
                    other++; // e.g. a missing optional dependency: the same on the stock JDK
                }
            }
        }
        System.out.println("linked " + linked + " other " + other + " bad " + bad.size());
        for (String b : bad) System.out.println("BAD " + b);
    }
}
`

// TestHarshLinkEveryClass links every class of the woven runtime image's
// boot layer under -Xverify:all: every class loads and links (the stock
// JDK links them all too: "other 0"), none fails verification.
func TestHarshLinkEveryClass(t *testing.T) {
	j := harshJDK(t)
	woven, _ := runIn(t, j.bin("java"), jvmtest.QuickArgs("-Xverify:all", "-cp", j.adv, "Linker")...)
	t.Logf("woven: %s", strings.SplitN(woven, "\n", 2)[0])
	var n, other, bad int
	if _, err := fmt.Sscanf(woven, "linked %d other %d bad %d", &n, &other, &bad); err != nil {
		t.Fatalf("linker output %q: %v", woven, err)
	}
	if bad != 0 {
		t.Errorf("%d classes fail verification:\n%s", bad, woven)
	}
	if other != 0 || n < 15000 {
		t.Errorf("woven JDK linked %d classes, %d failed to load or link", n, other)
	}
}

// javacTree is a small multi-file source tree: generics, lambdas, inner
// and anonymous classes, an enum, a record-like class, an interface with
// default methods, string switch, varargs.
var javacTree = map[string]string{
	"shapes/Shape.java": `package shapes;
public interface Shape extends Comparable<Shape> {
    double area();
    default String describe() { return getClass().getSimpleName() + String.format("(%.2f)", area()); }
    default int compareTo(Shape o) { return Double.compare(area(), o.area()); }
}`,
	"shapes/Circle.java": `package shapes;
public final class Circle implements Shape {
    private final double r;
    public Circle(double r) { this.r = r; }
    public double area() { return Math.PI * r * r; }
}`,
	"shapes/Rect.java": `package shapes;
public class Rect implements Shape {
    protected final double w, h;
    public Rect(double w, double h) { this.w = w; this.h = h; }
    public double area() { return w * h; }
    public static class Square extends Rect { public Square(double s) { super(s, s); } }
}`,
	"shapes/Kind.java": `package shapes;
public enum Kind {
    CIRCLE { Shape make(double x) { return new Circle(x); } },
    SQUARE { Shape make(double x) { return new Rect.Square(x); } };
    abstract Shape make(double x);
    public static Shape parse(String s) {
        String[] p = s.split(":");
        switch (p[0]) {
            case "c": return CIRCLE.make(Double.parseDouble(p[1]));
            case "s": return SQUARE.make(Double.parseDouble(p[1]));
            default: throw new IllegalArgumentException(s);
        }
    }
}`,
	"app/Main.java": `package app;
import java.util.*;
import java.util.function.*;
import java.util.stream.*;
import shapes.*;
public class Main {
    static <T extends Comparable<? super T>> List<T> sorted(Collection<T> c) { List<T> l = new ArrayList<>(c); Collections.sort(l); return l; }
    static int sum(int... xs) { return IntStream.of(xs).sum(); }
    public static void main(String[] args) {
        List<Shape> shapes = Stream.of("c:1", "s:2", "c:0.5", "s:1.5").map(Kind::parse).collect(Collectors.toList());
        Function<Shape, String> d = Shape::describe;
        sorted(shapes).forEach(s -> System.out.println(d.apply(s)));
        Map<String, List<Shape>> byKind = shapes.stream().collect(Collectors.groupingBy(s -> s.getClass().getSimpleName(), TreeMap::new, Collectors.toList()));
        System.out.println(byKind.keySet() + " " + sum(1, 2, 3));
        Runnable r = new Runnable() { public void run() { System.out.println("anon " + shapes.size()); } };
        r.run();
    }
}`,
}

// sameJavac compiles the source tree (path → text) with the stock javac
// and with the woven image j's: the same output and diagnostics, and
// byte-identical class files. It returns both output directories and how
// many class files the stock javac wrote.
func sameJavac(t *testing.T, stockJavac string, j *wovenJDK, tree map[string]string) (stockOut, wovenOut string, n int) {
	t.Helper()
	src := t.TempDir()
	var files []string
	for name, text := range tree {
		p := filepath.Join(src, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	sort.Strings(files)
	stockOut, wovenOut = t.TempDir(), t.TempDir()
	so, se := runIn(t, stockJavac, jvmtest.ToolArgs(append([]string{"-Xlint:all", "-d", stockOut}, files...)...)...)
	wo, we := runIn(t, j.bin("javac"), append([]string{"-J-Xverify:all", "-Xlint:all", "-d", wovenOut}, files...)...)
	if so != wo || se != we {
		t.Errorf("%s's output differs:\nstock: %s%s\nwoven: %s%s", stockJavac, so, se, wo, we)
	}
	filepath.WalkDir(stockOut, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(stockOut, p)
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(wovenOut, rel))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between %s and the woven image's (%v)", rel, stockJavac, err)
		}
		n++
		return nil
	})
	return stockOut, wovenOut, n
}

// TestHarshJavac compiles a multi-file source tree with the woven runtime
// image's javac launcher: the same diagnostics and byte-identical class
// files as the stock javac.
func TestHarshJavac(t *testing.T) {
	j := harshJDK(t)
	stockOut, wovenOut, n := sameJavac(t, jvmtest.Javac(t), j, javacTree)
	if n < 8 {
		t.Errorf("javac wrote %d class files", n)
	}
	// The program runs the same too.
	want, _ := jvmtest.Run(t, "-cp", stockOut, "app.Main")
	got, _ := runIn(t, j.bin("java"), "-cp", wovenOut, "app.Main")
	if got != want {
		t.Errorf("app.Main on the woven image: %q, want %q", got, want)
	}
}

const poolsSrc = `import java.util.*;
import java.util.concurrent.*;
import java.util.stream.*;
public class Pools {
    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 30; i++) { int k = i; fs.add(pool.submit(() -> { Map<Integer, Integer> m = new HashMap<>(); for (int j = 0; j < 1000; j++) m.put(j, j * k); return m.get(999); })); }
        long total = 0;
        for (Future<Integer> f : fs) total += f.get();
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        long fj = new ForkJoinPool(4).submit(() -> IntStream.range(0, 200_000).parallel().mapToLong(i -> (long) i * i % 7).sum()).get();
        long common = IntStream.range(0, 100_000).parallel().filter(i -> i % 3 == 0).count();
        CompletableFuture<String> cf = CompletableFuture.supplyAsync(() -> "cf").thenApplyAsync(s -> s + "!");
        System.out.println(total + " " + fj + " " + common + " " + cf.get());
    }
}
`

// TestHarshThreads runs a program with a thread pool, ForkJoin pools and
// CompletableFuture on the woven runtime image: same output, advice ran on every
// kind of thread, and a thread started inside advice inherited the bypass.
func TestHarshThreads(t *testing.T) {
	j := harshJDK(t)
	app := jvmtest.Compile(t, map[string]string{"Pools.java": poolsSrc})
	want, _ := jvmtest.Run(t, "-cp", app, "Pools")
	tf := filepath.Join(t.TempDir(), "threads")
	got, _ := runIn(t, j.bin("java"), "-Dweft.threads="+tf, "-cp", app, "Pools")
	if got != want {
		t.Errorf("Pools on the woven image: %q, want %q", got, want)
	}
	b, err := os.ReadFile(tf)
	if err != nil {
		t.Fatal(err)
	}
	seen := string(b)
	for _, w := range []string{"childBypass=true", "\nmain\n", "pool-1-thread-", "ForkJoinPool-1-worker-", "ForkJoinPool.commonPool-worker-"} {
		if !strings.Contains(seen, w) {
			t.Errorf("threads file lacks %q:\n%s", w, seen)
		}
	}
}

func copyDir(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
