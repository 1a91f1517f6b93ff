package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// tjpWeft advises executions and a call in java.base with thisJoinPoint
// printed, every execution with thisJoinPoint counted, and HashMap's
// executions in the control flow of its put (cflow) and below its putVal
// (cflowbelow) counted, and String.hashCode in a put with the put's key
// (bound inside the cflow).
const tjpWeft = `aspect Tjp {
    before(): execution(* java.util.ArrayList.add(..)) || execution(java.util.ArrayList.new(int))
        || execution(* java.lang.Integer.toHexString(int))
        || call(* java.lang.String.valueOf(Object)) && withincode(* java.util.Objects.toString(Object)) {
        tjp.Log.jp(thisJoinPoint);
    }
    before(): execution(* *(..)) || execution(new(..)) {
        tjp.Log.count(thisJoinPoint);
    }
    Object around(): execution(* java.util.HashMap.get(Object)) || call(* java.lang.String.charAt(int))
        || call(java.lang.StringBuilder.new(..)) || call(byte[].new(int)) || get(int java.util.ArrayList.size)
        || set(* java.util.HashMap.modCount) {
        tjp.Log.around(proceed);
    }
    pointcut put(Object k): execution(* java.util.HashMap.put(..)) && args(k, ..);
    before(): (execution(* java.util.HashMap*.*(..)) || execution(java.util.HashMap*.new(..))) && cflow(put(Object)) {
        tjp.Log.inPut();
    }
    before(): execution(* java.util.HashMap*.*(..)) && cflowbelow(execution(* java.util.HashMap.putVal(..))) {
        tjp.Log.belowPutVal();
    }
    before(String s, Object k): execution(int java.lang.String.hashCode()) && this(s) && cflow(put(k)) {
        tjp.Log.hashInPut(s, k);
    }
    before(): execution(@jdk.internal.vm.annotation.ForceInline * *(..)) { tjp.Log.forceInline(); }
    before(): within(@jdk.internal.ValueBased *) && execution(static * *(..)) { tjp.Log.valueBased(); }
    before(): execution(@Deprecated(forRemoval=true, since="17") * *(..)) { tjp.Log.removal(); }
    before(Deprecated d): execution(* *(..)) && @annotation(d) { tjp.Log.deprecated(d); }
    before(): call(* *(..)) && @within(FunctionalInterface) { tjp.Log.functional(); }
}
`

// tjpLog prints the join points whose first argument is a marker: the JVM
// itself adds to lists all the time.
const tjpLog = `package tjp;
import weft.rt.JoinPoint;
public class Log {
    public static void jp(JoinPoint jp) {
        Object[] args = jp.getArgs();
        Object first = args.length > 0 ? args[args.length - 1] : null;
        if (!("tjp".equals(first) || Integer.valueOf(12345).equals(first) || Integer.valueOf(0xcafe).equals(first))) {
            return;
        }
        System.out.println(jp + " | " + jp.toShortString() + " | " + jp.toLongString()
            + " | " + jp.getSignature().getName() + " " + jp.getKind()
            + " this=" + name(jp.getThis()) + " target=" + name(jp.getTarget())
            + " args=" + java.util.Arrays.toString(args)
            + " in " + jp.getSourceLocation().replaceAll(":[0-9]+$", ""));
    }
    public static void inPut() { inPut++; }
    public static void belowPutVal() { belowPutVal++; }
    public static void hashInPut(String s, Object k) {
        if ("cflow-key".equals(k)) {
            System.out.println("hashCode of " + s + " in put(" + k + ")");
        }
    }
    static String name(Object o) { return o == null ? "null" : o.getClass().getName(); }

    static long arounds;
    public static Object around(weft.rt.Proceed p) throws Throwable {
        if (arounds++ == 0) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("around: " + arounds + " join points")));
        }
        return p.proceed();
    }

    // annotation-selected advice: ForceInline executions, ValueBased
    // classes' static methods, Deprecated(forRemoval=true, since="17")
    // executions, bound Deprecated annotations that are for removal, calls
    // in functional interfaces
    static final long[] annotated = new long[5];
    public static void forceInline() { annotated[0]++; }
    public static void valueBased() { annotated[1]++; }
    public static void removal() { annotated[2]++; }
    public static void functional() { annotated[4]++; }
    public static void deprecated(Deprecated d) { if (d.forRemoval()) annotated[3]++; }

    static long hits, args, inPut, belowPutVal;
    public static void count(JoinPoint jp) {
        if (hits++ == 0) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("tjp: " + hits + " join points\n"
                + "cflow: " + inPut + " in HashMap.put, " + belowPutVal + " below HashMap.putVal\n"
                + "annotations: " + java.util.Arrays.toString(annotated))));
        }
        args += jp.getArgs().length;
        boolean exec = jp.getKind().endsWith("execution");
        if (exec && jp.getThis() != jp.getTarget() || !jp.toString().startsWith("execution(")) {
            throw new AssertionError(jp.toLongString() + ": this " + jp.getThis() + ", target " + jp.getTarget());
        }
    }
}
`

const tjpMain = `import java.util.*;
public class Main {
    public static void main(String[] a) {
        List<Object> l = new ArrayList<>(12345);
        l.add("tjp");
        l.add(0, "tjp");
        System.out.println(Integer.toHexString(0xcafe) + " " + Objects.toString("tjp") + " " + l);
        new HashMap<Object, Object>().put("cflow-key", 1);
    }
}
`

