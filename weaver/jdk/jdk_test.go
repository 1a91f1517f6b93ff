package jdk

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// counterSrc is a hook for EntryHook: it guards itself as woven code does
// (BIB, then DIB) and counts hits per id. It has no static initializer: its
// state is made inside the bypass, so nothing it does is counted.
const counterSrc = `package weftproto;
import weft.rt.DIB;
import weft.rt.Weft;
public final class Counter {
    static long[] hits;
    static boolean hooked;
    public static void hit(int id) {
        if (Weft.bypass()) return;
        boolean old = DIB.getAndSetTrue();
        try {
            if (hits == null) {
                hits = new long[1 << 20];
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    String want = System.getProperty("weft.id");
                    if (want != null) System.err.println("weft: hits[" + want + "]=" + hits[Integer.parseInt(want)]);
                    if (Boolean.getBoolean("weft.spawn")) {
                        // A thread made inside advice inherits the bypass.
                        boolean[] seen = new boolean[1];
                        Thread t = new Thread(() -> seen[0] = DIB.get());
                        t.start();
                        try { t.join(); } catch (InterruptedException e) {}
                        System.err.println("weft: child bypass=" + seen[0]);
                    }
                }));
            }
            hits[id]++;
        } finally {
            DIB.set(old);
        }
    }
}
`

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

// TestPrototypeJavaBase weaves a guarded hook into the entry of every method
// of java.base (minus the exclusion list), patches Thread and System, and
// runs java -version and a program under -Xverify:all on it: bootstrap
// survives, the output is the stock one, HashMap.put was counted after
// bootstrap, and a thread created inside advice inherits the bypass flag.
func TestPrototypeJavaBase(t *testing.T) {
	home := jvmtest.JavaHome(t)
	out := t.TempDir()
	rt, err := BuildRuntime(home, runtimeCache(t))
	if err != nil {
		t.Fatal(err)
	}
	// The hook compiles against the runtime: put it on the class path.
	rtDir := t.TempDir()
	for n, b := range rt {
		p := filepath.Join(rtDir, n+".class")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, b, 0o644)
	}
	adv := jvmtest.Compile(t, map[string]string{"weftproto/Counter.java": counterSrc},
		"--patch-module", "java.base="+rtDir, "--add-exports", "java.base/weft.rt=ALL-UNNAMED")
	x := &Exclusions{}
	var mu sync.Mutex
	ids := map[string]int32{}
	h := &EntryHook{Owner: "weftproto/Counter", Name: "hit", Exclude: x.Excluded,
		OnID: func(class, method string, id int32) {
			mu.Lock()
			ids[class+"."+method] = id
			mu.Unlock()
		}}
	sum, err := WeaveModules(Options{JavaHome: home, Modules: []string{"java.base"}, Out: out,
		Weaver: h, Exclusions: x, Runtime: rt, BootAppend: []string{adv}})
	if err != nil {
		t.Fatal(err)
	}
	classes, woven, methods := sum.Totals()
	t.Logf("java.base: %d classes, %d woven, %d methods in %.1fs; %d unwoven, %d intrinsics",
		classes, woven, methods, sum.Seconds, len(sum.Unwoven), len(sum.Intrinsics))
	if woven < 5000 || len(sum.Unwoven) > 0 {
		t.Fatalf("woven %d of %d classes; unwoven: %v", woven, classes, sum.Unwoven)
	}
	if !contains(sum.Intrinsics, "java/lang/String.hashCode()I") && !contains(sum.Intrinsics, "java/lang/Math.sqrt(D)D") {
		t.Errorf("intrinsics list misses Math.sqrt: %v", sum.Intrinsics[:min(10, len(sum.Intrinsics))])
	}
	id, ok := ids["java/util/HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"]
	if !ok {
		t.Fatal("HashMap.put was not woven")
	}
	args := "@" + filepath.Join(out, "weft.args")
	stockV, stockVErr := jvmtest.Run(t, "-version")
	_, vErr := jvmtest.Run(t, "-Xverify:all", args, "-version")
	// Patching disables class data sharing: the VM line loses ", sharing".
	if stockV != "" || vErr != strings.Replace(stockVErr, ", sharing)", ")", 1) {
		t.Errorf("java -version differs:\nstock: %s\nwoven: %s", stockVErr, vErr)
	}
	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	want, _ := jvmtest.Run(t, "-cp", app, "Hello")
	got, stderr := jvmtest.Run(t, "-Xverify:all", args, "-Dweft.spawn=true", "-Dweft.id="+strconv.Itoa(int(id)), "-cp", app, "Hello")
	if got != want {
		t.Errorf("woven output %q, want %q", got, want)
	}
	if !strings.Contains(stderr, "weft: hits[") || strings.Contains(stderr, "]=0\n") {
		t.Errorf("HashMap.put not counted: %s", stderr)
	}
	if !strings.Contains(stderr, "weft: child bypass=true") {
		t.Errorf("thread created in advice does not inherit the bypass: %s", stderr)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
