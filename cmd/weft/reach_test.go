package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/pointcut"
	"github.com/weft-aop/weft/weaver/ltw"
)

// reachMainSrc loads guava in a loader of its own, so that its classes
// reach the load-time hook (the class path is woven ahead), and calls
// twice three times: with main, four executions within app.
const reachMainSrc = `package app;
import java.net.*;
public class Main {
    static int twice(int x) { return 2 * x; }
    public static void main(String[] a) throws Exception {
        int s = twice(1) + twice(2) + twice(3);
        try (URLClassLoader l = new URLClassLoader(new URL[] {new java.io.File(a[0]).toURI().toURL()}, null)) {
            Class<?> c = l.loadClass("com.google.common.collect.ImmutableList");
            Object list = c.getMethod("of", Object.class, Object.class, Object.class).invoke(null, "x", "y", "z");
            Object joiner = l.loadClass("com.google.common.base.Joiner").getMethod("on", String.class).invoke(null, "-");
            System.out.println(s + " " + joiner.getClass().getMethod("join", Iterable.class).invoke(joiner, list));
        }
    }
}
`

const reachHitsSrc = `package hits;
import java.util.concurrent.atomic.AtomicInteger;
public class Hits {
    static final AtomicInteger n = new AtomicInteger();
    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("hits " + n.get()))); }
    public static void hit() { n.incrementAndGet(); }
}
`

const reachWeft = `aspect InApp {
    before(): execution(* *(..)) && within(app..*) {
        hits.Hits.hit();
    }
}
`

// TestRunReach: an aspect whose advice is within(app..*) reaches app's
// classes only, so the JVM answers the others itself (guava's, loaded at
// run time, and the JDK's hidden classes): none is sent to weft, each is
// counted as one no aspect reaches, and the advice runs exactly as often
// as without the pre-filter would (four executions in app).
func TestRunReach(t *testing.T) {
	const guava = "/usr/share/java/guava.jar"
	if _, err := os.Stat(guava); err != nil {
		t.Fatalf("%v: install Debian's libguava-java (bash .ci/run does)", err)
	}
	adv := jvmtest.Compile(t, map[string]string{"hits/Hits.java": reachHitsSrc})
	app := jvmtest.Compile(t, map[string]string{"app/Main.java": reachMainSrc})
	aspect := writeFile(t, "inapp.weft", reachWeft)
	report := filepath.Join(t.TempDir(), "ltw.json")
	stdout, stderr, code := weft(t, []string{newCache(t)}, "run", "-a", aspect, "--advice-cp", adv, "--modules", "java.base",
		"--patches", "-v", "--ltw-report", report, "--", jvmtest.Java(t), "-Xverify:all", "-cp", app, "app.Main", guava)
	if code != 0 || stdout != "12 x-y-z\n" || !strings.Contains(stderr, "hits 4\n") {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", code, stdout, stderr)
	}
	var sum ltw.Summary
	b, err := os.ReadFile(report)
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	if err != nil {
		t.Fatal(err)
	}
	// guava's classes the program uses: some dozens; the JVM sends none.
	if sum.Unreached < 20 || sum.Requests != 0 || sum.Woven != 0 {
		t.Errorf("summary: %d classes no aspect reaches, %d requests, %d woven; want ≥ 20, 0, 0\n%s",
			sum.Unreached, sum.Requests, sum.Woven, stderr)
	}
	if !strings.Contains(stderr, strconv.Itoa(sum.Unreached)+" no aspect reaches") {
		t.Errorf("the summary line does not say how many classes no aspect reaches:\n%s", stderr)
	}
}

// TestReachRegexpsAgree: the JVM reads the aspects' reach with
// java.util.regex; it must accept the names Go's regexp does.
func TestReachRegexpsAgree(t *testing.T) {
	var patterns []string
	for _, within := range []string{"com.acme..*", "com.acme.Foo", "java.util.Map.*", "*Service", "com.acme.Foo$Bar", "String"} {
		f, err := pointcut.ParseFile("r.weft", []byte("aspect A { before(): within("+within+") { a.B.c(); } }"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := pointcut.Resolve([]*pointcut.File{f}, "")
		if err != nil {
			t.Fatal(err)
		}
		r := p.ClassReach()
		if r == nil {
			t.Fatalf("within(%s): every class in reach", within)
		}
		patterns = append(patterns, r.Patterns...)
	}
	names := []string{"com/acme/Foo", "com/acme/Foo$Bar", "com/acme/Foo$$Lambda/0x01", "com/acme/x/Y", "com/acmeX/Foo",
		"java/util/Map$Entry", "java/util/Map", "OrderService", "a/b/OrderService$1", "java/lang/String", "String", "StringX"}
	harness := `public class Agree {
    public static void main(String[] a) {
        for (int i = 0; i + 1 < a.length; i += 2) {
            System.out.println(java.util.regex.Pattern.matches(a[i], a[i + 1]));
        }
    }
}`
	dir := jvmtest.Compile(t, map[string]string{"Agree.java": harness})
	agree(t, dir, "Agree", "regexp", patterns, names, func(p, n string) bool {
		r, err := advice.NewReach([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		return r.Has(n)
	})
}