// TestJDKJoinPoint weaves java.base with advice passing thisJoinPoint at
// method and constructor executions and a static call, with advice
// passing it at every execution, and with around advice that proceeds
// (method execution and call, constructor call, array construction, field
// get and set), and runs a program on it under
// -Xverify:all and javac: the advice sees AspectJ's strings, this, target and the
// boxed arguments, the program's output is unchanged, and javac makes the
// same classes as on the stock JDK. The cflow advice sees the innermost
// put's key (the program's marker) and counts in javac, and so does advice
// selected by annotations (runtime and JDK-internal ones, a value
// pattern, a bound annotation): each runs in javac, where it must.
func TestJDKJoinPoint(t *testing.T) {
	home := jvmtest.JavaHome(t)
	classes, err := rtjava.Build(home, "")
	if err != nil {
		t.Fatal(err)
	}
	rtJar := filepath.Join(t.TempDir(), "weft-rt.jar")
	if err := archive.WriteClasses(rtJar, archive.Jar, classes); err != nil {
		t.Fatal(err)
	}
	adv := jvmtest.Compile(t, map[string]string{"tjp/Log.java": tjpLog}, "-cp", rtJar)
	aspect := writeFile(t, "tjp.weft", tjpWeft)
	dir := filepath.Join(t.TempDir(), "jdk")
	_, stderr, code := weft(t, []string{newCache(t)}, "jdk", "-q", "-a", aspect, "--advice-cp", adv,
		"--modules", "java.base", "-o", dir)
	if code != 0 || stderr != "" {
		t.Fatalf("weft jdk: exit %d, stderr:\n%s", code, stderr)
	}
	app := jvmtest.Compile(t, map[string]string{"Main.java": tjpMain})
	plain, _ := jvmtest.Run(t, "-cp", app, "Main")
	out, _ := jvmtest.Run(t, "-Xverify:all", "@"+filepath.Join(dir, "weft.args"), "-cp", app+string(filepath.ListSeparator)+adv, "Main")
	want := strings.Join([]string{
		"execution(java.util.ArrayList(int)) | execution(ArrayList(..)) | execution(public java.util.ArrayList(int)) | <init> constructor-execution this=java.util.ArrayList target=java.util.ArrayList args=[12345] in ArrayList.java",
		"execution(boolean java.util.ArrayList.add(Object)) | execution(ArrayList.add(..)) | execution(public boolean java.util.ArrayList.add(java.lang.Object)) | add method-execution this=java.util.ArrayList target=java.util.ArrayList args=[tjp] in ArrayList.java",
		"execution(void java.util.ArrayList.add(int, Object)) | execution(ArrayList.add(..)) | execution(public void java.util.ArrayList.add(int, java.lang.Object)) | add method-execution this=java.util.ArrayList target=java.util.ArrayList args=[0, tjp] in ArrayList.java",
		"execution(String java.lang.Integer.toHexString(int)) | execution(Integer.toHexString(..)) | execution(public static java.lang.String java.lang.Integer.toHexString(int)) | toHexString method-execution this=null target=null args=[51966] in Integer.java",
		"call(String java.lang.String.valueOf(Object)) | call(String.valueOf(..)) | call(public static java.lang.String java.lang.String.valueOf(java.lang.Object)) | valueOf method-call this=null target=null args=[tjp] in Objects.java",
		strings.TrimSuffix(plain, "\n"),
		"hashCode of cflow-key in put(cflow-key)\n",
	}, "\n")
	if out != want {
		t.Errorf("woven JDK output:\n%s\nwant:\n%s", out, want)
	}

	// javac $(cat DIR/weft.jargs): every execution makes a
	// JoinPoint, and the classes are those of the stock javac. (One small
	// source: javac's start alone runs millions of join points; Main.java,
	// collections and generics, nearly doubled them.)
	jargs, err := os.ReadFile(filepath.Join(dir, "weft.jargs"))
	if err != nil {
		t.Fatal(err)
	}
	srcs := []string{writeFile(t, "Hello.java", helloSrc)}
	stock, woven := t.TempDir(), t.TempDir()
	if b, err := exec.Command(jvmtest.Javac(t), jvmtest.ToolArgs(append([]string{"-d", stock}, srcs...)...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	// (-Xverify:all checked the classes the program above loaded; javac,
	// loading far more, runs without it: it is the suite's slowest step.)
	// The client compiler only: C2 compiling the woven code took half of
	// this short javac's CPU time.
	args := append(jvmtest.ToolArgs(strings.Fields(string(jargs))...), "-J-cp", "-J"+adv, "-d", woven)
	b, err := exec.Command(jvmtest.Javac(t), append(args, srcs...)...).CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^tjp: [0-9]{6,} join points\ncflow: [0-9]{4,} in HashMap.put, [0-9]{3,} below HashMap.putVal$`).Match(b) ||
		!regexp.MustCompile(`(?m)^around: [0-9]{5,} join points$`).Match(b) ||
		!regexp.MustCompile(`(?m)^annotations: \[[1-9][0-9]*, [1-9][0-9]*, [1-9][0-9]*, [1-9][0-9]*, [0-9]+\]$`).Match(b) {
		t.Fatalf("javac on the woven JDK: %v\n%s", err, b)
	}
	t.Logf("%s", regexp.MustCompile(`(?m)^annotations: .*$`).Find(b))
	x, err1 := os.ReadFile(filepath.Join(stock, "Hello.class"))
	y, err2 := os.ReadFile(filepath.Join(woven, "Hello.class"))
	if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
		t.Errorf("Hello.class: javac on the woven JDK made other bytes (%v, %v)", err1, err2)
	}
}
