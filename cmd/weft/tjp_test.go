package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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
    before(Deprecated d): execution(* java.util.Obs*.*(..)) && @this(d) { tjp.Log.atThis(d, thisJoinPointStaticPart); }
    before(Deprecated d): call(* *(..)) && @target(d) && within(java.util.Obs*) { tjp.Log.atTarget(d, thisJoinPointStaticPart); }
    before(Deprecated d): execution(* java.util.Objects.requireNonNullElse(..)) && @args(d, *) { tjp.Log.atArgs(d, thisJoinPointStaticPart); }
    before(Deprecated d): execution(* java.lang.Character.*(..)) && @annotation(d) { tjp.Log.atAnnotation(d, thisJoinPointStaticPart); }
    before(): execution(* (@Deprecated java.util.*).*(..)) { tjp.Log.deprecatedType(thisJoinPointStaticPart); }
    before(): execution(* *(..)) && within(@jdk.internal.javac.PreviewFeature *) { tjp.Log.preview(thisJoinPointStaticPart); }
    before(Object k): execution(* java.util.HashMap.put(..)) && args(k, ..) && if(tjp.Log.marked(k)) { tjp.Log.ifMarked(k); }
    before(IllegalArgumentException e): handler(IllegalArgumentException) && args(e) && within(java.lang.Integer) { tjp.Log.caught(e); }
    before(): staticinitialization(java.util.Observable) || preinitialization(java.util.Observable.new()) || initialization(java.util.Observable.new()) {
        tjp.Log.kind(thisJoinPointStaticPart);
    }
    boolean around(char c): execution(boolean java.lang.Character.isJavaLetter(char)) && args(c) { tjp.Log.letter(proceed, c); }
}
`

// tjpLog prints the join points whose first argument is a marker: the JVM
// itself adds to lists all the time.
const tjpLog = `package tjp;
import weft.rt.JoinPoint;
import weft.rt.JoinPointStaticPart;
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

    // exactly counted in Main's run: annotations of values' classes
    // bound at run time (@this, @target, @args), a method's bound
    // (@annotation), a declaring type's (annotation type pattern) and a
    // class-retention one (within(@PreviewFeature *))
    public static void atThis(Deprecated d, JoinPointStaticPart jp) { annotated("@this", d, jp); }
    public static void atTarget(Deprecated d, JoinPointStaticPart jp) { annotated("@target", d, jp); }
    public static void atArgs(Deprecated d, JoinPointStaticPart jp) { annotated("@args", d, jp); }
    public static void atAnnotation(Deprecated d, JoinPointStaticPart jp) { annotated("@annotation", d, jp); }
    public static void deprecatedType(JoinPointStaticPart jp) { annotated("type", null, jp); }
    public static void preview(JoinPointStaticPart jp) { annotated("class-retention", null, jp); }
    // if(), a handler in Integer.getInteger(""), Observable's
    // initialization, around advice proceeding twice with a new argument
    public static boolean marked(Object k) { return "cflow-key".equals(k); }
    public static void ifMarked(Object k) { System.out.println("if " + k); }
    public static void caught(IllegalArgumentException e) { System.out.println("handler " + e.getMessage()); }
    public static void kind(JoinPointStaticPart jp) { System.out.println(jp.getKind() + " " + jp.getDeclaringTypeName()); }
    public static boolean letter(weft.rt.Proceed p, char c) throws Throwable {
        Object one = p.proceed('1'), same = p.proceed();
        System.out.println("around isJavaLetter(" + c + "): proceed('1') " + one + ", proceed() " + same);
        return (Boolean) same;
    }
    static void annotated(String what, Deprecated d, JoinPointStaticPart jp) {
        System.out.println(what + (d == null ? "" : " since " + d.since()) + " " + jp.getDeclaringTypeName() + "." + jp.getName());
    }

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

const tjpMain = `import java.lang.invoke.*;
import java.util.*;
public class Main {
    @SuppressWarnings("deprecation")
    public static void main(String[] a) throws Throwable {
        List<Object> l = new ArrayList<>(12345);
        l.add("tjp");
        l.add(0, "tjp");
        System.out.println(Integer.toHexString(0xcafe) + " " + Objects.toString("tjp") + " " + l);
        new HashMap<Object, Object>().put("cflow-key", 1);
        // Annotated: Observable (Deprecated), Character.isJavaLetter
        // (Deprecated), SwitchBootstraps (PreviewFeature, class retention).
        Observable o = new Observable();
        o.addObserver((x, y) -> {});
        o.notifyObservers();
        if (o.countObservers() != 1 || Objects.requireNonNullElse(o, "else") != o || !Character.isJavaLetter('a')
                || Integer.getInteger("") != null) {
            throw new AssertionError();
        }
        CallSite cs = (CallSite) Class.forName("java.lang.runtime.SwitchBootstraps")
            .getMethod("typeSwitch", MethodHandles.Lookup.class, String.class, MethodType.class, Object[].class)
            .invoke(null, MethodHandles.lookup(), "x", MethodType.methodType(int.class, Object.class, int.class), new Object[]{String.class, Integer.class});
        if ((int) cs.getTarget().invokeExact((Object) 7, 0) != 1) {
            throw new AssertionError();
        }
    }
}
`

