// Package e2e runs weft end to end against the real JDK: the whole JDK
// woven with the harshest aspect, then real programs on it.
package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	rtjava "github.com/weft-aop/weft/runtime-java"
	"github.com/weft-aop/weft/weaver"
	"github.com/weft-aop/weft/weaver/jdk"
)

// execMatcher is the harshest aspect (written without the language):
// before advice at every method and constructor execution of every class,
// passing the join point id.
type execMatcher struct{ adv *advice.Advice }

func (m execMatcher) Match(s *pointcut.Shadow, h classfile.Hierarchy) []pointcut.Applied {
	if s.Kind != pointcut.MethodExecution && s.Kind != pointcut.ConstructorExecution {
		return nil
	}
	return []pointcut.Applied{{Advice: m.adv, Verdict: pointcut.Always}}
}

// counterSrc counts hits per join point id and, at exit, writes the
// non-zero counts to the file named by -Dweft.counts. It has no static
// initializer; advice runs with the bypass set, so its own allocations and
// the shutdown hook thread (which inherits the bypass) are not counted.
const counterSrc = `package weftcount;
public final class Counter {
    static long[] hits;
    public static void hit(int id) {
        long[] h = hits;
        if (h == null) h = init();
        if (id < h.length) h[id]++;
    }
    static synchronized long[] init() {
        if (hits == null) {
            hits = new long[1 << 21];
            String f = System.getProperty("weft.counts");
            if (f != null) Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (java.io.PrintWriter w = new java.io.PrintWriter(f)) {
                    for (int i = 0; i < hits.length; i++) if (hits[i] != 0) w.println(i + " " + hits[i]);
                } catch (Exception e) { e.printStackTrace(); }
            }));
        }
        return hits;
    }
}
`

// wovenJDK is the JDK woven once for the tests of this package.
type wovenJDK struct {
	dir    string // weft jdk output: weft.args, summary.json, patch/
	args   string // "@DIR/weft.args"
	sum    *jdk.Summary
	ids    map[string]int32 // "java/util/HashMap.put(...)..." → execution join point id
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
	harshOnce.Do(func() { harsh, harshErr = weaveHarsh(t) })
	if harsh == nil {
		t.Fatal(harshErr)
	}
	return harsh
}

func weaveHarsh(t *testing.T) (*wovenJDK, string) {
	home := jvmtest.JavaHome(t)
	dir, err := os.MkdirTemp("", "weft-e2e-jdk-")
	if err != nil {
		return nil, err.Error()
	}
	rt, err := jdk.BuildRuntime(home, filepath.Join(dir, "cache"))
	if err != nil {
		return nil, err.Error()
	}
	// Advice compiles against the application-mode runtime: same API.
	rtSrc := map[string]string{"weftcount/Counter.java": counterSrc}
	for k, v := range rtjava.Sources() {
		rtSrc[k] = string(v)
	}
	adv := jvmtest.Compile(t, rtSrc)
	os.RemoveAll(filepath.Join(adv, "weft"))
	img, err := classfile.OpenJDK(home)
	if err != nil {
		return nil, err.Error()
	}
	defer img.Close()
	x := &jdk.Exclusions{}
	w := weaver.New(execMatcher{&advice.Advice{Kind: advice.Before, Aspect: "Count", File: "count.weft", Line: 2,
		Method: advice.Method{Owner: "weftcount/Counter", Name: "hit", Desc: "(I)V"},
		Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}},
		nil, weaver.Options{Hierarchy: classfile.NewHierarchy(img), Mode: weaver.JDK, Exclude: x.Excluded})
	var mu sync.Mutex
	ids := map[string]int32{}
	cw := jdk.Aspects{W: w, OnResult: func(res *weaver.Result) {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range res.Shadows {
			if s.Kind == pointcut.MethodExecution && strings.HasPrefix(s.Member.Owner, "java/util/HashMap") {
				ids[s.Member.Owner+"."+s.Member.Name+s.Member.Desc] = s.ID
			}
		}
	}}
	sum, err := jdk.WeaveImage(jdk.Options{JavaHome: home, Out: dir, Weaver: cw, Exclusions: x,
		Runtime: rt, BootAppend: []string{adv}})
	if err != nil {
		return nil, err.Error()
	}
	return &wovenJDK{dir: dir, args: "@" + filepath.Join(dir, "weft.args"), sum: sum, ids: ids, weaveS: sum.Seconds}, ""
}

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
    }
}
`

// stockVersion strips what patching changes in `java -version`: class data
// sharing is off with --patch-module.
func stockVersion(s string) string { return strings.Replace(s, ", sharing)", ")", 1) }

// TestHarshVersionAndHello: java -version and a hello world give the stock
// output on the woven JDK under -Xverify:all, and the counts include
// java.util.HashMap.put.
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
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	want, _ := jvmtest.Run(t, "-cp", app, "Hello")
	counts := filepath.Join(t.TempDir(), "counts")
	got, _ := jvmtest.Run(t, "-Xverify:all", j.args, "-Dweft.counts="+counts, "-cp", app, "Hello")
	if got != want {
		t.Errorf("hello on the woven JDK: %q, want %q", got, want)
	}
	c := readCounts(t, counts)
	put, ok := j.ids["java/util/HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"]
	if !ok {
		t.Fatal("no execution join point for java.util.HashMap.put")
	}
	if c[put] < 1 {
		t.Errorf("java.util.HashMap.put (id %d) counted %d times; %d join points counted in all", put, c[put], len(c))
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if harsh != nil {
		os.RemoveAll(harsh.dir)
	}
	os.Exit(code)
}