// baseLinkerSrc loads and links every class of java.base (as the JDK's
// own image lists them), printing how many, how many failed otherwise
// (none on the stock JDK) and those that fail to verify. (e2e's linkerSrc
// does the same for every module, without weft's runtime to call.)
const baseLinkerSrc = `import java.net.URI;
import java.nio.file.*;
import java.util.*;
public class Linker {
    public static void main(String[] args) throws Exception {
        weft.rt.DIB.set(true); // verification does not need the advice: run it unadvised
        Path root = FileSystems.getFileSystem(URI.create("jrt:/")).getPath("/modules", "java.base");
        List<String> names = new ArrayList<>();
        try (var s = Files.walk(root)) {
            s.map(p -> root.relativize(p).toString()).filter(r -> r.endsWith(".class") && !r.equals("module-info.class"))
                .forEach(r -> names.add(r.substring(0, r.length() - 6).replace('/', '.')));
        }
        int linked = 0, other = 0;
        List<String> bad = new ArrayList<>();
        for (String name : names) {
            try {
                Class<?> c = Class.forName(Object.class.getModule(), name);
                if (c == null) { other++; continue; }
                c.getDeclaredMethods();
                linked++;
            } catch (VerifyError | ClassFormatError e) {
                bad.add(name + ": " + e);
            } catch (Throwable e) {
                other++; // any other failure: none on the stock JDK
            }
        }
        System.out.println("linked " + linked + " other " + other + " bad " + bad.size());
        for (String b : bad) System.out.println("BAD " + b);
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
// pattern, a bound annotation): each runs in javac, where it must. In the
// program, advice selected by @this, @target, @args, @annotation (each
// binding Deprecated), an annotated declaring type and a class-retention
// annotation (PreviewFeature) runs exactly at the join points counted by
// hand, and so do if(), a handler, Observable's (static) initialization
// and around advice proceeding twice. Every class of the woven java.base
// loads and links under -Xverify:all.
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
		"if cflow-key",
		"hashCode of cflow-key in put(cflow-key)",
		"staticinitialization java.util.Observable",
		"preinitialization java.util.Observable",
		"initialization java.util.Observable",
		// Observable's executions (@this, its type), the call in
		// notifyObservers() of notifyObservers(null) (@target),
		// requireNonNullElse(o, "else") (@args), isJavaLetter
		// (@annotation) and SwitchBootstraps: typeSwitch with two labels,
		// one switch.
		"@this since 9 java.util.Observable.addObserver",
		"type java.util.Observable.addObserver",
		"@this since 9 java.util.Observable.notifyObservers",
		"type java.util.Observable.notifyObservers",
		"@target since 9 java.util.Observable.notifyObservers",
		"@this since 9 java.util.Observable.notifyObservers",
		"type java.util.Observable.notifyObservers",
		"@this since 9 java.util.Observable.countObservers",
		"type java.util.Observable.countObservers",
		"@args since 9 java.util.Objects.requireNonNullElse",
		"@annotation since 1.1 java.lang.Character.isJavaLetter",
		"around isJavaLetter(a): proceed('1') false, proceed() true",
		"handler key can't be empty",
		"class-retention java.lang.runtime.SwitchBootstraps.typeSwitch",
		"class-retention java.lang.runtime.SwitchBootstraps.verifyLabel",
		"class-retention java.lang.runtime.SwitchBootstraps.verifyLabel",
		"class-retention java.lang.runtime.SwitchBootstraps.doTypeSwitch\n",
	}, "\n")
	if out != want {
		t.Errorf("woven JDK output:\n%s\nwant:\n%s", out, want)
	}

	// Every class of the woven java.base verifies: a program loads and
	// links each (Class.forName without initializing, then
	// getDeclaredMethods) under -Xverify:all.
	t0 := time.Now()
	linker := jvmtest.Compile(t, map[string]string{"Linker.java": baseLinkerSrc}, "-cp", rtJar)
	// (The client compiler only: what is checked is the verifier's.)
	linked, linkErr := jvmtest.Run(t, jvmtest.QuickArgs("-Xverify:all", "@"+filepath.Join(dir, "weft.args"), "-cp", linker+string(filepath.ListSeparator)+adv, "Linker")...)
	var n, other, bad int
	if _, err := fmt.Sscanf(linked, "linked %d other %d bad %d", &n, &other, &bad); err != nil || bad != 0 || other != 0 || n < 5000 {
		t.Errorf("linking java.base's classes: %q (%v); stderr:\n%s", linked, err, linkErr)
	}
	t.Logf("%s in %v", strings.TrimSpace(strings.SplitN(linked, "\n", 2)[0]), time.Since(t0))

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
